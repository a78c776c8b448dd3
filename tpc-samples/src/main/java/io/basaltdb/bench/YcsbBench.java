package io.basaltdb.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiFunction;

/**
 * YCSB's core workloads (after Cooper et al., "Benchmarking Cloud Serving Systems with YCSB")
 * on Basalt's client API over a pre-split table, and on RocksDB when the {@code bench} profile
 * puts it on the classpath: 1 KB records, zipfian (scrambled) key choice, 1 and 2 client
 * threads, throughput and p50/p99 latency.
 *
 * <pre>
 * bin/basalt bench ycsb [--records 100000] [--ops 100000] [--threads 1,2] [--regions 8]
 *                       [--cache-mb 128] [--dir bench-data] [--only basalt|rocksdb]
 *                       [--csv out.csv]   (also writes out.svg, a chart of the ratios)
 * </pre>
 *
 * A: 50% read / 50% update. B: 95% read / 5% update. C: read only. F: 50% read / 50%
 * read-modify-write (an increment). E: 95% short scans (1-100 records) / 5% inserts.
 * They run in the order A, B, C, F, E after one load, for each thread count.
 */
public final class YcsbBench {
  private record Outcome(String workload, int threads, double opsPerSec, double p50us,
      double p99us) {}

  private final int records;
  private final int ops;
  private final byte[] values;
  private final Zipfian zipf;
  private final AtomicLong inserted = new AtomicLong();

  YcsbBench(int records, int ops) {
    this.records = records;
    this.ops = ops;
    Random r = new Random(42);
    values = new byte[1 << 20];
    for (int i = 0; i + 100 <= values.length; i += 100) {
      for (int j = 0; j < 50; j++) {
        values[i + j] = (byte) (' ' + r.nextInt(95));
      }
      System.arraycopy(values, i, values, i + 50, 50);
    }
    zipf = new Zipfian(records, 0.99);
  }

  /** A record number as its key: 16 hex digits of its FNV-1a hash (YCSB's hashed inserts). */
  static byte[] key(long n) {
    long h = 0xcbf29ce484222325L;
    for (int i = 0; i < 8; i++) {
      h ^= (n >>> (8 * i)) & 0xff;
      h *= 0x100000001b3L;
    }
    byte[] k = new byte[16];
    for (int i = 15; i >= 0; i--) {
      int d = (int) (h & 0xf);
      k[i] = (byte) (d < 10 ? '0' + d : 'a' + d - 10);
      h >>>= 4;
    }
    return k;
  }

  private byte[] record(Random r) {
    byte[] v = new byte[1000];
    System.arraycopy(values, r.nextInt(values.length / 100 - 10) * 100, v, 0, 1000);
    return v;
  }

  /** YCSB's zipfian generator (Gray et al.), scrambled by the key hash. */
  static final class Zipfian {
    private final long n;
    private final double theta;
    private final double zetan;
    private final double alpha;
    private final double eta;

    Zipfian(long n, double theta) {
      this.n = n;
      this.theta = theta;
      double z = 0;
      for (long i = 1; i <= n; i++) {
        z += 1 / Math.pow(i, theta);
      }
      zetan = z;
      double zeta2 = 1 + 1 / Math.pow(2, theta);
      alpha = 1 / (1 - theta);
      eta = (1 - Math.pow(2.0 / n, 1 - theta)) / (1 - zeta2 / zetan);
    }

    long next(Random r) {
      double u = r.nextDouble();
      double uz = u * zetan;
      if (uz < 1) {
        return 0;
      }
      if (uz < 1 + Math.pow(0.5, theta)) {
        return 1;
      }
      return Math.min(n - 1, (long) (n * Math.pow(eta * u - eta + 1, alpha)));
    }
  }

  void load(YcsbStore s) {
    Random r = new Random(7);
    long t0 = System.nanoTime();
    for (int i = 0; i < records; i++) {
      s.write(key(i), record(r));
    }
    inserted.set(records);
    double sec = (System.nanoTime() - t0) / 1e9;
    System.out.printf(Locale.ROOT, "  load %d records: %.0f ops/s%n", records, records / sec);
  }

  Outcome run(YcsbStore s, char workload, int threads) throws InterruptedException {
    long[][] lat = new long[threads][];
    Thread[] ts = new Thread[threads];
    long t0 = System.nanoTime();
    for (int t = 0; t < threads; t++) {
      int id = t;
      int n = ops / threads;
      lat[t] = new long[n];
      ts[t] = new Thread(() -> {
        Random r = new Random(1000L * workload + id);
        for (int i = 0; i < n; i++) {
          long a = System.nanoTime();
          op(s, workload, r);
          lat[id][i] = System.nanoTime() - a;
        }
      });
      ts[t].start();
    }
    for (Thread t : ts) {
      t.join();
    }
    double sec = (System.nanoTime() - t0) / 1e9;
    long[] all = Arrays.stream(lat).flatMapToLong(Arrays::stream).sorted().toArray();
    Outcome o = new Outcome(String.valueOf(workload), threads, all.length / sec,
        all[all.length / 2] / 1e3, all[(int) (all.length * 0.99)] / 1e3);
    System.out.printf(Locale.ROOT, "  %s x%d %10.0f ops/s  p50 %7.1f us  p99 %8.1f us%n",
        o.workload, threads, o.opsPerSec, o.p50us, o.p99us);
    return o;
  }

