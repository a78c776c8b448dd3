package io.basaltdb.sql.prepare;

import java.util.List;
import org.apache.calcite.adapter.java.JavaTypeFactory;
import org.apache.calcite.avatica.AvaticaParameter;
import org.apache.calcite.avatica.ColumnMetaData;
import org.apache.calcite.rel.type.RelDataType;

/**
 * A statement signature's JDBC metadata, computed as Calcite's statement preparation computes
 * it, for plans made without that preparation ({@link DirectPlans}): result columns by
 * Calcite's own (private) column code ({@link CalciteInternals}), so that a result set's metadata
 * is the same whichever path planned it; parameters by the same rules as Calcite's (precision
 * and scale 0 when unspecified, the JDBC type of the SQL type, class name {@code Object}).
 * {@link #AVAILABLE} is false under another Calcite whose code is not found: then nothing is
 * planned directly.
 */
final class CalciteColumns {
  static final boolean AVAILABLE = CalciteInternals.hasColumnMetadata();

  private CalciteColumns() {}

  /** The columns of a result of {@code rowType} (a struct), each with its origin or null. */
  static List<ColumnMetaData> of(JavaTypeFactory types, RelDataType rowType,
      List<? extends List<String>> origins) {
    return CalciteInternals.columns(types, rowType, origins);
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
