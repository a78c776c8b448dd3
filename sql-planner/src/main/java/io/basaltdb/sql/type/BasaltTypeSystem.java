package io.basaltdb.sql.type;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rel.type.RelDataTypeSystemImpl;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * Calcite's type system with two changes: TIMESTAMP's default precision is 3, and {@code SUM}
 * of a TINYINT, SMALLINT or INTEGER column
 * is a BIGINT (as in H2, PostgreSQL and Phoenix), not a value of the column's own type that
 * wraps past its range; {@code SUM} of a BIGINT stays BIGINT and is checked
 * (the planner's {@code CheckedSums}: 22003 past its range). Every Basalt connection uses
 * it ({@code BasaltConnections}). Stateless.
 */
public final class BasaltTypeSystem extends RelDataTypeSystemImpl {
  public static final BasaltTypeSystem INSTANCE = new BasaltTypeSystem();

  private BasaltTypeSystem() {}

  /**
   * TIMESTAMP without a precision is TIMESTAMP(3), the milliseconds Basalt stores (Calcite's
   * default, 0, refused a literal with milliseconds that a bound value kept; H2 and the
   * standard default to 6, which Basalt would cut).
   */
  @Override
  public int getDefaultPrecision(SqlTypeName typeName) {
    return typeName == SqlTypeName.TIMESTAMP ? 3 : super.getDefaultPrecision(typeName);
  }

  @Override
  public RelDataType deriveSumType(RelDataTypeFactory typeFactory, RelDataType argumentType) {
    SqlTypeName t = argumentType.getSqlTypeName();
    if (t == SqlTypeName.TINYINT || t == SqlTypeName.SMALLINT || t == SqlTypeName.INTEGER) {
      return typeFactory.createTypeWithNullability(
          typeFactory.createSqlType(SqlTypeName.BIGINT), argumentType.isNullable());
    }
    return super.deriveSumType(typeFactory, argumentType);
  }
}
