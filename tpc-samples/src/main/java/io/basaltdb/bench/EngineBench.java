package io.basaltdb.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.function.BiFunction;

/**
 * The classic LSM workloads (after LevelDB's db_bench) with 16-byte keys and 100-byte
 * half-compressible values, run on Basalt and, if on the classpath, RocksDB, one after the
 * other in the same process, then the Basalt/RocksDB ratio of each (above 1 = Basalt faster).
 *
 * <pre>
 * bin/basalt bench engine [--num 1000000] [--reads 1000000] [--seeks 10000] [--runs 1]
 *                         [--cache-mb 128] [--dir bench-data] [--csv out.csv] [--only basalt]
 * </pre>
 *
 * Workloads, per store: on a fresh database fillseq, then readrandom (hits), readmissing,
 * seekrandom (seek + next 100), full scan, then a major compaction and the bytes on disk;
 * on a second fresh database fillrandom, then overwrite; on a third, {@code num} writes to 10,000
 * keys (about num / 10,000 versions each) then readhot, random reads of those keys.
 */
public final class EngineBench {
  private record Result(String workload, long ops, double seconds, long bytes) {
    double opsPerSec() {
      return ops / seconds;
    }

    double mbPerSec() {
      return bytes / seconds / (1 << 20);
    }
  }

  private final int num;
  private final int reads;
  private final int seeks;
  private final long cacheBytes;
  private final Path base;
  private final byte[] valueSource;

  EngineBench(int num, int reads, int seeks, long cacheBytes, Path base) {
    this.num = num;
    this.reads = reads;
    this.seeks = seeks;
    this.cacheBytes = cacheBytes;
    this.base = base;
    // half-compressible data: 50 random bytes then the same 50 again, over 1 MiB
    Random r = new Random(301);
    valueSource = new byte[1 << 20];
    for (int i = 0; i + 100 <= valueSource.length; i += 100) {
      for (int j = 0; j < 50; j++) {
        valueSource[i + j] = (byte) (' ' + r.nextInt(95));
      }
      System.arraycopy(valueSource, i, valueSource, i + 50, 50);
    }
  }

  /** {@code k} as 16 zero-padded decimal digits (what db_bench's keys look like). */
  static byte[] key(long k) {
    byte[] b = new byte[16];
    for (int i = 15; i >= 0; i--) {
      b[i] = (byte) ('0' + k % 10);
      k /= 10;
    }
    return b;
  }

  /** A key between two existing ones of {@link #key}: present keys are even numbers. */
  static byte[] evenKey(long k) {
    return key(2 * k);
  }

  private byte[] value(Random r) {
    byte[] v = new byte[100];
    System.arraycopy(valueSource, r.nextInt(valueSource.length / 100 - 1) * 100, v, 0, 100);
    return v;
  }

  private Result time(String name, long ops, long bytesPerOp, Runnable body) {
    long t0 = System.nanoTime();
    body.run();
    double s = (System.nanoTime() - t0) / 1e9;
    Result res = new Result(name, ops, s, ops * bytesPerOp);
    System.out.printf(Locale.ROOT, "  %-12s %10.0f ops/s %8.1f MB/s (%d ops in %.2f s)%n", name,
        res.opsPerSec(), res.mbPerSec(), ops, s);
    return res;
  }

