package io.basaltdb.torture;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;

/**
 * A crash campaign through SQL, in the manner of RocksDB's crash test: each round starts a
 * child JVM ({@link TortureWriter}) writing with random threads and a random mix of writes
 * (literal and prepared UPSERTs, DELETEs, batches, counters, check-and-set UPDATEs,
 * transactions with auto-commit off) into plain, salted, pre-split and multi-family tables,
 * kills it with SIGKILL at a random moment, reopens the database and checks it against the
 * oracle the child kept: every acknowledged write present (a write in flight at the kill either
 * applied or not, row by row; a transaction not acknowledged, all of it or none), the bank's
 * total what it was (transfers between its accounts in transactions), no torn row, no failed reopen, no check that found the database
 * disagreeing with what it had acknowledged. The next round starts from what the database
 * holds. A failing round's database and oracle are kept, with the seed to replay it.
 *
 * <pre>
 * bin/basalt torture [--rounds 20] [--seed N] [--dir bench-data/torture] [--max-threads 3]
 *                    [--run-ms 200-2500]
 * </pre>
 */
public final class TortureRunner {
  /** What a campaign found. */
  public record Outcome(int rounds, int kills, long acknowledged, int lost, int torn,
      int failedReopens, int mismatches, List<Path> kept) {
    public boolean clean() {
      return lost == 0 && torn == 0 && failedReopens == 0 && mismatches == 0;
    }
  }

  private static final long ABSENT = Long.MIN_VALUE;

  private final Path dir;
  private final long seed;
  private final int maxThreads;
  private final int minRunMs;
  private final int maxRunMs;
  private List<String> childJvmOptions = List.of();

  public TortureRunner(Path dir, long seed, int maxThreads, int minRunMs, int maxRunMs) {
    this.dir = dir;
    this.seed = seed;
    this.maxThreads = maxThreads;
    this.minRunMs = minRunMs;
    this.maxRunMs = maxRunMs;
  }

