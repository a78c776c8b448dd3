package io.basaltdb.hbase;

import io.basaltdb.storage.Append;
import io.basaltdb.storage.Cell;
import io.basaltdb.storage.CheckAndMutate;
import io.basaltdb.storage.ColumnAggregate;
import io.basaltdb.storage.CounterOverflowException;
import io.basaltdb.storage.Delete;
import io.basaltdb.storage.Get;
import io.basaltdb.storage.Increment;
import io.basaltdb.storage.InvalidArgumentException;
import io.basaltdb.storage.Put;
import io.basaltdb.storage.Result;
import io.basaltdb.storage.ResultScanner;
import io.basaltdb.storage.Row;
import io.basaltdb.storage.RowMutations;
import io.basaltdb.storage.Scan;
import io.basaltdb.storage.Table;
import io.basaltdb.storage.TableDescriptor;
import io.basaltdb.storage.TableName;
import io.basaltdb.storage.filter.Filter;
import io.basaltdb.storage.filter.Filters;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.filter.MultiRowRangeFilter;

/**
 * A Basalt {@link Table} over an HBase table. Each operation takes a lightweight HBase table
 * handle from the shared connection and closes it, so this handle is thread-safe. Every write
 * is one HBase call, atomic within its row as HBase makes it; lists of puts go in batches of
 * distinct rows (HBase does not order a batch's actions, Basalt applies them in order). A scan's
 * key bounds, columns, versions, time range and limit run on the region servers; its filter (an
 * in-process object) runs here, on each fetched row, with the calls a region scan makes.
 */
final class HBaseTable implements Table {
  private final HBaseStorage storage;
  private final TableName name;
  private final org.apache.hadoop.hbase.TableName hname;

  HBaseTable(HBaseStorage storage, TableName name) {
    this.storage = storage;
    this.name = name;
    this.hname = HBaseForms.name(name);
  }

  private interface Call<R> {
    R run(org.apache.hadoop.hbase.client.Table t) throws IOException;
  }

  private <R> R call(String what, Call<R> op) {
    Connection c = storage.connection();
    try (org.apache.hadoop.hbase.client.Table t = c.getTable(hname)) {
      return op.run(t);
    } catch (IOException e) {
      throw HBaseErrors.translate(what, name, e);
    }
  }

  @Override
  public TableName name() {
    return name;
  }

  @Override
  public TableDescriptor descriptor() {
    return call("describe", t -> HBaseForms.descriptor(name, t.getDescriptor()));
  }

  @Override
  public void put(Put put) {
    if (put.isEmpty()) {
      throw new InvalidArgumentException("put of row " + Cell.printable(put.row())
          + " has no columns");
    }
    call("put", t -> {
      t.put(HBaseForms.put(put));
      return null;
    });
  }

  @Override
  public void put(List<Put> puts) {
    for (List<Put> run : distinctRowRuns(puts)) {
      List<org.apache.hadoop.hbase.client.Put> batch = new ArrayList<>(run.size());
      for (Put p : run) {
        if (p.isEmpty()) {
          throw new InvalidArgumentException("put of row " + Cell.printable(p.row())
              + " has no columns");
        }
        batch.add(HBaseForms.put(p));
      }
      call("put", t -> {
        t.put(batch);
        return null;
      });
    }
  }

  /** Consecutive runs of {@code rows} in which no row appears twice, in order. */
  static <R extends Row> List<List<R>> distinctRowRuns(List<R> rows) {
    List<List<R>> runs = new ArrayList<>();
    List<R> run = new ArrayList<>();
    Set<ByteBuffer> seen = new HashSet<>();
    for (R r : rows) {
      if (!seen.add(ByteBuffer.wrap(r.row()))) {
        runs.add(run);
        run = new ArrayList<>();
        seen.clear();
        seen.add(ByteBuffer.wrap(r.row()));
      }
      run.add(r);
    }
    if (!run.isEmpty()) {
      runs.add(run);
    }
    return runs;
  }

  @Override
  public void delete(Delete delete) {
    call("delete", t -> {
      t.delete(HBaseForms.delete(delete));
      return null;
    });
  }

