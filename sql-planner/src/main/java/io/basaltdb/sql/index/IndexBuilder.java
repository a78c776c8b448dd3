package io.basaltdb.sql.index;

import io.basaltdb.sql.catalog.CellNames;
import io.basaltdb.sql.catalog.IndexStats;
import io.basaltdb.sql.catalog.SqlIndexDef;
import io.basaltdb.sql.catalog.SqlTableDef;
import io.basaltdb.sql.type.RowKeyCodec;
import io.basaltdb.storage.Result;
import io.basaltdb.storage.ResultScanner;
import io.basaltdb.storage.Scan;
import io.basaltdb.storage.Storage;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.LongConsumer;

/**
 * Builds an index from its table while writers go on (the online build of
 * {@code doc/indexes.md}): the index is registered first (state BUILDING, so every write from
 * then on maintains it), then every base row's entries are written from the row's values read
 * under its lock, one row at a time. A row written meanwhile either got its entries from its
 * writer or gets them here from its newest values; a row deleted meanwhile gets none. On a
 * storage writing one row atomically (HBase) the rows are read whole by the scan and their
 * entries written {@link #BATCH} rows at a time: by the client-side protocol, or, for a
 * non-unique index whose table's delete markers hide later puts, alone and verified at their
 * rows' timestamps ({@link IndexedRowWrite#writeVerifiedEntries}). Stateless.
 */
public final class IndexBuilder {
  /** Rows whose entries one round of protocol calls writes (a storage of rows alone). */
  private static final int BATCH = 500;

  private IndexBuilder() {}

  /**
   * Writes every entry of {@code index} (registered BUILDING) from {@code def}'s rows; the
   * number of rows indexed. {@code progress} hears the count now and then.
   */
  public static long build(Storage db, SqlTableDef def, SqlIndexDef index,
      LongConsumer progress) {
    IndexedRowWrite writer = new IndexedRowWrite(db, def, List.of(index), -1);
    CellNames names = CellNames.of(def);
    long rows = 0;
    long lastReport = System.nanoTime();
    boolean batched = writer.byProtocol(); // whole rows, their entries a batch at a time
    boolean byTimestamps = writer.buildsByTimestamps(); // entries alone, verified
    Scan scan = batched ? new Scan() : new Scan().addColumn(names.markerFamily(),
        CellNames.MARKER);
    List<Result> batch = new ArrayList<>();
    try (ResultScanner s = db.table(def.table()).getScanner(scan)) {
      for (Result r : s) {
        if (batched) {
          batch.add(r);
          if (batch.size() == BATCH) {
            rows += byTimestamps ? writer.writeVerifiedEntries(batch)
                : writer.writeEntries(batch);
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
      rows += byTimestamps ? writer.writeVerifiedEntries(batch) : writer.writeEntries(batch);
    }
    db.sync();
    progress.accept(rows);
    return rows;
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
