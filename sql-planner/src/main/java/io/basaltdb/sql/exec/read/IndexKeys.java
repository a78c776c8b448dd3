package io.basaltdb.sql.exec.read;

import io.basaltdb.sql.catalog.SqlTableDef;
import io.basaltdb.sql.exec.context.StatementSnapshot;
import io.basaltdb.sql.index.IndexLayout;
import io.basaltdb.sql.index.IndexRegistry;
import io.basaltdb.sql.pushdown.KeyRange;
import io.basaltdb.sql.pushdown.ScanSpec;
import io.basaltdb.storage.Result;
import io.basaltdb.storage.ResultScanner;
import io.basaltdb.storage.Scan;
import io.basaltdb.storage.Storage;
import io.basaltdb.storage.Table;
import java.util.List;
import org.apache.calcite.DataContext;

/**
 * The base rows a secondary index gives for one execution of a scan: its key conditions bound
 * to ranges over the index's entries (read as of the scan's time, like the table), in the
 * index's order. Each entry gives its row's key, to fetch the row by; or, when the index
 * covers every column the scan reads (returns or filters on), the row itself, built from the
 * entry ({@link IndexLayout#baseRow}) and passed through the scan's filter as a region scan
 * would pass it: no read of the table at all. Not thread-safe; closed by the scan reading it.
 */
final class IndexKeys implements AutoCloseable {
  private final Table index;
  private final IndexLayout layout;
  private final List<KeyRange> ranges;
  private final long asOf;
  private io.basaltdb.storage.ReadSnapshot snapshot;
  /** Ranges and entries read backwards: the index's order reversed (an ORDER BY against it). */
  private final boolean reversed;
  /** Non-null when the index covers the scan: how to build its rows and filter them. */
  private final io.basaltdb.sql.catalog.CellNames names;
  private final io.basaltdb.storage.filter.Filter filter;
  /** Non-null over a storage keeping indexes by the client-side protocol: entry checks. */
  private io.basaltdb.sql.index.UnverifiedEntries unverified;
  /** The value of the entry {@link #nextEntry} gave (its own, or as its row gives it). */
  private byte[] entryValue;
  private long entryTimestamp;
  private int next;
  private ResultScanner scanner;

  private IndexKeys(Table index, IndexLayout layout, List<KeyRange> ranges, long asOf,
      boolean reversed, io.basaltdb.sql.catalog.CellNames names,
      io.basaltdb.storage.filter.Filter filter) {
    this.index = index;
    this.layout = layout;
    this.ranges = reversed ? reverse(ranges) : ranges;
    this.asOf = asOf;
    this.reversed = reversed;
    this.names = names;
    this.filter = filter;
  }

  /** True when the index covers the scan: {@link #nextRow} gives its rows. */
  boolean covers() {
    return names != null;
  }

  /** True when {@code layout} holds every column {@code read} names of a one-cell-per-column table. */
  static boolean covers(SqlTableDef def, IndexLayout layout, java.util.Collection<Integer> read) {
    if (def.packed()) {
      return false;
    }
    for (int c : read) {
      if (!layout.covers(c)) {
        return false;
      }
    }
    return true;
  }

  /**
   * The keys the spec's index access gives (its rows to pass {@code filters}), or null when
   * its index is not ACTIVE now (dropped, or being rebuilt): the caller scans the table
   * instead.
   */
  static IndexKeys open(Storage db, SqlTableDef def, ScanSpec spec,
      List<io.basaltdb.sql.pushdown.PushedPredicate> filters, DataContext ctx, long asOf,
      java.util.Collection<Integer> read) {
    return open(db, def, spec.index().name(), null, asOf, read, spec, filters, ctx);
  }

