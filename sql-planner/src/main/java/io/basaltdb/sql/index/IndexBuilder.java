package io.basaltdb.sql.index;

import io.basaltdb.sql.SqlStateException;
import io.basaltdb.sql.SqlStates;
import io.basaltdb.sql.catalog.CellNames;
import io.basaltdb.sql.catalog.IndexStats;
import io.basaltdb.sql.catalog.SqlIndexDef;
import io.basaltdb.sql.catalog.SqlTableDef;
import io.basaltdb.sql.type.RowKeyCodec;
import io.basaltdb.storage.Cell;
import io.basaltdb.storage.Get;
import io.basaltdb.storage.Result;
import io.basaltdb.storage.ResultScanner;
import io.basaltdb.storage.Scan;
import io.basaltdb.storage.Storage;
import io.basaltdb.storage.Table;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongConsumer;

/**
 * Builds an index from its table while writers go on (the online build of
 * {@code doc/indexes.md}): the index is registered first (state BUILDING, so every write from
 * then on maintains it), then every base row's entries are written from the row's values read
 * under its lock, one row at a time. A row written meanwhile either got its entries from its
 * writer or gets them here from its newest values; a row deleted meanwhile gets none. On a
 * storage writing one row atomically (HBase) the rows are read whole by the scan and their
 * entries written by the client-side protocol {@link #BATCH} rows at a time, or, for a
 * non-unique index whose table's delete markers hide later puts, alone and verified at their
 * rows' timestamps ({@link IndexedRowWrite#writeVerifiedEntries}), regions in parallel.
 * Stateless.
 */
public final class IndexBuilder {
  /** Rows whose entries one round of protocol calls writes (a storage of rows alone). */
  private static final int BATCH = 500;
  /** Rows whose entries one put call writes in a build by timestamps. */
  private static final int TIMESTAMP_BATCH = 5000;
  /** Regions a build by timestamps reads at once, each on a thread of its own. */
  private static final int SCANNERS = 4;

  private IndexBuilder() {}

  /**
   * What a build did: the rows indexed, and the index's statistics when the build could count
   * them from the entries it wrote (null: read them from the index, {@link #countStats}).
   */
  public record Built(long rows, IndexStats stats) {}

  /**
   * Writes every entry of {@code index} (registered BUILDING) from {@code def}'s rows.
   * {@code progress} hears the count of rows indexed now and then.
   */
  public static Built build(Storage db, SqlTableDef def, SqlIndexDef index,
      LongConsumer progress) {
    IndexedRowWrite writer = new IndexedRowWrite(db, def, List.of(index), -1);
    if (writer.buildsByTimestamps()) {
      return byTimestamps(db, def, index, writer, progress);
    }
    CellNames names = CellNames.of(def);
    long rows = 0;
    long lastReport = System.nanoTime();
    boolean batched = writer.byProtocol(); // whole rows, their entries a batch at a time
    Scan scan = batched ? new Scan() : new Scan().addColumn(names.markerFamily(),
        CellNames.MARKER);
    List<Result> batch = new ArrayList<>();
    try (ResultScanner s = db.table(def.table()).getScanner(scan)) {
      for (Result r : s) {
        if (batched) {
          batch.add(r);
          if (batch.size() == BATCH) {
            rows += writer.writeEntries(batch);
            batch.clear();
          }
        } else {
          writer.writeEntries(r.row());
          rows++;
        }
        if (System.nanoTime() - lastReport > 1_000_000_000L) {
          progress.accept(rows);
          lastReport = System.nanoTime();
        }
      }
    }
    if (!batch.isEmpty()) {
      rows += writer.writeEntries(batch);
    }
    db.sync();
    progress.accept(rows);
    return new Built(rows, null);
  }

