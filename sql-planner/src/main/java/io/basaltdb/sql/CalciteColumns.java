package io.basaltdb.sql;

import java.lang.reflect.Method;
import java.util.List;
import org.apache.calcite.adapter.java.JavaTypeFactory;
import org.apache.calcite.avatica.AvaticaParameter;
import org.apache.calcite.avatica.ColumnMetaData;
import org.apache.calcite.prepare.CalcitePrepareImpl;
import org.apache.calcite.rel.type.RelDataType;

/**
 * A statement signature's JDBC metadata, computed as Calcite's statement preparation computes
 * it, for plans made without that preparation ({@link DirectPlans}): result columns by
 * Calcite's own (private) column code, reached by reflection, so that a result set's metadata
 * is the same whichever path planned it; parameters by the same rules as Calcite's (precision
 * and scale 0 when unspecified, the JDBC type of the SQL type, class name {@code Object}).
 * {@link #AVAILABLE} is false under another Calcite whose code is not found: then nothing is
 * planned directly.
 */
final class CalciteColumns {
  private static final Method COLUMNS = columnsMethod();
  static final boolean AVAILABLE = COLUMNS != null;

  private CalciteColumns() {}

  private static Method columnsMethod() {
    try {
      Method m = CalcitePrepareImpl.class.getDeclaredMethod("getColumnMetaDataList",
          JavaTypeFactory.class, RelDataType.class, RelDataType.class, List.class);
      m.setAccessible(true);
      return m;
    } catch (ReflectiveOperationException | RuntimeException e) {
      return null;
    }
  }

  /** The columns of a result of {@code rowType} (a struct), each with its origin or null. */
  @SuppressWarnings("unchecked")
  static List<ColumnMetaData> of(JavaTypeFactory types, RelDataType rowType,
      List<? extends List<String>> origins) {
    try {
      return (List<ColumnMetaData>) COLUMNS.invoke(null, types, rowType, rowType, origins);
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("Calcite's column metadata", e);
    }
  }

  /** A parameter of {@code type}, as Calcite describes one. */
  static AvaticaParameter parameter(RelDataType type, String name) {
    return new AvaticaParameter(false,
        type.getPrecision() == RelDataType.PRECISION_NOT_SPECIFIED ? 0 : type.getPrecision(),
        type.getScale() == RelDataType.SCALE_NOT_SPECIFIED ? 0 : type.getScale(),
        type.getSqlTypeName().getJdbcOrdinal(), type.getSqlTypeName().getName(),
        Object.class.getName(), name);
  }
}
