package io.basaltdb.phoenixbench;

import io.basaltdb.bench.ClusterBench;
import io.basaltdb.bench.ClusterBench.Measure;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Issue 14's benchmark in one run: one HBase 2.6.1 mini cluster ({@link MiniCluster}, in this
 * JVM) and three clients, each in its own JVM against the cluster's ZooKeeper: Basalt over HBase
 * ({@code bin/basalt bench cluster}, the shaded HBase client), Apache Phoenix 5.2.1
 * ({@link ClusterBench} in its Phoenix dialect on this module's classpath) and the plain HBase
 * client ({@link PlainHBaseWorkload}, the ceiling). Each round runs the three in turn, the order
 * rotating per round; the table prints each client's median over the rounds and Basalt's
 * ratio to Phoenix (above 1: Basalt better).
 *
 * <pre>
 * bin/basalt bench phoenix [--rows 1000000] [--seconds 10] [--rounds 1]
 *     [--clients basalt,phoenix,hbase[,basalt-rows]] [--aggregate-endpoint yes|no]
 * </pre>
 *
 * <p>The region server loads HBase's own aggregation endpoint for every table (as Phoenix's
 * server-side classes are on it), which Basalt's COUNT, SUM, MIN and MAX use; {@code
 * --aggregate-endpoint no} leaves it out (Basalt then reads the rows); client {@code
 * basalt-rows} is Basalt told not to use it ({@code hbase.basalt.aggregate.endpoint=false}).
 */
public final class PhoenixBench {
  private static final List<String> CLIENTS =
      List.of("Basalt", "Phoenix", "HBase client", "Basalt rows");
  /** How {@code --clients} names them. */
  private static final List<String> KEYS = List.of("basalt", "phoenix", "hbase", "basalt-rows");

  private PhoenixBench() {}

  public static void main(String[] args) throws Exception {
    int rows = 1_000_000;
    double seconds = 10;
    int rounds = 1;
    String basalt = null;
    List<String> clients = CLIENTS.subList(0, 3);
    boolean endpoint = true;
    for (int i = 0; i + 1 < args.length; i += 2) {
      switch (args[i]) {
        case "--rows" -> rows = Integer.parseInt(args[i + 1]);
        case "--seconds" -> seconds = Double.parseDouble(args[i + 1]);
        case "--rounds" -> rounds = Integer.parseInt(args[i + 1]);
        case "--basalt" -> basalt = args[i + 1];
        case "--clients" -> clients = clients(args[i + 1]);
        case "--aggregate-endpoint" -> endpoint = args[i + 1].equals("yes");
        default -> throw new IllegalArgumentException("unknown option " + args[i]);
      }
    }
    if (basalt == null) {
      throw new IllegalArgumentException("--basalt PATH (bin/basalt) is required");
    }
    long t0 = System.nanoTime();
    Map<String, Map<String, List<Double>>> figures = new LinkedHashMap<>();
    Map<String, String> units = new LinkedHashMap<>();
    List<String> failures = new ArrayList<>();
    try (MiniCluster cluster = MiniCluster.start(endpoint)) {
      int port = cluster.zookeeperPort();
      System.out.printf(Locale.ROOT, "HBase 2.6.1 mini cluster up in %.1f s, ZooKeeper at "
          + "127.0.0.1:%d, aggregation endpoint %s%n", (System.nanoTime() - t0) / 1e9, port,
          endpoint ? "loaded" : "not loaded");
      for (int round = 0; round < rounds; round++) {
        for (int i = 0; i < clients.size(); i++) {
          String client = clients.get((i + round) % clients.size());
          List<String> command = command(client, basalt, port, rows, seconds);
          System.out.printf("%n== round %d: %s%n", round + 1, client);
          int rc = run(command, client, cluster, figures, units);
          if (rc != 0) {
            failures.add(client + " (round " + (round + 1) + ") exited with " + rc);
          }
        }
      }
    }
    printTable(rows, rounds, figures, units);
    if (!failures.isEmpty()) {
      System.err.println("failed: " + String.join("; ", failures));
      System.exit(1);
    }
    System.exit(0); // the cluster's non-daemon threads
  }

  /**
   * The clients named in {@code list} ("basalt,phoenix,hbase", and "basalt-rows": Basalt with
   * HBase's aggregation endpoint turned off, reading rows), in the table's order.
   */
  private static List<String> clients(String list) {
    List<String> names = List.of(list.toLowerCase(Locale.ROOT).split(","));
    List<String> chosen = new ArrayList<>();
    for (int i = 0; i < KEYS.size(); i++) {
      if (names.contains(KEYS.get(i))) {
        chosen.add(CLIENTS.get(i));
      }
    }
    if (chosen.size() != names.size()) {
      throw new IllegalArgumentException("--clients takes " + String.join(", ", KEYS) + ": "
          + list);
    }
    return chosen;
  }