  List<Result> run(String storeName, BiFunction<Path, Long, KvStore> factory) {
    List<Result> out = new ArrayList<>();
    Path d1 = base.resolve(storeName + "-seq");
    Path d2 = base.resolve(storeName + "-random");
    deleteRecursively(d1);
    deleteRecursively(d2);
    System.out.println(storeName + ":");
    try (KvStore s = factory.apply(d1, cacheBytes)) {
      Random r = new Random(1);
      out.add(time("fillseq", num, 116, () -> {
        for (int i = 0; i < num; i++) {
          s.put(evenKey(i), value(r));
        }
      }));
      s.compactAll(); // settle: reads measure a compacted store for both engines
      Random rr = new Random(2);
      out.add(time("readrandom", reads, 116, () -> {
        int found = 0;
        for (int i = 0; i < reads; i++) {
          if (s.get(evenKey(rr.nextInt(num))) != null) {
            found++;
          }
        }
        check(found == reads, "readrandom found " + found + " of " + reads);
      }));
      out.add(time("readmissing", reads, 16, () -> {
        int found = 0;
        for (int i = 0; i < reads; i++) {
          if (s.get(key(2L * rr.nextInt(num) + 1)) != null) {
            found++;
          }
        }
        check(found == 0, "readmissing found " + found);
      }));
      out.add(time("seekrandom", seeks, 116 * 100, () -> {
        long n = 0;
        for (int i = 0; i < seeks; i++) {
          n += s.seekAndNext(key(2L * rr.nextInt(num) + 1), 100);
        }
        check(n > 0, "seekrandom read nothing");
      }));
      out.add(time("fullscan", num, 116, () -> {
        long n = s.scanAll();
        check(n == num, "full scan saw " + n + " of " + num);
      }));
      long disk = s.diskBytes();
      System.out.printf(Locale.ROOT, "  %-12s %10.1f MB%n", "disk", disk / 1048576.0);
      out.add(new Result("disk_mb", 1, 1, disk));
    }
    try (KvStore s = factory.apply(d2, cacheBytes)) {
      Random r = new Random(3);
      out.add(time("fillrandom", num, 116, () -> {
        for (int i = 0; i < num; i++) {
          s.put(evenKey(r.nextInt(num)), value(r));
        }
      }));
      out.add(time("overwrite", num, 116, () -> {
        for (int i = 0; i < num; i++) {
          s.put(evenKey(r.nextInt(num)), value(r));
        }
      }));
    }
    Path d3 = base.resolve(storeName + "-hot");
    deleteRecursively(d3);
    try (KvStore s = factory.apply(d3, cacheBytes)) {
      // few keys rewritten many times, read without a compaction between: reads that must find
      // the newest of many versions in the memory table and the files flushed meanwhile
      Random r = new Random(4);
      int hot = Math.max(1, Math.min(num, HOT_KEYS));
      for (int i = 0; i < num; i++) {
        s.put(evenKey(r.nextInt(hot)), value(r));
      }
      out.add(time("readhot", reads, 116, () -> {
        int found = 0;
        for (int i = 0; i < reads; i++) {
          if (s.get(evenKey(r.nextInt(hot))) != null) {
            found++;
          }
        }
        check(found == reads, "readhot found " + found + " of " + reads);
      }));
    }
    deleteRecursively(d1);
    deleteRecursively(d2);
    deleteRecursively(d3);
    return out;
  }

  /** Keys of the readhot workload: each is written num / HOT_KEYS times before the reads. */
  private static final int HOT_KEYS = 10_000;

  private static void check(boolean ok, String message) {
    if (!ok) {
      throw new IllegalStateException("benchmark self-check failed: " + message);
    }
  }

  static void deleteRecursively(Path p) {
    io.basaltdb.engine.util.FileTrees.delete(io.basaltdb.engine.io.NioFileSystem.INSTANCE, p);
  }


  /** Per workload, the run with the median throughput. */
  private static List<Result> median(List<List<Result>> runs) {
    List<Result> out = new ArrayList<>();
    for (int w = 0; w < runs.get(0).size(); w++) {
      List<Result> xs = new ArrayList<>();
      for (List<Result> r : runs) {
        xs.add(r.get(w));
      }
      xs.sort(Comparator.comparingDouble(r -> r.bytes() / r.seconds()));
      out.add(xs.get(xs.size() / 2));
    }
    return out;
  }

  static BiFunction<Path, Long, KvStore> rocksFactory() {
    return Reference.factory("io.basaltdb.bench.RocksKv");
  }