  public static void main(String[] args) throws Exception {
    int rounds = 20;
    long seed = System.currentTimeMillis();
    Path dir = null;
    int maxThreads = 3;
    int minRun = 200;
    int maxRun = 2500;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--rounds" -> rounds = Integer.parseInt(args[++i]);
        case "--seed" -> seed = Long.parseLong(args[++i]);
        case "--dir" -> dir = Path.of(args[++i]);
        case "--max-threads" -> maxThreads = Integer.parseInt(args[++i]);
        case "--run-ms" -> {
          String[] r = args[++i].split("-");
          minRun = Integer.parseInt(r[0]);
          maxRun = Integer.parseInt(r[r.length - 1]);
        }
        default -> {
          System.err.println("usage: torture [--rounds N] [--seed N] [--dir D] "
              + "[--max-threads N] [--run-ms MIN-MAX]");
          System.exit(2);
        }
      }
    }
    if (dir == null) {
      dir = Path.of("bench-data", "torture-" + seed);
    }
    Outcome o = new TortureRunner(dir, seed, maxThreads, minRun, maxRun).run(rounds);
    System.exit(o.clean() ? 0 : 1);
  }

  /** JVM options for the writers (tests plant faults with them). */
  public TortureRunner withChildJvmOptions(List<String> options) {
    this.childJvmOptions = List.copyOf(options);
    return this;
  }

  /** Runs {@code rounds} rounds; prints a line per round and a summary. */
  public Outcome run(int rounds) throws Exception {
    Files.createDirectories(dir);
    Path db = dir.resolve("db");
    if (Files.exists(db)) { // a replay of the seed: its checks start from an empty database
      System.out.println("torture: removing " + db + " left by an earlier run");
      io.basaltdb.engine.util.FileTrees.delete(io.basaltdb.engine.io.NioFileSystem.INSTANCE, db);
    }
    Random rnd = new Random(seed);
    System.out.println("torture: seed=" + seed + " (replay: bin/basalt torture --seed " + seed
        + " --rounds " + rounds + "), database " + db);
    Map<String, Map<Long, Long>> baseline = new HashMap<>();
    for (String t : TortureTables.NAMES) {
      baseline.put(t, new HashMap<>());
    }
    int kills = 0;
    long acked = 0;
    int lost = 0;
    int torn = 0;
    int failedReopens = 0;
    int mismatches = 0;
    int interruptedBuilds = 0;
    List<Path> kept = new ArrayList<>();
    long t0 = System.nanoTime();
    for (int round = 0; round < rounds; round++) {
      long roundSeed = rnd.nextLong();
      int threads = 1 + rnd.nextInt(maxThreads);
      int runMs = minRunMs + rnd.nextInt(Math.max(1, maxRunMs - minRunMs + 1));
      Path oracle = dir.resolve("oracle.log");
      Files.deleteIfExists(oracle);
      Path err = dir.resolve("child.err");
      Child child = runChild(db, oracle, err, roundSeed, threads, runMs);
      boolean started = child != Child.NOT_READY;
      if (child == Child.KILLED) {
        kills++;
      }
      Check c = started ? check(db, oracle, baseline) : null;
      List<String> problems = new ArrayList<>();
      if (child == Child.DIED) {
        mismatches++;
        problems.add("the writer died by itself: see " + err);
      }
      if (!started) {
        failedReopens++;
        problems.add("the writer could not open the database: see " + err);
      } else if (c.failedReopen != null) {
        failedReopens++;
        problems.add("reopen failed: " + c.failedReopen);
      } else {
        acked += c.acked;
        interruptedBuilds += c.interruptedBuilds;
        lost += c.wrong.size();
        torn += c.torn.size();
        mismatches += c.mismatches.size();
        problems.addAll(c.wrong);
        problems.addAll(c.torn);
        problems.addAll(c.mismatches);
        baseline = c.actual;
      }
      System.out.printf(Locale.ROOT, "round %d seed %d: %d threads, killed after %d ms, %d"
          + " acknowledged writes, %s%n", round, roundSeed, threads, runMs,
          c == null ? 0 : c.acked, problems.isEmpty() ? "all present, no torn row"
          : problems.size() + " problems");
      if (!problems.isEmpty()) {
        problems.stream().limit(10).forEach(p -> System.out.println("  " + p));
        Path keep = dir.resolve("failed-round-" + round);
        copy(dir, keep);
        kept.add(keep);
        System.out.println("  kept in " + keep + " (database, oracle.log, child.err)");
        if (!started || c.failedReopen != null) {
          break; // nothing to go on from
        }
      }
    }
    Outcome o = new Outcome(rounds, kills, acked, lost, torn, failedReopens, mismatches, kept);
    System.out.printf(Locale.ROOT, "torture seed=%d: %d kills (SIGKILL), %d acknowledged writes,"
        + " %d lost or wrong, %d torn rows, %d failed reopens, %d live mismatches, %d index"
        + " builds interrupted (finished and verified) in %.1f min%n",
        seed, kills, acked, lost, torn, failedReopens, mismatches, interruptedBuilds,
        (System.nanoTime() - t0) / 6e10);
    return o;
  }

  private enum Child { NOT_READY, DIED, KILLED }

  /** Starts the writer, lets it run {@code runMs} after it is ready, kills it (SIGKILL). */
  private Child runChild(Path db, Path oracle, Path err, long roundSeed, int threads,
      int runMs) throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>(List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx512m",
        "-XX:TieredStopAtLevel=1"));
    cmd.addAll(childJvmOptions);
    cmd.addAll(List.of("-cp", System.getProperty("java.class.path"),
        TortureWriter.class.getName(), db.toString(), oracle.toString(),
        Long.toString(roundSeed), Integer.toString(threads)));
    Process p = new ProcessBuilder(cmd).redirectError(err.toFile()).start();
    try {
      BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(),
          StandardCharsets.US_ASCII));
      String first = out.readLine();
      if (!"READY".equals(first)) {
        return Child.NOT_READY;
      }
      if (p.waitFor(runMs, TimeUnit.MILLISECONDS)) {
        return Child.DIED; // the writer only ends by failing
      }
      return Child.KILLED;
    } finally {
      p.destroyForcibly(); // SIGKILL
      p.waitFor();
    }
  }

  /** What one reopen found. */
  private static final class Check {
    long acked;
    int interruptedBuilds;
    String failedReopen;
    final List<String> wrong = new ArrayList<>();
    final List<String> torn = new ArrayList<>();
    final List<String> mismatches = new ArrayList<>();
    Map<String, Map<Long, Long>> actual;
  }

  /** Reopens the database and compares it with the baseline and the round's oracle. */
  private static Check check(Path db, Path oracle, Map<String, Map<Long, Long>> baseline)
      throws IOException {
    Check c = new Check();
    Map<String, Map<Long, Set<Long>>> acceptable = new HashMap<>();
    for (Map.Entry<String, Map<Long, Long>> t : baseline.entrySet()) {
      Map<Long, Set<Long>> rows = new HashMap<>();
      t.getValue().forEach((k, v) -> rows.put(k, new HashSet<>(Set.of(v))));
      acceptable.put(t.getKey(), rows);
    }
    Map<Long, String[]> pending = new HashMap<>();
    // transactions in flight at the kill: all applied or none
    Map<Long, String[]> transactions = new HashMap<>();
    String log = Files.exists(oracle) ? Files.readString(oracle, StandardCharsets.US_ASCII) : "";
    // each line is one write call, whole or absent after a kill; a cut one would end the log
    List<String> lines = new ArrayList<>(List.of(log.split("\n", -1)));
    lines.remove(lines.size() - 1); // after the last newline: empty, or a cut line
    for (String line : lines) {
      String[] f = line.split(" ");
      if (f.length < 2) {
        continue;
      }
      long id;
      try {
        id = Long.parseLong(f[1]);
      } catch (NumberFormatException e) {
        continue; // a line cut by the kill
      }
      switch (f[0]) {
        case "P" -> pending.put(id, java.util.Arrays.copyOfRange(f, 2, f.length));
        case "T" -> {
          String[] effects = java.util.Arrays.copyOfRange(f, 2, f.length);
          pending.put(id, effects);
          transactions.put(id, effects);
        }
        case "A" -> {
          transactions.remove(id);
          String[] effects = pending.remove(id);
          if (effects != null) {
            c.acked++;
            for (String e : effects) {
              effect(acceptable, e, true);
            }
          }
        }
        case "F", "X" -> {
          if (f[0].equals("X")) {
            c.mismatches.add("live check failed: " + line);
          }
          String[] effects = pending.remove(id);
          if (effects != null) {
            for (String e : effects) {
              effect(acceptable, e, false);
            }
          }
        }
        default -> { }
      }
    }
    for (String[] effects : pending.values()) { // in flight at the kill: applied or not
      for (String e : effects) {
        effect(acceptable, e, false);
      }
    }
    try (io.basaltdb.engine.Database d = io.basaltdb.engine.Database.open(db,
        io.basaltdb.engine.EngineOptions.defaults())) {
      c.interruptedBuilds = TortureTables.buildingIndexes(d);
    } catch (RuntimeException e) {
      c.failedReopen = e.toString();
      return c;
    }
    try (Connection conn = DriverManager.getConnection("jdbc:basalt:" + db)) {
      TortureTables.finishBuilds(conn);
      c.actual = TortureTables.read(conn, c.torn::add);
      String bank = TortureTables.bankProblem(conn);
      if (!bank.isEmpty()) {
        c.torn.add(bank);
      }
    } catch (SQLException | RuntimeException e) {
      c.failedReopen = e.toString();
      return c;
    }
    try (io.basaltdb.engine.Database d = io.basaltdb.engine.Database.open(db,
        io.basaltdb.engine.EngineOptions.defaults())) {
      c.wrong.addAll(TortureTables.indexProblems(d));
    } catch (RuntimeException e) {
      c.failedReopen = "index check: " + e;
      return c;
    }
    transactions.keySet().retainAll(pending.keySet()); // in flight: nothing wrote its rows after
    for (Map.Entry<Long, String[]> tx : transactions.entrySet()) {
      int applied = 0;
      for (String e : tx.getValue()) {
        int colon = e.indexOf(':');
        int eq = e.indexOf('=');
        Long v = c.actual.getOrDefault(e.substring(0, colon), Map.of())
            .get(Long.parseLong(e.substring(colon + 1, eq)));
        String want = e.substring(eq + 1);
        if (v == null ? want.equals("DEL") : want.equals(v.toString())) {
          applied++;
        }
      }
      if (applied > 0 && applied < tx.getValue().length) {
        c.torn.add("transaction " + tx.getKey() + " applied " + applied + " of its "
            + tx.getValue().length + " rows: " + String.join(" ", tx.getValue()));
      }
    }
    for (String t : TortureTables.NAMES) {
      Map<Long, Long> actual = c.actual.get(t);
      Map<Long, Set<Long>> want = acceptable.getOrDefault(t, Map.of());
      Set<Long> keys = new TreeSet<>(actual.keySet());
      keys.addAll(want.keySet());
      for (long k : keys) {
        Long v = actual.get(k);
        Set<Long> ok = want.getOrDefault(k, Set.of(ABSENT));
        if (!ok.contains(v == null ? ABSENT : v) && !tornKey(c.torn, t, k)) {
          c.wrong.add(t + ":" + k + " is " + (v == null ? "absent" : v) + ", acknowledged "
              + ok.stream().map(x -> x == ABSENT ? "absent" : x.toString()).toList());
        }
      }
    }
    return c;
  }

  private static boolean tornKey(List<String> torn, String table, long key) {
    return torn.stream().anyMatch(s -> s.startsWith(table + ":" + key + " "));
  }

  /** Applies {@code table:key=value|DEL}: replacing what is acceptable, or adding to it. */
  private static void effect(Map<String, Map<Long, Set<Long>>> acceptable, String e,
      boolean acknowledged) {
    int colon = e.indexOf(':');
    int eq = e.indexOf('=');
    if (colon < 0 || eq < colon) {
      return;
    }
    String table = e.substring(0, colon);
    long key = Long.parseLong(e.substring(colon + 1, eq));
    String v = e.substring(eq + 1);
    long value = v.equals("DEL") ? ABSENT : Long.parseLong(v);
    Map<Long, Set<Long>> rows = acceptable.computeIfAbsent(table, t -> new HashMap<>());
    Set<Long> now = rows.computeIfAbsent(key, k -> new HashSet<>(Set.of(ABSENT)));
    if (acknowledged) {
      now.clear();
    }
    now.add(value);
  }

  private static void copy(Path from, Path to) throws IOException {
    try (var files = Files.walk(from)) {
      for (Path p : (Iterable<Path>) files::iterator) {
        Path rel = from.relativize(p);
        if (rel.getNameCount() > 0 && rel.getName(0).toString().startsWith("failed-round-")) {
          continue;
        }
        Path target = to.resolve(from.relativize(p).toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(target);
        } else {
          Files.copy(p, target);
        }
      }
    }
  }
}