  private static List<String> command(String client, String basalt, int port, int rows,
      double seconds) {
    List<String> c = new ArrayList<>();
    String n = Integer.toString(rows);
    String s = Double.toString(seconds);
    if (client.startsWith("Basalt")) {
      String off = client.equals("Basalt rows") ? ";hbase.basalt.aggregate.endpoint=false" : "";
      c.addAll(List.of(basalt, "bench", "cluster", "--url",
          "jdbc:basalt:hbase:127.0.0.1:" + port + ":/hbase" + off, "--hold-after-load"));
    } else {
      c.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
      for (String flag : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
        if (!flag.startsWith("-Xmx")) {
          c.add(flag);
        }
      }
      c.addAll(List.of("-Xmx2g", "-cp", System.getProperty("java.class.path")));
      if (client.equals("Phoenix")) {
        c.addAll(List.of(ClusterBench.class.getName(), "--url", "jdbc:phoenix:127.0.0.1:" + port,
            "--dialect", "phoenix", "--tables", "phx", "--hold-after-load"));
      } else {
        c.addAll(List.of(PlainHBaseWorkload.class.getName(), "--zk", Integer.toString(port),
            "--hold-after-load", "true"));
      }
    }
    c.addAll(List.of("--rows", n, "--seconds", s));
    return c;
  }

  /**
   * Runs one client, echoing its output and keeping the figures it prints. When it holds after
   * its load, every memstore is flushed before it goes on: each client reads files, not the
   * memstores its load happened to leave.
   */
  private static int run(List<String> command, String client, MiniCluster cluster,
      Map<String, Map<String, List<Double>>> figures, Map<String, String> units) throws Exception {
    Process p = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
    try (BufferedReader out = new BufferedReader(
        new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        Writer in = new OutputStreamWriter(p.getOutputStream(), StandardCharsets.UTF_8)) {
      for (String line; (line = out.readLine()) != null; ) {
        System.out.println("  " + line);
        if (line.equals(ClusterBench.HOLDING)) {
          long t0 = System.nanoTime();
          cluster.flushAll();
          System.out.printf(Locale.ROOT, "  (memstores flushed in %.1f s)%n", (System.nanoTime() - t0) / 1e9);
          in.write("go\n");
          in.flush();
        }
        Measure m = Measure.parse(line);
        if (m != null) {
          units.put(m.name(), m.unit());
          figures.computeIfAbsent(m.name(), k -> new LinkedHashMap<>())
              .computeIfAbsent(client, k -> new ArrayList<>()).add(m.value());
        }
      }
    }
    return p.waitFor();
  }

  private static void printTable(int rows, int rounds, Map<String, Map<String, List<Double>>> figures,
      Map<String, String> units) {
    System.out.printf(Locale.ROOT, "%n%,d rows, median of %d round(s)%n", rows, rounds);
    System.out.printf(Locale.ROOT, "%-30s %-9s %12s %12s %12s %12s %16s%n", "", "unit",
        CLIENTS.get(0), CLIENTS.get(1), CLIENTS.get(2), CLIENTS.get(3), "Basalt/Phoenix");
    for (Map.Entry<String, Map<String, List<Double>>> e : figures.entrySet()) {
      String unit = units.get(e.getKey());
      StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "%-30s %-9s", e.getKey(), unit));
      double[] medians = new double[CLIENTS.size()];
      for (int i = 0; i < CLIENTS.size(); i++) {
        medians[i] = median(e.getValue().get(CLIENTS.get(i)));
        line.append(String.format(Locale.ROOT, " %12s",
            Double.isNaN(medians[i]) ? "-" : String.format(Locale.ROOT, "%.2f", medians[i])));
      }
      // a rate is better higher, a time lower: the ratio reads "times better" either way
      double ratio = unit.equals("rows") ? Double.NaN // a count of wrong answers: no ratio
          : unit.equals("s") ? medians[1] / medians[0] : medians[0] / medians[1];
      line.append(String.format(Locale.ROOT, " %16s",
          Double.isNaN(ratio) ? "-" : String.format(Locale.ROOT, "%.2fx", ratio)));
      System.out.println(line);
    }
  }

  private static double median(List<Double> values) {
    if (values == null || values.isEmpty()) {
      return Double.NaN;
    }
    List<Double> sorted = values.stream().sorted().toList();
    int n = sorted.size();
    return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
  }
}