  private void op(YcsbStore s, char w, Random r) {
    int p = r.nextInt(100);
    byte[] k = key(zipf.next(r));
    switch (w) {
      case 'A' -> {
        if (p < 50) {
          s.read(k);
        } else {
          s.write(k, record(r));
        }
      }
      case 'B' -> {
        if (p < 95) {
          s.read(k);
        } else {
          s.write(k, record(r));
        }
      }
      case 'C' -> s.read(k);
      case 'F' -> {
        if (p < 50) {
          s.read(k);
        } else {
          s.read(k);
          s.increment(k, 1);
        }
      }
      case 'E' -> {
        if (p < 95) {
          s.scan(k, 1 + r.nextInt(100));
        } else {
          s.write(key(inserted.getAndIncrement()), record(r));
        }
      }
      default -> throw new IllegalArgumentException("workload " + w);
    }
  }

  List<Outcome> runAll(YcsbStore s, int[] threadCounts) throws InterruptedException {
    System.out.println(s.name() + ":");
    load(s);
    List<Outcome> out = new ArrayList<>();
    for (int threads : threadCounts) {
      for (char w : new char[] {'A', 'B', 'C', 'F', 'E'}) {
        out.add(run(s, w, threads));
      }
    }
    return out;
  }

  static BiFunction<Path, Long, YcsbStore> rocks() {
    return Reference.factory("io.basaltdb.bench.RocksYcsb");
  }


  public static void main(String[] args) throws Exception {
    Map<String, String> o = new LinkedHashMap<>();
    for (int i = 0; i + 1 < args.length; i += 2) {
      o.put(args[i].replaceFirst("^--", ""), args[i + 1]);
    }
    int records = Integer.parseInt(o.getOrDefault("records", "100000"));
    int ops = Integer.parseInt(o.getOrDefault("ops", "100000"));
    int regions = Integer.parseInt(o.getOrDefault("regions", "8"));
    long cache = Long.parseLong(o.getOrDefault("cache-mb", "128")) << 20;
    int[] threads = Arrays.stream(o.getOrDefault("threads", "1,2").split(","))
        .mapToInt(Integer::parseInt).toArray();
    Path dir = Path.of(o.getOrDefault("dir", "bench-data"));
    String only = o.getOrDefault("only", "");
    Files.createDirectories(dir);
    System.out.printf("YCSB: %d records of 1000 B, %d ops per workload, threads %s, %d regions, "
        + "block cache %d MiB%n", records, ops, Arrays.toString(threads), regions, cache >> 20);
    List<Outcome> basalt = null;
    List<Outcome> ref = null;
    if (!only.equals("rocksdb")) {
      Path d = dir.resolve("ycsb-basalt");
      EngineBench.deleteRecursively(d);
      try (YcsbStore s = new BasaltYcsb(d, cache, regions)) {
        basalt = new YcsbBench(records, ops).runAll(s, threads);
      }
      EngineBench.deleteRecursively(d);
    }
    BiFunction<Path, Long, YcsbStore> rf = only.equals("basalt") ? null : rocks();
    if (rf != null) {
      Path d = dir.resolve("ycsb-rocksdb");
      EngineBench.deleteRecursively(d);
      try (YcsbStore s = rf.apply(d, cache)) {
        ref = new YcsbBench(records, ops).runAll(s, threads);
      }
      EngineBench.deleteRecursively(d);
    }
    if (basalt != null && ref != null) {
      System.out.printf("%n%-4s %3s %12s %9s %9s %12s %9s %9s %7s%n", "wl", "thr", "basalt op/s",
          "p50 us", "p99 us", "rocksdb op/s", "p50 us", "p99 us", "ratio");
      for (int i = 0; i < basalt.size(); i++) {
        Outcome a = basalt.get(i);
        Outcome z = ref.get(i);
        System.out.printf(Locale.ROOT, "%-4s %3d %12.0f %9.1f %9.1f %12.0f %9.1f %9.1f %7.2f%n",
            a.workload, a.threads, a.opsPerSec, a.p50us, a.p99us, z.opsPerSec, z.p50us, z.p99us,
            a.opsPerSec / z.opsPerSec);
      }
      System.out.println("ratio = basalt / rocksdb throughput");
      String csvOut = o.get("csv");
      if (csvOut != null) {
        StringBuilder csv = new StringBuilder(
            "workload,threads,basalt_ops_per_s,basalt_p50_us,basalt_p99_us,rocksdb_ops_per_s,"
                + "rocksdb_p50_us,rocksdb_p99_us,ratio\n");
        Map<String, Double> ratios = new LinkedHashMap<>();
        for (int i = 0; i < basalt.size(); i++) {
          Outcome a = basalt.get(i);
          Outcome z = ref.get(i);
          csv.append(String.format(Locale.ROOT, "%s,%d,%.0f,%.1f,%.1f,%.0f,%.1f,%.1f,%.3f%n",
              a.workload, a.threads, a.opsPerSec, a.p50us, a.p99us, z.opsPerSec, z.p50us,
              z.p99us, a.opsPerSec / z.opsPerSec));
          ratios.put(a.workload + " x" + a.threads, a.opsPerSec / z.opsPerSec);
        }
        java.nio.file.Files.writeString(Path.of(csvOut), csv.toString());
        Path svg = Charts.besideCsv(Path.of(csvOut));
        Charts.ratios(svg, "YCSB: Basalt vs RocksDB (" + records + " records)", ratios,
            "Basalt/RocksDB throughput: above 1 = Basalt faster");
        System.out.println("wrote " + csvOut + " and " + svg);
      }
    }
  }
}
