package io.basaltdb.sql.exec.read;

import io.basaltdb.sql.catalog.CellNames;
import io.basaltdb.sql.catalog.SqlColumn;
import io.basaltdb.sql.catalog.SqlTableDef;
import io.basaltdb.storage.Result;
import io.basaltdb.storage.ResultScanner;
import io.basaltdb.storage.Scan;
import io.basaltdb.storage.Storage;
import java.nio.ByteBuffer;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Estimates of how many distinct values a column holds, for join selectivity, from a sample:
 * the table's first {@link #SAMPLE} rows. A column whose values repeat a lot in the sample
 * (fewer distinct than a tenth of it) has a small domain, taken as seen (TPC-H's nation keys:
 * 25); otherwise the sample's share of distinct values is scaled to the table's rows. The first
 * rows in key order stand for the table: good for cell columns, poor for a key prefix (whose
 * values the sample sees in runs), which the planner knows better from the key itself.
 */
public final class DistinctValues {
  static final int SAMPLE = 2000;

  private DistinctValues() {}

  /** The estimated distinct values of column {@code column} in a table of {@code rows} rows. */
  public static double estimate(Storage db, SqlTableDef def, int column, double rows) {
    SqlColumn c = def.columns().get(column);
    CellNames names = CellNames.of(def);
    io.basaltdb.sql.type.RowKeyCodec codec = def.keyCodec();
    Set<Object> seen = new HashSet<>();
    int sampled = 0;
    Scan scan = new Scan().setLimit(SAMPLE);
    if (!c.isKey()) {
      scan.addColumn(names.family(column), names.qualifier(column));
    }
    try (ResultScanner s = db.table(def.table()).getScanner(scan)) {
      for (Result r = s.next(); r != null; r = s.next()) {
        sampled++;
        if (c.isKey()) {
          seen.add(codec.decode(r.row())[c.keyPosition()]);
        } else {
          byte[] v = names.value(column, r.getValue(names.family(column),
              names.qualifier(column)));
          seen.add(v == null ? List.of() : ByteBuffer.wrap(v));
        }
      }
    }
    if (sampled < SAMPLE || seen.size() * 10 < sampled) {
      return Math.max(1, seen.size()); // the whole table, or a small domain seen whole
    }
    return Math.max(seen.size(), rows * seen.size() / sampled);
  }
}
