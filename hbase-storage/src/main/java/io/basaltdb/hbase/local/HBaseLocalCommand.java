package io.basaltdb.hbase.local;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;

/**
 * {@code bin/basalt hbase-local [--data DIR] [--no-aggregate-endpoint]}: starts an in-process HBase ({@link LocalHBase}),
 * prints one line with its {@code jdbc:basalt:hbase:} URL, and serves until SIGTERM or Ctrl-C,
 * when it stops the cluster cleanly (data kept in DIR, default {@code ./basalt-hbase-data}).
 */
public final class HBaseLocalCommand {
  private HBaseLocalCommand() {}

  public static void main(String[] args) throws IOException, InterruptedException {
    Path data = Path.of("basalt-hbase-data");
    boolean endpoint = true;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--data" -> {
          if (i + 1 >= args.length) {
            usage(System.err);
            System.exit(2);
          }
          data = Path.of(args[++i]);
        }
        case "--no-aggregate-endpoint" -> endpoint = false;
        case "-h", "--help" -> {
          usage(System.out);
          return;
        }
        default -> {
          System.err.println("basalt hbase-local: unexpected argument " + args[i]);
          usage(System.err);
          System.exit(2);
        }
      }
    }
    System.err.println("basalt hbase-local: starting HBase (ZooKeeper, master, region server) in "
        + data.toAbsolutePath() + " ...");
    LocalHBase hbase = LocalHBase.start(data.toAbsolutePath(), endpoint);
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      System.err.println("basalt hbase-local: stopping HBase");
      try {
        hbase.close();
      } catch (IOException | RuntimeException e) {
        System.err.println("basalt hbase-local: stop failed: " + e);
      }
      stopped.countDown();
    }));
    System.out.println("Basalt over HBase is serving: " + hbase.jdbcUrl());
    System.out.println("  try: bin/basalt sql " + hbase.jdbcUrl() + "    (Ctrl-C here stops it)");
    System.out.flush();
    stopped.await();
  }

  private static void usage(PrintStream out) {
    out.println("usage: basalt hbase-local [--data DIR] [--no-aggregate-endpoint]");
    out.println("  starts HBase in this process (one master, one region server, ZooKeeper, local");
    out.println("  files in DIR, default ./basalt-hbase-data) and prints its JDBC URL; stops on");
    out.println("  SIGTERM or Ctrl-C. Every table's regions load HBase's aggregation endpoint");
    out.println("  (AggregateImplementation), unless --no-aggregate-endpoint");
  }
}
