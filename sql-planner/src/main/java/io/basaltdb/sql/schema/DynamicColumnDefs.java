package io.basaltdb.sql.schema;

import io.basaltdb.sql.SqlStates;
import io.basaltdb.sql.SqlStateException;
import io.basaltdb.sql.catalog.SqlColumn;
import io.basaltdb.sql.catalog.SqlTableDef;
import io.basaltdb.sql.type.ColumnType;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeField;

/**
 * A table definition with a statement's dynamic columns added ({@link BasaltSqlTable#extend}):
 * each a nullable cell column whose qualifier is its name, in the family the statement gave
 * it (Calcite names a column declared {@code f.extra} "F.EXTRA": EXTRA in family F, when the
 * table has a family F), else the table's first family; typed by the declaration. Only for
 * the one statement: the SQL catalog never sees them.
 */
final class DynamicColumnDefs {
  private DynamicColumnDefs() {}

  /** {@code families}: the table's families (asked only of a name with a dot). */
  static SqlTableDef extend(SqlTableDef def, List<RelDataTypeField> fields,
      java.util.function.Supplier<java.util.Set<String>> families) {
    if (def.hasHiddenKey()) {
      throw new SqlStateException(SqlStates.FEATURE_NOT_SUPPORTED,
          "dynamic columns need a primary key, and "
          + def.table() + " has none");
    }
    if (def.packed()) {
      throw new SqlStateException(SqlStates.FEATURE_NOT_SUPPORTED,
          "dynamic columns of " + def.table() + ": it stores "
          + "each family in one cell (IMMUTABLE_STORAGE_SCHEME=SINGLE_CELL_ARRAY_WITH_OFFSETS)");
    }
    List<SqlColumn> cols = new ArrayList<>(def.columns());
    java.util.Set<String> known = null;
    for (RelDataTypeField f : fields) {
      String name = f.getName();
      String family = def.markerFamily();
      int dot = name.indexOf('.'); // Calcite names a column declared f.extra "F.EXTRA"
      if (dot > 0 && known == null) {
        known = families.get(); // asked once per statement (over HBase: a round trip)
      }
      if (dot > 0 && known.contains(name.substring(0, dot))) {
        family = name.substring(0, dot);
        name = name.substring(dot + 1);
      }
      for (SqlColumn c : cols) {
        if (c.name().equals(name)) {
          throw new SqlStateException(SqlStates.SYNTAX_ERROR, "dynamic column " + name + " of "
              + def.table() + " is already a column of it");
        }
      }
      cols.add(column(def, name, family, f.getType()));
    }
    return def.withColumns(cols);
  }

  private static SqlColumn column(SqlTableDef def, String name, String family, RelDataType t) {
    RelDataType scalar = t.getComponentType() != null ? t.getComponentType() : t;
    ColumnType type = typeOf(def, name, scalar);
    int precision = scalar.getSqlTypeName().allowsPrec()
        && scalar.getPrecision() != RelDataType.PRECISION_NOT_SPECIFIED ? scalar.getPrecision()
        : -1;
    int scale = scalar.getSqlTypeName().allowsScale()
        && scalar.getScale() != RelDataType.SCALE_NOT_SPECIFIED ? scalar.getScale() : -1;
    return t.getComponentType() != null
        ? new SqlColumn(name, ColumnType.ARRAY, precision, scale, true, -1, false, family, type)
        : new SqlColumn(name, type, precision, scale, true, -1, false, family);
  }

  private static ColumnType typeOf(SqlTableDef def, String name, RelDataType t) {
    for (ColumnType c : ColumnType.values()) {
      if (c != ColumnType.ARRAY && c != ColumnType.MAP && c.sqlType() == t.getSqlTypeName()) {
        return c;
      }
    }
    throw new SqlStateException(SqlStates.FEATURE_NOT_SUPPORTED,
        "dynamic column " + name + " of " + def.table()
        + " is of type " + t + ", which a column cannot be");
  }
}
