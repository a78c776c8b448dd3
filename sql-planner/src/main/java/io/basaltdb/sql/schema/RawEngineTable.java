package io.basaltdb.sql.schema;

import io.basaltdb.storage.Cell;
import io.basaltdb.storage.Result;
import io.basaltdb.storage.ResultScanner;
import io.basaltdb.storage.Scan;
import io.basaltdb.storage.Storage;
import io.basaltdb.storage.TableName;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.calcite.DataContext;
import org.apache.calcite.avatica.util.ByteString;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Linq4j;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.schema.ScannableTable;
import org.apache.calcite.schema.impl.AbstractTable;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * An engine table made through the engine's API, not SQL, seen from SQL as Bigtable SQL and
 * Drill's HBase plugin show one: {@code ROW_KEY VARBINARY} and one
 * {@code MAP<VARCHAR, VARBINARY>} column per family (qualifier to newest value).
 */
public final class RawEngineTable extends AbstractTable implements ScannableTable {
  private final Storage db;
  private final TableName name;

  RawEngineTable(Storage db, TableName name) {
    this.db = db;
    this.name = name;
  }

  private List<String> families() {
    return new ArrayList<>(db.admin().describe(name).families().keySet());
  }

  @Override
  public RelDataType getRowType(RelDataTypeFactory f) {
    RelDataTypeFactory.Builder b = f.builder();
    b.add("ROW_KEY", f.createSqlType(SqlTypeName.VARBINARY));
    RelDataType map = f.createMapType(f.createSqlType(SqlTypeName.VARCHAR),
        f.createSqlType(SqlTypeName.VARBINARY));
    for (String fam : families()) {
      b.add(fam, f.createTypeWithNullability(map, true));
    }
    return b.build();
  }

  @Override
  public Enumerable<Object[]> scan(DataContext root) {
    List<String> fams = families();
    List<Object[]> rows = new ArrayList<>();
    // stage 1 materialises the rows; the Basalt convention streams them
    try (ResultScanner s = db.table(name).getScanner(new Scan())) {
      for (Result r : s) {
        Object[] row = new Object[fams.size() + 1];
        row[0] = new ByteString(r.row());
        for (int i = 0; i < fams.size(); i++) {
          Map<String, ByteString> m = new LinkedHashMap<>();
          byte[] fam = fams.get(i).getBytes(StandardCharsets.UTF_8);
          for (Cell c : r.cells()) {
            if (java.util.Arrays.equals(c.family(), fam)) {
              m.putIfAbsent(new String(c.qualifier(), StandardCharsets.UTF_8),
                  new ByteString(c.value()));
            }
          }
          row[i + 1] = m.isEmpty() ? null : m;
        }
        rows.add(row);
      }
    }
    return Linq4j.asEnumerable(rows);
  }
}