  /**
   * A build by timestamps ({@link IndexedRowWrite#writeVerifiedEntries}): the table's regions
   * (as they start now; their ranges cover every key whatever splits later) are scanned by up
   * to {@link #SCANNERS} threads at once, each writing its rows' entries {@link
   * #TIMESTAMP_BATCH} at a time (1M rows over `hbase-local`: 12 s with one thread, 9 s with
   * four). The first failure stops the others and is thrown. Each thread counts its entries'
   * keys ({@link PrefixCounts}; not for a salted index), so the index's statistics come without
   * reading it again (2 s of a 1M-row build).
   */
  private static Built byTimestamps(Storage db, SqlTableDef def, SqlIndexDef index,
      IndexedRowWrite writer, LongConsumer progress) {
    List<byte[]> starts = db.admin().regionStartRows(def.table());
    AtomicLong rows = new AtomicLong();
    AtomicInteger next = new AtomicInteger();
    AtomicReference<RuntimeException> failure = new AtomicReference<>();
    List<Thread> threads = new ArrayList<>();
    List<PrefixCounts> counts = new ArrayList<>();
    RowKeyCodec codec = IndexRegistry.of(db).layout(def, index).keyDefinition().keyCodec();
    boolean raw = db.table(def.table()).descriptor().families().values().stream()
        .noneMatch(o -> o.ttlSeconds() > 0); // an expiring family's rows are read, not raw
    for (int t = 0; t < Math.min(SCANNERS, starts.size()); t++) {
      PrefixCounts mine = index.saltBuckets() > 0 ? null
          : new PrefixCounts(codec, index.columns().size());
      if (mine != null) {
        counts.add(mine);
      }
      Thread thread = new Thread(() -> {
        try {
          for (int i = next.getAndIncrement(); i < starts.size() && failure.get() == null;
              i = next.getAndIncrement()) {
            Scan scan = new Scan().withStartRow(starts.get(i), true);
            if (i + 1 < starts.size()) {
              scan.withStopRow(starts.get(i + 1), false);
            }
            region(db, def, writer, scan, raw, rows, failure, mine);
          }
        } catch (RuntimeException | Error e) { // never a region left out unnoticed
          failure.compareAndSet(null, e instanceof RuntimeException r ? r
              : new IllegalStateException("index build failed: " + e, e));
        }
      }, "basalt-index-build");
      thread.setDaemon(true);
      threads.add(thread);
      thread.start();
    }
    try {
      for (Thread t : threads) {
        while (t.isAlive()) {
          t.join(1000);
          progress.accept(rows.get());
        }
      }
    } catch (InterruptedException e) {
      failure.compareAndSet(null, new SqlStateException(SqlStates.QUERY_CANCELED,
          "index build interrupted"));
      Thread.currentThread().interrupt();
    }
    if (failure.get() != null) {
      throw failure.get();
    }
    db.sync();
    progress.accept(rows.get());
    return new Built(rows.get(), counts.isEmpty() ? null : PrefixCounts.stats(counts));
  }

  /**
   * One region's rows (read by {@code scan}) and their entries; stops at another's failure.
   * With {@code raw} (no family of the table expires cells), where the storage reads raw
   * (HBase), the rows are read raw and each resolved here ({@link #resolved}): a third of the
   * region server's work of a read (1M rows of four cells: 0.9 s of its CPU against 2.5-3.0 s).
   */
  private static void region(Storage db, SqlTableDef def, IndexedRowWrite writer, Scan scan,
      boolean raw, AtomicLong rows, AtomicReference<RuntimeException> failure,
      PrefixCounts counts) {
    List<Result> batch = new ArrayList<>(TIMESTAMP_BATCH);
    Table table = db.table(def.table());
    ResultScanner rawRows = raw ? table.getRawScanner(scan) : null;
    try (ResultScanner s = rawRows != null ? rawRows : table.getScanner(scan)) {
      for (Result r : s) {
        if (rawRows != null) {
          r = resolved(table, r);
        }
        batch.add(r);
        if (batch.size() == TIMESTAMP_BATCH) {
          if (failure.get() != null) {
            return;
          }
          rows.addAndGet(writer.writeVerifiedEntries(batch, counts));
          batch = new ArrayList<>(TIMESTAMP_BATCH);
        }
      }
    }
    if (!batch.isEmpty()) {
      rows.addAndGet(writer.writeVerifiedEntries(batch, counts));
    }
  }

  /**
   * A row as a raw scan read it ({@link Table#getRawScanner}: markers and hidden versions
   * too), as a read gives it: with no delete marker in the row, every put is visible but for
   * the older versions of a column, so each column's newest put (first: raw cells come newest
   * first, the later-written first where timestamps tie); a row holding a marker is read again
   * by a get, whose rules (which puts a marker hides) are the region server's.
   */
  public static Result resolved(Table table, Result raw) {
    List<Cell> newest = new ArrayList<>(raw.size());
    Cell previous = null;
    for (Cell c : raw.cells()) {
      if (c.type().isDelete()) {
        return table.get(new Get(raw.row()));
      }
      if (previous == null || !Arrays.equals(previous.family(), c.family())
          || !Arrays.equals(previous.qualifier(), c.qualifier())) {
        newest.add(c);
      }
      previous = c;
    }
    return new Result(raw.row(), newest);
  }

  /**
   * Counts the entries of {@code layout}'s built index and the distinct values of each prefix
   * of its columns, reading it once in key order (a new value of a prefix starts where the
   * previous entry's prefix differs); null for a salted index, in order only per bucket.
   */
  public static IndexStats countStats(Storage db, IndexLayout layout) {
    if (layout.index().saltBuckets() > 0) {
      return null;
    }
    int n = layout.index().columns().size();
    RowKeyCodec codec = layout.keyDefinition().keyCodec();
    long rows = 0;
    long[] distinct = new long[n];
    Object[] previous = null;
    Scan scan = new Scan().addColumn(IndexLayout.FAMILY, IndexLayout.QUALIFIER);
    try (ResultScanner s = db.table(layout.index().engineTable()).getScanner(scan)) {
      for (Result r : s) {
        Object[] values = codec.decodePrefix(r.row(), n);
        int same = 0;
        while (previous != null && same < n
            && Arrays.deepEquals(new Object[] {previous[same]}, new Object[] {values[same]})) {
          same++;
        }
        for (int k = same; k < n; k++) {
          distinct[k]++;
        }
        previous = values;
        rows++;
      }
    }
    List<Long> out = new ArrayList<>();
    for (long d : distinct) {
      out.add(d);
    }
    return new IndexStats(rows, out);
  }
}
