package io.basaltdb.sql.schema;

import io.basaltdb.sql.catalog.CellNames;
import io.basaltdb.sql.catalog.SqlColumn;
import io.basaltdb.sql.catalog.SqlTableDef;
import io.basaltdb.sql.type.RowKeyCodec;
import io.basaltdb.storage.Cell;
import io.basaltdb.storage.Result;
import io.basaltdb.storage.ResultScanner;
import io.basaltdb.storage.Scan;
import io.basaltdb.storage.Storage;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.calcite.DataContext;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Linq4j;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.schema.ScannableTable;
import org.apache.calcite.schema.impl.AbstractTable;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * The stored versions of a SQL table's cells, as the table {@code T$HISTORY}: one row per
 * version with the row's key columns, {@code COLUMN_NAME}, {@code VERSION_TS} (the cell's
 * timestamp) and {@code VAL} (the value as text). Versions are those the engine keeps:
 * at most the family's VERSIONS, not deleted, not expired. Query it as
 * {@code SELECT * FROM "PAGES$HISTORY" WHERE id = 1 ORDER BY version_ts DESC}.
 */
public final class HistoryTable extends AbstractTable implements ScannableTable {
  public static final String SUFFIX = "$HISTORY";

  private final Storage db;
  private final SqlTableDef def;

  HistoryTable(Storage db, SqlTableDef def) {
    this.db = db;
    this.def = def;
  }

  @Override
  public RelDataType getRowType(RelDataTypeFactory f) {
    RelDataTypeFactory.Builder b = f.builder();
    for (SqlColumn c : def.keyColumns()) {
      b.add(c.name(), c.type().relType(f, c.precision(), c.scale(), false));
    }
    b.add("COLUMN_NAME", f.createSqlType(SqlTypeName.VARCHAR));
    b.add("VERSION_TS", f.createSqlType(SqlTypeName.TIMESTAMP, 3));
    b.add("VAL", f.createTypeWithNullability(f.createSqlType(SqlTypeName.VARCHAR), true));
    return b.build();
  }

  private static final byte[] PACKED =
      SqlTableDef.PACKED_QUALIFIER.getBytes(StandardCharsets.UTF_8);

  @Override
  public Enumerable<Object[]> scan(DataContext root) {
    RowKeyCodec codec = def.keyCodec();
    Map<String, SqlColumn> byCell = new HashMap<>();
    for (SqlColumn c : def.columns()) {
      if (!c.isKey()) {
        byCell.put(c.family() + ":" + c.name(), c);
      }
    }
    List<SqlColumn> keys = def.keyColumns();
    CellNames names = CellNames.of(def);
    Map<String, int[]> packed = new HashMap<>();
    for (CellNames.PackedFamily f : names.packedFamilies()) {
      packed.put(new String(f.family(), StandardCharsets.UTF_8), f.columns());
    }
    List<Object[]> rows = new ArrayList<>();
    // materialised: a history listing is a diagnostic, not a hot path
    try (ResultScanner s = db.table(def.table()).getScanner(new Scan().readAllVersions())) {
      for (Result r : s) {
        Object[] key = codec.decode(r.row());
        for (Cell cell : r.cells()) {
          if (Arrays.equals(cell.qualifier(), CellNames.MARKER)) {
            continue;
          }
          String family = new String(cell.family(), StandardCharsets.UTF_8);
          String name = family + ":" + new String(cell.qualifier(), StandardCharsets.UTF_8);
          if (packed.containsKey(family) && Arrays.equals(cell.qualifier(), PACKED)) {
            // a family's one cell: a version of each of its columns
            for (int i : packed.get(family)) {
              byte[] v = names.value(i, cell.value());
              rows.add(historyRow(keys, key, def.columns().get(i).name(), cell.timestamp(),
                  v == null ? null : String.valueOf(def.columns().get(i).fromCell(v))));
            }
            continue;
          }
          SqlColumn c = byCell.get(name);
          rows.add(historyRow(keys, key, c == null ? name : c.name(), cell.timestamp(),
              c == null ? Cell.printable(cell.value())
                  : String.valueOf(c.fromCell(cell.value()))));
        }
      }
    }
    return Linq4j.asEnumerable(rows);
  }

  private static Object[] historyRow(List<SqlColumn> keys, Object[] key, String column,
      long timestamp, String value) {
    Object[] row = new Object[keys.size() + 3];
    for (int i = 0; i < keys.size(); i++) {
      row[i] = keys.get(i).type().fromKey(key[i]);
    }
    row[keys.size()] = column;
    row[keys.size() + 1] = timestamp;
    row[keys.size() + 2] = value;
    return row;
  }
}
