package io.basaltdb.sql.type;

import java.lang.reflect.Type;
import org.apache.calcite.jdbc.JavaTypeFactoryImpl;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * Calcite's Java type factory with {@link BasaltTypeSystem}, where a UUID value is a
 * {@link java.util.UUID} in generated code too (Calcite 1.42 types it {@code Object} there, so
 * code that reads a UUID column and converts it, {@code uuidToString(Object)}, does not
 * compile). Every Basalt connection's planner uses it ({@code BasaltConnections}). Stateless
 * beyond Calcite's type cache.
 */
public final class BasaltTypeFactory extends JavaTypeFactoryImpl {
  public BasaltTypeFactory() {
    super(BasaltTypeSystem.INSTANCE);
  }

  @Override
  public Type getJavaClass(RelDataType type) {
    if (type.getSqlTypeName() == SqlTypeName.UUID && !(type instanceof JavaType)) {
      return java.util.UUID.class;
    }
    return super.getJavaClass(type);
  }
}