  @Override
  public void delete(List<Delete> deletes) {
    for (List<Delete> run : distinctRowRuns(deletes)) {
      List<org.apache.hadoop.hbase.client.Delete> batch = new ArrayList<>(run.size());
      run.forEach(d -> batch.add(HBaseForms.delete(d)));
      call("delete", t -> {
        t.delete(batch);
        return null;
      });
    }
  }

  @Override
  public void mutateRow(RowMutations rm) {
    if (rm.mutations().isEmpty()) {
      return;
    }
    call("mutate row", t -> t.mutateRow(HBaseForms.rowMutations(rm)));
  }

  @Override
  public Result increment(Increment inc) {
    if (inc.amounts().isEmpty()) {
      throw new InvalidArgumentException("increment of row " + Cell.printable(inc.row())
          + " has no columns");
    }
    Result r = call("increment", t -> HBaseForms.result(t.increment(HBaseForms.increment(inc))));
    refuseOverflow(inc, r);
    return r;
  }

  /**
   * An increment that overflowed is refused as the engine refuses it (22003 in SQL): HBase adds
   * without a check and has applied it, so the same amounts are taken back (increments by
   * others meanwhile commute with both); the wrapped value is visible until then.
   */
  private void refuseOverflow(Increment inc, Result r) {
    Increment undo = null;
    String overflow = null;
    for (Map.Entry<Increment.Column, Long> e : inc.amounts().entrySet()) {
      Cell c = r.getLatestCell(e.getKey().family(), e.getKey().qualifier());
      if (c != null && c.value().length == Long.BYTES
          && wrapped(Increment.toLong(c.value()), e.getValue())) {
        undo = undo == null ? new Increment(inc.row()) : undo;
        undo.addColumn(e.getKey().family(), e.getKey().qualifier(), -e.getValue());
        overflow = Cell.printable(inc.row()) + "/" + HBaseForms.utf8(e.getKey().family()) + ":"
            + Cell.printable(e.getKey().qualifier()) + " + " + e.getValue();
      }
    }
    if (undo != null) {
      Increment back = undo;
      call("undo increment", t -> t.increment(HBaseForms.increment(back)));
      throw new CounterOverflowException("cannot increment " + overflow
          + ": out of a long's range");
    }
  }

  /**
   * Whether adding {@code amount} wrapped around to give {@code result}: HBase adds without a
   * check, but a sum that stayed in range is at least MIN + amount (amount > 0) or at most
   * MAX + amount (amount < 0), and a wrapped one is not.
   */
  static boolean wrapped(long result, long amount) {
    return amount > 0 ? result < Long.MIN_VALUE + amount
        : amount < 0 && result > Long.MAX_VALUE + amount;
  }

  @Override
  public long incrementColumnValue(byte[] row, byte[] family, byte[] qualifier, long amount) {
    Result r = increment(new Increment(row).addColumn(family, qualifier, amount));
    return Increment.toLong(r.getValue(family, qualifier));
  }

  @Override
  public Result append(Append app) {
    if (app.suffixes().isEmpty()) {
      throw new InvalidArgumentException("append to row " + Cell.printable(app.row())
          + " has no columns");
    }
    return call("append", t -> HBaseForms.result(t.append(HBaseForms.append(app))));
  }

  @Override
  public boolean checkAndMutate(CheckAndMutate cam) {
    var done = call("check-and-mutate", t -> t.checkAndMutate(HBaseForms.checkAndMutate(cam)));
    if (done.isSuccess() && cam.action() instanceof Increment inc) {
      refuseOverflow(inc, HBaseForms.result(done.getResult()));
    }
    return done.isSuccess();
  }

