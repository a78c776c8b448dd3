package io.basaltdb.sql.exec;

import java.lang.reflect.Method;
import org.apache.calcite.adapter.enumerable.CallImplementor;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.schema.ImplementableFunction;
import org.apache.calcite.schema.ScalarFunction;
import org.apache.calcite.schema.impl.ReflectiveFunctionBase;
import org.apache.calcite.schema.impl.ScalarFunctionImpl;

/**
 * A scalar function of a static Java method, as {@link ScalarFunctionImpl} makes it, whose
 * code generator is made when a plan first compiles a call to it. {@code
 * ScalarFunctionImpl.create} makes it at once, which initializes Calcite's table of every
 * operator's implementation (~0.2 s in a fresh JVM): a connection registers its functions, and
 * a CREATE TABLE loads the CHECK operator, before a first statement that mostly compiles none.
 *
 * <p>For a method without Calcite's null-policy or hint annotations only (its result type and
 * kind are then the same as {@code ScalarFunctionImpl}'s, which the catalog reader treats
 * specially only through those annotations); {@link #of} checks that.
 */
public final class LazyScalarFunction extends ReflectiveFunctionBase
    implements ScalarFunction, ImplementableFunction {
  private volatile CallImplementor implementor;

  private LazyScalarFunction(Method method) {
    super(method);
  }

  /** The function of {@code clazz}'s public static method {@code name}. */
  public static ScalarFunction of(Class<?> clazz, String name) {
    for (Method m : clazz.getMethods()) {
      if (m.getName().equals(name) && java.lang.reflect.Modifier.isStatic(m.getModifiers())) {
        for (var a : m.getAnnotations()) {
          if (a.annotationType().getName().startsWith("org.apache.calcite")) {
            throw new IllegalArgumentException(clazz.getName() + "." + name
                + " has Calcite annotation " + a + ": use ScalarFunctionImpl");
          }
        }
        return new LazyScalarFunction(m);
      }
    }
    throw new IllegalArgumentException("no public static method " + clazz.getName() + "." + name);
  }

  @Override
  public RelDataType getReturnType(RelDataTypeFactory typeFactory) {
    return typeFactory.createJavaType(method.getReturnType());
  }

  @Override
  public CallImplementor getImplementor() {
    CallImplementor i = implementor;
    if (i == null) {
      i = ((ImplementableFunction) ScalarFunctionImpl.create(method)).getImplementor();
      implementor = i;
    }
    return i;
  }
}
