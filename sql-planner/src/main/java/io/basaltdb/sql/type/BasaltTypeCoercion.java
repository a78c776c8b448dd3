package io.basaltdb.sql.type;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeUtil;
import org.apache.calcite.sql.validate.SqlValidator;
import org.apache.calcite.sql.validate.implicit.TypeCoercionImpl;

/**
 * Calcite's implicit casts with one change, as H2 and PostgreSQL compare: a UUID compared with
 * text compares as a UUID (the text is cast, so {@code id = '7FFF...'} matches whatever the
 * case of its hex digits, and a key lookup stays a key lookup); Calcite casts the UUID to text.
 * Stateless.
 */
public final class BasaltTypeCoercion extends TypeCoercionImpl {
  public BasaltTypeCoercion(RelDataTypeFactory typeFactory, SqlValidator validator) {
    super(typeFactory, validator);
  }

  @Override
  public RelDataType commonTypeForBinaryComparison(RelDataType type1, RelDataType type2) {
    if (type1 != null && type2 != null) {
      boolean anyNullable = type1.isNullable() || type2.isNullable();
      if (type1.getSqlTypeName() == SqlTypeName.UUID && SqlTypeUtil.isCharacter(type2)) {
        return factory.createTypeWithNullability(type1, anyNullable);
      }
      if (type2.getSqlTypeName() == SqlTypeName.UUID && SqlTypeUtil.isCharacter(type1)) {
        return factory.createTypeWithNullability(type2, anyNullable);
      }
    }
    return super.commonTypeForBinaryComparison(type1, type2);
  }
}