  /**
   * One call of HBase's batched check-and-mutate (one request per region server) for each run
   * of distinct rows, in order: HBase does not order a batch's actions, so a row given again
   * starts the next run. An increment that overflowed is refused after the call (the others
   * stay applied, as a failure of the seam's list allows). A region server runs a batch's
   * check-and-mutates one after another, each with its own WAL sync (HBase keeps them out of
   * its mini-batches of puts), so a batch of check-and-puts goes ASYNC_WAL behind one SYNC_WAL
   * barrier per region ({@link WalBarrier}).
   */
  @Override
  public boolean[] checkAndMutate(List<CheckAndMutate> cams) {
    boolean[] applied = new boolean[cams.size()];
    int at = 0;
    for (List<CheckAndMutate> run : distinctRowRuns(cams)) {
      List<org.apache.hadoop.hbase.client.CheckAndMutate> batch = new ArrayList<>(run.size());
      for (CheckAndMutate cam : run) {
        try {
          batch.add(HBaseForms.checkAndMutate(cam));
        } catch (IOException e) {
          throw HBaseErrors.translate("check-and-mutate", name, e);
        }
      }
      if (WalBarrier.applies(run)) {
        boolean[] done = call("check-and-mutate", t -> {
          try (var locator = storage.connection().getRegionLocator(hname)) {
            return WalBarrier.run(t, locator, name, run, batch);
          }
        });
        System.arraycopy(done, 0, applied, at, done.length);
        at += run.size();
        continue;
      }
      var results = call("check-and-mutate", t -> t.checkAndMutate(batch));
      for (int i = 0; i < run.size(); i++) {
        applied[at + i] = results.get(i).isSuccess();
      }
      for (int i = 0; i < run.size(); i++) {
        if (applied[at + i] && run.get(i).action() instanceof Increment inc) {
          refuseOverflow(inc, HBaseForms.result(results.get(i).getResult()));
        }
      }
      at += run.size();
    }
    return applied;
  }

  @Override
  public Result get(Get get) {
    if (get.filter() != null) {
      return onlyRow(scan(get).setMetrics(get.metrics()));
    }
    return counted(get, call("get", t -> HBaseForms.result(t.get(HBaseForms.get(get)))));
  }

  /** {@code r}, counted into the get's metrics (EXPLAIN ANALYZE), if it has some. */
  private static Result counted(Get get, Result r) {
    if (get.metrics() != null) {
      get.metrics().storeReadsNotCounted();
      get.metrics().regions.incrementAndGet();
      if (!r.isEmpty()) {
        get.metrics().rowsReturned.incrementAndGet();
        get.metrics().cellsReturned.addAndGet(r.size());
      }
    }
    return r;
  }

  /** A get with a filter: a one-row scan, so the filter runs as a scan's does. */
  private Result onlyRow(Scan s) {
    try (ResultScanner rs = getScanner(s)) {
      Result r = rs.next();
      return r == null ? Result.EMPTY : r;
    }
  }

  private static Scan scan(Get get) {
    Scan s = new Scan().withStartRow(get.row(), true).withStopRow(get.row(), true)
        .setFilter(get.filter()).readVersions(get.maxVersions())
        .setTimeRange(get.minTimestamp(), get.maxTimestamp());
    get.columns().forEach((f, qs) -> {
      if (qs == null) {
        s.addFamily(f);
      } else {
        qs.forEach(q -> s.addColumn(f, q));
      }
    });
    return s;
  }

  @Override
  public List<Result> get(List<Get> gets) {
    if (gets.stream().anyMatch(g -> g.filter() != null)) {
      List<Result> out = new ArrayList<>(gets.size());
      gets.forEach(g -> out.add(get(g)));
      return out;
    }
    List<org.apache.hadoop.hbase.client.Get> hgets = new ArrayList<>(gets.size());
    return call("get", t -> {
      for (Get g : gets) {
        hgets.add(HBaseForms.get(g));
      }
      List<Result> out = new ArrayList<>(gets.size());
      int i = 0;
      for (org.apache.hadoop.hbase.client.Result r : t.get(hgets)) {
        out.add(counted(gets.get(i++), HBaseForms.result(r)));
      }
      return out;
    });
  }

  @Override
  public boolean exists(Get get) {
    return !get(get).isEmpty();
  }

