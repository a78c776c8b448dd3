package io.basaltdb.phoenixbench;

import io.basaltdb.bench.ClusterBench;
import io.basaltdb.bench.ClusterBench.Measure;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Random;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.CompareOperator;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.BufferedMutator;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.filter.FilterList;
import org.apache.hadoop.hbase.filter.FirstKeyOnlyFilter;
import org.apache.hadoop.hbase.filter.KeyOnlyFilter;
import org.apache.hadoop.hbase.filter.SingleColumnValueFilter;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * The ceiling: {@link io.basaltdb.bench.ClusterBench}'s workload written directly against
 * HBase's client, without SQL. The same rows (8-byte big-endian key, {@code grp}, {@code val},
 * {@code pad} cells in one family), the same split points, the same random keys; every answer
 * checked. Load is a {@link BufferedMutator} flushed every 1000 rows; COUNT(*) and SUM are two
 * single-threaded scans summed in this client (key-only, then the value column); the filter
 * scan is a {@link SingleColumnValueFilter}; the counter is an HBase {@code Increment}.
 *
 * <pre>PlainHBaseWorkload --zk PORT [--rows N] [--seconds S] [--hold-after-load true]</pre>
 */
public final class PlainHBaseWorkload {
  private static final TableName TABLE = TableName.valueOf("plain_kv");
  private static final TableName COUNTER = TableName.valueOf("plain_ctr");
  private static final byte[] F = Bytes.toBytes("f");
  private static final byte[] GRP = Bytes.toBytes("grp");
  private static final byte[] VAL = Bytes.toBytes("val");
  private static final byte[] PAD = Bytes.toBytes("pad");
  private static final byte[] N = Bytes.toBytes("n");

  private final Connection connection;
  private final int rows;
  private final double seconds;
  private final boolean holdAfterLoad;

  private PlainHBaseWorkload(Connection connection, int rows, double seconds, boolean hold) {
    this.connection = connection;
    this.rows = rows;
    this.seconds = seconds;
    this.holdAfterLoad = hold;
  }

  public static void main(String[] args) throws Exception {
    int port = -1;
    int rows = 1_000_000;
    double seconds = 10;
    boolean hold = false;
    for (int i = 0; i + 1 < args.length; i += 2) {
      switch (args[i]) {
        case "--zk" -> port = Integer.parseInt(args[i + 1]);
        case "--rows" -> rows = Integer.parseInt(args[i + 1]);
        case "--seconds" -> seconds = Double.parseDouble(args[i + 1]);
        case "--hold-after-load" -> hold = Boolean.parseBoolean(args[i + 1]);
        default -> throw new IllegalArgumentException("unknown option " + args[i]);
      }
    }
    if (port < 0) {
      throw new IllegalArgumentException("usage: PlainHBaseWorkload --zk PORT [--rows N] [--seconds S]");
    }
    Configuration conf = HBaseConfiguration.create();
    conf.set("hbase.zookeeper.quorum", "127.0.0.1");
    conf.setInt("hbase.zookeeper.property.clientPort", port);
    try (Connection c = ConnectionFactory.createConnection(conf)) {
      new PlainHBaseWorkload(c, rows, seconds, hold).run();
    }
  }

  private void run() throws Exception {
    try (Admin admin = connection.getAdmin()) {
      for (TableName t : List.of(TABLE, COUNTER)) {
        if (admin.tableExists(t)) {
          admin.disableTable(t);
          admin.deleteTable(t);
        }
      }
      byte[][] splits = new byte[3][];
      for (int i = 1; i < 4; i++) {
        splits[i - 1] = Bytes.toBytes((long) rows * i / 4);
      }
      admin.createTable(TableDescriptorBuilder.newBuilder(TABLE)
          .setColumnFamily(ColumnFamilyDescriptorBuilder.of(F)).build(), splits);
      admin.createTable(TableDescriptorBuilder.newBuilder(COUNTER)
          .setColumnFamily(ColumnFamilyDescriptorBuilder.of(F)).build());
      try (Table table = connection.getTable(TABLE)) {
        print("batched UPSERT load", load(), "rows/s");
        if (holdAfterLoad) { // as ClusterBench's --hold-after-load
          System.out.println(ClusterBench.HOLDING);
          System.out.flush();
          new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
        }
        print("point SELECT by key", rate(table, 1), "ops/s");
        print("100-row key range", rate(table, 100), "ranges/s");
        long t0 = System.nanoTime();
        countAndSum(table);
        print("COUNT(*) + SUM over all rows", (System.nanoTime() - t0) / 1e9, "s");
        t0 = System.nanoTime();
        filterScan(table);
        print("non-key filter scan", (System.nanoTime() - t0) / 1e9, "s");
      }
      print("counter +1 from 2 threads", counters(), "ops/s");
      for (TableName t : List.of(TABLE, COUNTER)) {
        admin.disableTable(t);
        admin.deleteTable(t);
      }
    }
  }

