package io.basaltdb.sql;

import io.basaltdb.engine.Database;
import io.basaltdb.engine.Result;
import io.basaltdb.engine.ResultScanner;
import io.basaltdb.engine.Scan;
import io.basaltdb.sql.catalog.SqlColumn;
import io.basaltdb.sql.catalog.SqlTableDef;
import io.basaltdb.sql.type.RowKeyCodec;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.calcite.DataContext;
import org.apache.calcite.linq4j.AbstractEnumerable;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Enumerator;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.schema.ScannableTable;
import org.apache.calcite.schema.impl.AbstractTable;

/**
 * A SQL-defined table over its engine table (stage 1 of the adapter, as Calcite's CSV example
 * starts: scannable). Each engine row becomes a SQL row: key columns decoded from the row key
 * with {@link RowKeyCodec}, other columns from their cells {@code family:COLUMN}, a missing
 * cell being NULL. Pushdown of key ranges, filters and projections comes with the Basalt
 * convention and its rules.
 */
public final class BasaltSqlTable extends AbstractTable implements ScannableTable {
  private final Database db;
  private final SqlTableDef def;

  BasaltSqlTable(Database db, SqlTableDef def) {
    this.db = db;
    this.def = def;
  }

  public SqlTableDef definition() {
    return def;
  }

  @Override
  public RelDataType getRowType(RelDataTypeFactory f) {
    RelDataTypeFactory.Builder b = f.builder();
    for (SqlColumn c : def.columns()) {
      b.add(c.name(), c.type().relType(f, c.precision(), c.scale(), c.nullable() && !c.isKey()));
    }
    return b.build();
  }

  @Override
  public Enumerable<Object[]> scan(DataContext root) {
    RowKeyCodec codec = def.keyCodec();
    List<SqlColumn> cols = def.columns();
    return new AbstractEnumerable<>() {
      @Override
      public Enumerator<Object[]> enumerator() {
        ResultScanner scanner = db.table(def.table()).getScanner(new Scan());
        return new Enumerator<>() {
          private Object[] current;

          @Override
          public Object[] current() {
            return current;
          }

          @Override
          public boolean moveNext() {
            Result r = scanner.next();
            if (r == null) {
              return false;
            }
            current = toRow(r, codec, cols);
            return true;
          }

          @Override
          public void reset() {
            throw new UnsupportedOperationException("reset");
          }

          @Override
          public void close() {
            scanner.close();
          }
        };
      }
    };
  }

  static Object[] toRow(Result r, RowKeyCodec codec, List<SqlColumn> cols) {
    Object[] key = codec.decode(r.row());
    Object[] row = new Object[cols.size()];
    for (int i = 0; i < cols.size(); i++) {
      SqlColumn c = cols.get(i);
      if (c.isKey()) {
        row[i] = c.type().fromKey(key[c.keyPosition()]);
      } else {
        byte[] v = r.getValue(c.family().getBytes(StandardCharsets.UTF_8),
            c.name().getBytes(StandardCharsets.UTF_8));
        row[i] = v == null ? null : c.type().fromCell(v);
      }
    }
    return row;
  }
}
