package io.basaltdb.hbase;

import io.basaltdb.storage.ClosedException;
import io.basaltdb.storage.Result;
import io.basaltdb.storage.ResultScanner;
import io.basaltdb.storage.TableName;
import io.basaltdb.storage.filter.Filter;
import java.io.IOException;

/**
 * Rows of an HBase scan as Basalt's, with the scan's Basalt filter applied here to each row the
 * region servers sent, exactly as a region scan applies it (reset, row key, each cell kept and
 * transformed, the row's kept cells, then counted as returned; the end when it says nothing more
 * can pass), and the row limit counted after the filter. Owns the HBase table handle and
 * scanner: closing this closes both. Not thread-safe.
 */
final class HBaseScanner implements ResultScanner {
  private final org.apache.hadoop.hbase.client.Table table;
  private final org.apache.hadoop.hbase.client.ResultScanner in;
  private final Filter filter;
  private final TableName name;
  private long remaining;
  private boolean closed;
  /** Where EXPLAIN ANALYZE wants the scan's counts (null: nowhere), and the counts. */
  private final io.basaltdb.storage.ScanMetrics metrics;
  private long rows;
  private long cells;

  HBaseScanner(org.apache.hadoop.hbase.client.Table table,
      org.apache.hadoop.hbase.client.ResultScanner in, Filter filter, long limit, TableName name,
      io.basaltdb.storage.ScanMetrics metrics) {
    this.table = table;
    this.in = in;
    this.filter = filter;
    this.remaining = limit;
    this.name = name;
    this.metrics = metrics;
  }

  @Override
  public Result next() {
    if (closed) {
      throw new ClosedException("scanner of " + name);
    }
    while (remaining > 0) {
      if (filter != null && filter.filterAllRemaining()) {
        return null;
      }
      org.apache.hadoop.hbase.client.Result raw;
      try {
        raw = in.next();
      } catch (IOException e) {
        throw HBaseErrors.translate("scan", name, e);
      }
      if (raw == null) {
        return null;
      }
      Result r = HBaseForms.result(raw);
      if (filter != null) {
        r = filtered(r);
        if (r == null) {
          continue;
        }
      }
      remaining--;
      rows++;
      cells += r.size();
      return r;
    }
    return null;
  }

  private Result filtered(Result r) {
    return io.basaltdb.storage.filter.Filters.applyTo(filter, r);
  }

  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    in.close();
    if (metrics != null) {
      metrics.rowsReturned.addAndGet(rows);
      metrics.cellsReturned.addAndGet(cells);
      var server = in.getScanMetrics(); // complete once the scanner is closed
      metrics.regions.addAndGet(server == null ? 1 : server.countOfRegions.get());
    }
    try {
      table.close();
    } catch (IOException ignored) {
      // a table handle holds nothing the cluster needs back
    }
  }
}
