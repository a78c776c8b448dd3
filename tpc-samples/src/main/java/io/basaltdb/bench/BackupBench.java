package io.basaltdb.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiFunction;

/**
 * {@code bin/basalt bench backup}: an online backup of a loaded store while a writer goes on,
 * Basalt against RocksDB in the same JVM, taking turns: a linked backup (Basalt's hard links
 * against RocksDB's checkpoint), a copied one (Basalt's {@code --copy} against RocksDB's backup
 * engine, both copying the live log), and a restore of the copy (opened once). For each, the
 * time and the longest any single write of the writer took meanwhile (what the backup's cut
 * cost writers). The restored store's rows are counted. Medians over the rounds.
 *
 * <pre>bin/basalt bench backup [--keys 2000000] [--rounds 3] [--dir bench-data]</pre>
 */
public final class BackupBench {
  private static final int VALUE_BYTES = 100;

  /** One round of one store: times and the writer's longest write during each backup, in ms. */
  private record Round(double linkMs, double linkStallMs, double copyMs, double copyStallMs,
      double restoreMs, long backupBytes, long writes) {}

  private final int keys;
  private final Path dir;

  private BackupBench(int keys, Path dir) {
    this.keys = keys;
    this.dir = dir;
  }

  private static byte[] key(long i) {
    return String.format(Locale.ROOT, "k%015d", i).getBytes();
  }

  /** A writer overwriting random keys until stopped; the longest write while {@code timing}. */
  private static final class Writer implements AutoCloseable {
    final AtomicBoolean stop = new AtomicBoolean();
    final AtomicBoolean timing = new AtomicBoolean();
    final AtomicLong longestNanos = new AtomicLong();
    final AtomicLong writes = new AtomicLong();
    final Thread thread;

    Writer(KvStore s, int keys) {
      thread = new Thread(() -> {
        Random r = new Random(7);
        byte[] v = new byte[VALUE_BYTES];
        while (!stop.get()) {
          r.nextBytes(v);
          long t0 = System.nanoTime();
          s.put(key(r.nextInt(keys)), v);
          long took = System.nanoTime() - t0;
          if (timing.get()) {
            longestNanos.accumulateAndGet(took, Math::max);
          }
          writes.incrementAndGet();
        }
      }, "backup-bench-writer");
      thread.start();
    }

    /** Runs {@code backup}, returning its time and the longest write meanwhile (ms). */
    double[] during(Runnable backup) {
      longestNanos.set(0);
      timing.set(true);
      long t0 = System.nanoTime();
      backup.run();
      double ms = (System.nanoTime() - t0) / 1e6;
      timing.set(false);
      return new double[] {ms, longestNanos.get() / 1e6};
    }

    @Override
    public void close() throws InterruptedException {
      stop.set(true);
      thread.join();
    }
  }

  private Round run(String name, BiFunction<Path, Long, KvStore> factory) throws Exception {
    Path base = dir.resolve("backup-" + name);
    EngineBench.deleteRecursively(base);
    Files.createDirectories(base);
    Path data = base.resolve("db");
    double[] link;
    double[] copy;
    long writes;
    try (KvStore s = factory.apply(data, 64L << 20)) {
      Random r = new Random(1);
      byte[] v = new byte[VALUE_BYTES];
      for (int i = 0; i < keys; i++) {
        r.nextBytes(v);
        s.put(key(i), v);
      }
      try (Writer w = new Writer(s, keys)) {
        Thread.sleep(500);
        link = w.during(() -> s.backup(base.resolve("linked"), false));
        Thread.sleep(200);
        copy = w.during(() -> s.backup(base.resolve("copied"), true));
        Thread.sleep(200);
        writes = w.writes.get();
      }
    }
    long bytes = BasaltKv.directorySize(base.resolve("copied"));
    Path restored = base.resolve("restored");
    double restoreMs;
    try (KvStore other = factory.apply(base.resolve("other"), 0L)) { // restore is the store's code
      long t0 = System.nanoTime();
      other.restore(base.resolve("copied"), restored);
      restoreMs = (System.nanoTime() - t0) / 1e6;
    }
    try (KvStore back = factory.apply(restored, 64L << 20)) {
      long rows = back.scanAll();
      if (rows != keys) {
        throw new IllegalStateException(name + ": the restored store has " + rows + " rows, "
            + keys + " were loaded");
      }
    }
    EngineBench.deleteRecursively(base);
    return new Round(link[0], link[1], copy[0], copy[1], restoreMs, bytes, writes);
  }