  /** Through HBase's aggregation endpoint, where the table's regions have it. */
  @Override
  public ColumnAggregate.Answer aggregate(ColumnAggregate request) {
    return call("aggregate", t -> storage.aggregateEndpoint().run(t, name, request));
  }

  /** HBase's raw scan of the scan's rows and columns (no filter: a raw read resolves nothing). */
  @Override
  public ResultScanner getRawScanner(Scan scan) {
    if (scan.filter() != null) {
      throw new io.basaltdb.storage.InvalidArgumentException("a raw scan of " + name
          + " takes no filter");
    }
    return scanner(t -> new HBaseScanner(t, t.getScanner(HBaseForms.scan(scan).setRaw(true)
        .readAllVersions()), null, scan.limit(), name, null));
  }

  @Override
  public ResultScanner getScanner(Scan scan) {
    Filter filter = scan.filter();
    return scanner(t -> {
      org.apache.hadoop.hbase.client.Scan hs = HBaseForms.scan(scan);
      // forward scans only: the filter still runs here, so the ranges only save transfer
      List<byte[]> rows = filter == null || scan.isReversed() ? null : filter.onlyRows();
      List<Filters.RowRange> ranges = filter == null || rows != null || scan.isReversed() ? null
          : filter.onlyRanges();
      List<org.apache.hadoop.hbase.filter.Filter> onServers = new ArrayList<>(2);
      if (rows != null) {
        onServers.add(pointRanges(rows)); // only those rows leave the region servers
      } else if (ranges != null && !ranges.isEmpty()) {
        onServers.add(rowRanges(ranges)); // the region servers seek from range to range
      }
      org.apache.hadoop.hbase.filter.Filter cells =
          filter == null || filter.spec() == null ? null : HBaseForms.filter(filter.spec());
      if (cells != null) {
        onServers.add(cells); // typed comparisons the region servers test on the cell bytes
      }
      if (!onServers.isEmpty()) {
        hs.setFilter(onServers.size() == 1 ? onServers.get(0)
            : new org.apache.hadoop.hbase.filter.FilterList(onServers));
      }
      if (filter == null && scan.limit() != Long.MAX_VALUE) {
        hs.setLimit((int) Math.min(Integer.MAX_VALUE, scan.limit()));
      }
      if (scan.metrics() != null) {
        hs.setScanMetricsEnabled(true);
        scan.metrics().storeReadsNotCounted();
      }
      return new HBaseScanner(t, t.getScanner(hs), filter, scan.limit(), name,
          scan.metrics());
    });
  }

  /** Opens a scanner on an HBase table handle (the scanner owns it). */
  private interface ScannerOpener {
    ResultScanner open(org.apache.hadoop.hbase.client.Table t) throws IOException;
  }

  /** A scanner {@code opener} opens on a new handle of this table, closed if it fails. */
  private ResultScanner scanner(ScannerOpener opener) {
    org.apache.hadoop.hbase.client.Table t;
    try {
      t = storage.connection().getTable(hname);
    } catch (IOException e) {
      throw HBaseErrors.translate("scan", name, e);
    }
    try {
      return opener.open(t);
    } catch (IOException | RuntimeException e) {
      try {
        t.close();
      } catch (IOException ignored) {
        // the scan failed to start; its error is the one to report
      }
      throw e instanceof IOException io ? HBaseErrors.translate("scan", name, io)
          : (RuntimeException) e;
    }
  }

  private static MultiRowRangeFilter rowRanges(List<Filters.RowRange> ranges) {
    List<MultiRowRangeFilter.RowRange> out = new ArrayList<>(ranges.size());
    for (Filters.RowRange r : ranges) {
      out.add(new MultiRowRangeFilter.RowRange(r.start(), true, r.stop(), false));
    }
    return new MultiRowRangeFilter(out);
  }

  private static MultiRowRangeFilter pointRanges(List<byte[]> rows) {
    List<MultiRowRangeFilter.RowRange> ranges = new ArrayList<>(rows.size());
    for (byte[] r : rows) {
      ranges.add(new MultiRowRangeFilter.RowRange(r, true, r, true));
    }
    return new MultiRowRangeFilter(ranges);
  }
}