  private double load() throws IOException {
    long t0 = System.nanoTime();
    try (BufferedMutator m = connection.getBufferedMutator(TABLE)) {
      for (int i = 0; i < rows; i++) {
        Put p = new Put(Bytes.toBytes((long) i));
        p.addColumn(F, GRP, Bytes.toBytes(i / 10));
        p.addColumn(F, VAL, Bytes.toBytes(7L * i));
        p.addColumn(F, PAD, Bytes.toBytes("pad-" + i + "-0123456789abcdefghij"));
        m.mutate(p);
        if (i % 1000 == 999) {
          m.flush();
        }
      }
      m.flush();
    }
    return rows / ((System.nanoTime() - t0) / 1e9);
  }

  /** Gets (one row) or 100-row scans per second over random keys; the first quarter warms up. */
  private double rate(Table table, int width) throws IOException {
    Random r = new Random(14);
    for (int pass = 0; pass < 2; pass++) {
      long t0 = System.nanoTime();
      long end = t0 + (long) (seconds * 1e9 / (pass == 0 ? 4 : 1));
      long n = 0;
      while (System.nanoTime() < end) {
        long k = r.nextInt(rows - width);
        if (width == 1) {
          Result res = table.get(new Get(Bytes.toBytes(k)).addColumn(F, VAL));
          check(Bytes.toLong(res.getValue(F, VAL)) == 7 * k, "get " + k);
        } else {
          Scan s = new Scan().withStartRow(Bytes.toBytes(k)).withStopRow(Bytes.toBytes(k + width))
              .addColumn(F, VAL).setCaching(width);
          int got = 0;
          try (ResultScanner sc = table.getScanner(s)) {
            for (Result res : sc) {
              check(Bytes.toLong(res.getValue(F, VAL)) == 7 * (k + got), "scan at " + k);
              got++;
            }
          }
          check(got == width, "range at " + k + " gave " + got);
        }
        n++;
      }
      if (pass == 1) {
        return n / ((System.nanoTime() - t0) / 1e9);
      }
    }
    throw new AssertionError();
  }

  private void countAndSum(Table table) throws IOException {
    long count = 0;
    Scan keys = new Scan().setFilter(new FilterList(new FirstKeyOnlyFilter(), new KeyOnlyFilter()));
    try (ResultScanner sc = table.getScanner(keys)) {
      for (Result ignored : sc) {
        count++;
      }
    }
    long sum = 0;
    try (ResultScanner sc = table.getScanner(new Scan().addColumn(F, VAL))) {
      for (Result res : sc) {
        sum += Bytes.toLong(res.getValue(F, VAL));
      }
    }
    check(count == rows, "count " + count);
    check(sum == 7L * rows * (rows - 1L) / 2, "sum " + sum);
  }

  private void filterScan(Table table) throws IOException {
    SingleColumnValueFilter f = new SingleColumnValueFilter(F, VAL, CompareOperator.EQUAL,
        Bytes.toBytes(7L * (rows / 2)));
    f.setFilterIfMissing(true);
    long found = 0;
    try (ResultScanner sc = table.getScanner(new Scan().setFilter(f))) {
      for (Result ignored : sc) {
        found++;
      }
    }
    check(found == 1, "filter scan found " + found);
  }

  private double counters() throws Exception {
    byte[] row = Bytes.toBytes(1L);
    ClusterBench.Timed run = ClusterBench.inThreads(2, seconds, () -> {
      Table table = connection.getTable(COUNTER);
      return new ClusterBench.Worker() {
        @Override
        public void once() throws IOException {
          table.incrementColumnValue(row, F, N, 1);
        }

        @Override
        public void close() throws IOException {
          table.close();
        }
      };
    });
    long done = run.operations();
    try (Table table = connection.getTable(COUNTER)) {
      long n = Bytes.toLong(table.get(new Get(row)).getValue(F, N));
      check(n == done, "counter " + n + " after " + done + " increments");
    }
    return run.rate();
  }

  private static void print(String name, double value, String unit) {
    System.out.println(new Measure(name, value, unit).line());
    System.out.flush();
  }

  private static void check(boolean ok, String what) {
    if (!ok) {
      throw new IllegalStateException("wrong answer: " + what);
    }
  }
}