  private static double median(List<Round> rs, java.util.function.ToDoubleFunction<Round> f) {
    double[] xs = rs.stream().mapToDouble(f).sorted().toArray();
    return xs[xs.length / 2];
  }

  public static void main(String[] args) throws Exception {
    Map<String, String> o = new LinkedHashMap<>();
    for (int i = 0; i + 1 < args.length; i += 2) {
      o.put(args[i].replaceFirst("^--", ""), args[i + 1]);
    }
    int keys = Integer.parseInt(o.getOrDefault("keys", "2000000"));
    int rounds = Integer.parseInt(o.getOrDefault("rounds", "3"));
    BackupBench b = new BackupBench(keys, Path.of(o.getOrDefault("dir", "bench-data")));
    BiFunction<Path, Long, KvStore> rocks = EngineBench.rocksFactory();
    System.out.printf(Locale.ROOT, "backup benchmark: %d keys (16 B) x %d B values, a writer"
        + " overwriting random keys during each backup, %d rounds%n", keys, VALUE_BYTES, rounds);
    if (rocks == null) {
      System.out.println("(RocksDB not on the classpath: bin/basalt bench backup adds it)");
    }
    List<Round> basalt = new ArrayList<>();
    List<Round> rocksdb = new ArrayList<>();
    for (int round = 1; round <= rounds; round++) {
      basalt.add(b.run("basalt", BasaltKv::new));
      print("basalt", round, basalt.get(basalt.size() - 1));
      if (rocks != null) {
        rocksdb.add(b.run("rocksdb", rocks));
        print("rocksdb", round, rocksdb.get(rocksdb.size() - 1));
      }
    }
    System.out.println();
    System.out.println("medians (ms)                  basalt     rocksdb   rocksdb/basalt");
    for (String[] m : List.of(new String[] {"linked backup", "link"},
        new String[] {"  longest write meanwhile", "linkStall"},
        new String[] {"copied backup", "copy"},
        new String[] {"  longest write meanwhile", "copyStall"},
        new String[] {"restore of the copy", "restore"})) {
      java.util.function.ToDoubleFunction<Round> f = switch (m[1]) {
        case "link" -> Round::linkMs;
        case "linkStall" -> Round::linkStallMs;
        case "copy" -> Round::copyMs;
        case "copyStall" -> Round::copyStallMs;
        default -> Round::restoreMs;
      };
      double bv = median(basalt, f);
      if (rocksdb.isEmpty()) {
        System.out.printf(Locale.ROOT, "%-28s %9.1f%n", m[0], bv);
      } else {
        double rv = median(rocksdb, f);
        System.out.printf(Locale.ROOT, "%-28s %9.1f %11.1f %12.2fx%n", m[0], bv, rv, rv / bv);
      }
    }
    System.out.printf(Locale.ROOT, "(ratio > 1: Basalt took less; a copied backup: basalt %.1f"
        + " MB%s)%n", median(basalt, Round::backupBytes) / 1048576, rocksdb.isEmpty() ? ""
        : String.format(Locale.ROOT, ", rocksdb %.1f MB",
            median(rocksdb, Round::backupBytes) / 1048576));
  }

  private static void print(String name, int round, Round r) {
    System.out.printf(Locale.ROOT, "round %d %-8s linked %8.1f ms (longest write %6.2f ms),"
        + " copied %8.1f ms (longest write %6.2f ms), restore %8.1f ms, copy %.1f MB, %d writes"
        + " during%n", round, name, r.linkMs(), r.linkStallMs(), r.copyMs(), r.copyStallMs(),
        r.restoreMs(), r.backupBytes() / 1048576.0, r.writes());
  }
}