  /**
   * As above, over {@code ranges} of index {@code name} (null: the ranges of the spec's index
   * conditions), the rows passing {@code filters} (a covering index's, built from entries).
   */
  static IndexKeys open(Storage db, SqlTableDef def, String name, List<KeyRange> given,
      long asOf, java.util.Collection<Integer> read, ScanSpec spec,
      List<io.basaltdb.sql.pushdown.PushedPredicate> filters, DataContext ctx) {
    IndexLayout layout = IndexRegistry.of(db).active(def, name);
    if (layout == null) {
      return null;
    }
    Table table = db.table(layout.keyDefinition().table()); // its name made once
    List<KeyRange> ranges = given != null ? given
        : spec.index().keys().bind(layout.keyDefinition(), ctx);
    boolean reversed = given == null && spec.reversed();
    IndexKeys keys = !covers(def, layout, read)
        ? new IndexKeys(table, layout, ranges, asOf, reversed, null, null)
        : new IndexKeys(table, layout, ranges, asOf, reversed,
            io.basaltdb.sql.catalog.CellNames.of(def),
            io.basaltdb.sql.pushdown.PushedPredicate.all(filters, def, ctx));
    keys.snapshot = StatementSnapshot.of(ctx, db); // the table's rows are read at it too
    if (io.basaltdb.sql.index.UnverifiedEntries.kept(db)) {
      keys.unverified = new io.basaltdb.sql.index.UnverifiedEntries(db, def, layout, table);
    }
    return keys;
  }

  private static List<KeyRange> reverse(List<KeyRange> ranges) {
    List<KeyRange> out = new java.util.ArrayList<>(ranges);
    java.util.Collections.reverse(out);
    return out;
  }

  /** The next row (covering index), filtered; null after the last. */
  Result nextRow() {
    while (true) {
      Result entry = nextEntry();
      if (entry == null) {
        return null;
      }
      Result row = layout.baseRow(entry.row(), entryValue, entryTimestamp, names,
          io.basaltdb.sql.catalog.CellNames.MARKER);
      if (filter == null) {
        return row;
      }
      if (filter.filterAllRemaining()) {
        return null;
      }
      if (passes(row)) {
        return row;
      }
    }
  }

  /** The scan's filter on a row, in the stages a region scan applies it. */
  private boolean passes(Result row) {
    filter.reset();
    if (filter.filterRowKey(row.row())) {
      return false;
    }
    List<io.basaltdb.storage.Cell> kept = new java.util.ArrayList<>();
    for (io.basaltdb.storage.Cell c : row.cells()) {
      if (filter.filterCell(c)) {
        kept.add(filter.transformCell(c));
      }
    }
    if (filter.filterRow(kept)) {
      return false;
    }
    filter.rowReturned();
    return true;
  }

  /** The next row key, or null after the last. */
  byte[] next() {
    Result entry = nextEntry();
    return entry == null ? null : layout.baseKey(entry.row(), entryValue);
  }

  private Result nextEntry() {
    while (true) {
      if (scanner == null) {
        if (next >= ranges.size()) {
          return null;
        }
        KeyRange r = ranges.get(next++);
        Scan scan = (reversed
            ? new Scan().setReversed(true).withStartRow(r.stop(), false)
                .withStopRow(r.start(), true)
            : new Scan().withStartRow(r.start()).withStopRow(r.stop()))
            .addColumn(IndexLayout.FAMILY, IndexLayout.QUALIFIER);
        if (unverified != null) {
          scan.addColumn(IndexLayout.FAMILY, IndexLayout.STATUS);
        }
        if (asOf >= 0) {
          scan.setTimeRange(0, asOf == Long.MAX_VALUE ? asOf : asOf + 1);
        }
        scanner = index.getScanner(scan.setSnapshot(snapshot));
      }
      Result entry = scanner.next();
      if (entry != null) {
        io.basaltdb.storage.Cell cell = entry.getLatestCell(IndexLayout.FAMILY,
            IndexLayout.QUALIFIER);
        entryValue = unverified == null ? cell.value() : unverified.usable(entry);
        if (entryValue == null) {
          continue; // an unverified entry its row does not give
        }
        entryTimestamp = cell.timestamp();
        return entry;
      }
      scanner.close();
      scanner = null;
    }
  }

  @Override
  public void close() {
    if (scanner != null) {
      scanner.close();
      scanner = null;
    }
  }
}
