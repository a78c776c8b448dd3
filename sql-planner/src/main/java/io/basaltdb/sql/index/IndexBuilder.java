package io.basaltdb.sql.index;

import io.basaltdb.storage.Storage;
import io.basaltdb.storage.Result;
import io.basaltdb.storage.ResultScanner;
import io.basaltdb.storage.Scan;
import io.basaltdb.sql.catalog.CellNames;
import io.basaltdb.sql.catalog.SqlTableDef;
import java.util.List;
import java.util.function.LongConsumer;

/**
 * Builds an index from its table while writers go on (the online build of
 * {@code doc/indexes.md}): the index is registered first (state BUILDING, so every write from
 * then on maintains it), then every base row's entries are written from the row's values read
 * under its lock, one row at a time. A row written meanwhile either got its entries from its
 * writer or gets them here from its newest values; a row deleted meanwhile gets none. Stateless.
 */
public final class IndexBuilder {
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
    Scan scan = new Scan().addColumn(names.markerFamily(), CellNames.MARKER);
    try (ResultScanner s = db.table(def.table()).getScanner(scan)) {
      for (Result r : s) {
        writer.writeEntries(r.row());
        rows++;
        if (System.nanoTime() - lastReport > 1_000_000_000L) {
          progress.accept(rows);
          lastReport = System.nanoTime();
        }
      }
    }
    db.sync();
    progress.accept(rows);
    return rows;
  }
}