  public static void main(String[] args) throws IOException {
    Map<String, String> o = new LinkedHashMap<>();
    for (int i = 0; i + 1 < args.length; i += 2) {
      if (!args[i].startsWith("--")) {
        throw new IllegalArgumentException("expected --option value, got " + args[i]);
      }
      o.put(args[i].substring(2), args[i + 1]);
    }
    int num = Integer.parseInt(o.getOrDefault("num", "1000000"));
    int reads = Integer.parseInt(o.getOrDefault("reads", Integer.toString(num)));
    int seeks = Integer.parseInt(o.getOrDefault("seeks", "10000"));
    long cache = Long.parseLong(o.getOrDefault("cache-mb", "128")) << 20;
    Path dir = Path.of(o.getOrDefault("dir", "bench-data"));
    String only = o.getOrDefault("only", "");
    Files.createDirectories(dir);
    EngineBench b = new EngineBench(num, reads, seeks, cache, dir);
    System.out.printf("engine benchmark: %d keys (16 B) x 100 B values, %d reads, %d seeks, "
        + "block cache %d MiB, heap %d MiB%n", num, reads, seeks, cache >> 20,
        Runtime.getRuntime().maxMemory() >> 20);
    int runs = Integer.parseInt(o.getOrDefault("runs", "1"));
    BiFunction<Path, Long, KvStore> rocks = only.equals("basalt") ? null : rocksFactory();
    if (rocks == null && !only.equals("basalt")) {
      System.out.println("(RocksDB not on the classpath: run with the 'bench' Maven profile, "
          + "as bin/basalt bench engine does, for the comparison)");
    }
    List<List<Result>> basaltRuns = new ArrayList<>();
    List<List<Result>> refRuns = new ArrayList<>();
    for (int run = 0; run < runs; run++) {
      if (runs > 1) {
        System.out.println("--- run " + (run + 1) + " of " + runs);
      }
      if (!only.equals("rocksdb")) {
        basaltRuns.add(b.run("basalt", BasaltKv::new));
      }
      if (rocks != null) {
        refRuns.add(b.run("rocksdb", rocks));
      }
    }
    List<Result> basalt = basaltRuns.isEmpty() ? null : median(basaltRuns);
    List<Result> ref = refRuns.isEmpty() ? null : median(refRuns);
    StringBuilder csv = new StringBuilder("workload,basalt_ops_per_s,rocksdb_ops_per_s,ratio\n");
    java.util.Map<String, Double> ratios = new java.util.LinkedHashMap<>();
    if (basalt != null && ref != null) {
      System.out.println();
      System.out.printf("%-12s %14s %14s %8s%n", "workload", "basalt", "rocksdb", "ratio");
      for (int i = 0; i < basalt.size(); i++) {
        Result a = basalt.get(i);
        Result z = ref.get(i);
        boolean disk = a.workload().equals("disk_mb");
        double va = disk ? a.bytes() / 1048576.0 : a.opsPerSec();
        double vz = disk ? z.bytes() / 1048576.0 : z.opsPerSec();
        double ratio = disk ? vz / va : va / vz; // above 1 = Basalt better (smaller on disk)
        System.out.printf(Locale.ROOT, "%-12s %14.0f %14.0f %8.2f%n", a.workload(), va, vz, ratio);
        csv.append(String.format(Locale.ROOT, "%s,%.1f,%.1f,%.3f%n", a.workload(), va, vz, ratio));
        ratios.put(a.workload(), ratio);
      }
      System.out.println("ratio = basalt / rocksdb ops/s (for disk_mb: rocksdb MB / basalt MB)"
          + (runs > 1 ? "; medians of " + runs + " runs" : ""));
    }
    String csvOut = o.get("csv");
    if (csvOut != null) {
      Files.writeString(Path.of(csvOut), csv.toString());
      if (!ratios.isEmpty()) {
        Path svg = Charts.besideCsv(Path.of(csvOut));
        Charts.ratios(svg, "Basalt engine vs RocksDB (" + num + " keys)", ratios,
            "Basalt/RocksDB throughput: above 1 = Basalt faster");
        System.out.println("wrote " + csvOut + " and " + svg);
      }
    }
  }
}
