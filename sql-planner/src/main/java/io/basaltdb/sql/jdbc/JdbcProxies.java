package io.basaltdb.sql.jdbc;

import io.basaltdb.sql.SqlErrors;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Optional;

/**
 * The one wrapping layer left between a Basalt connection's users and Calcite's JDBC objects:
 * every {@link SQLException} the connection, its statements and their result sets throw
 * carries Basalt's SQLState and message ({@link SqlErrors}; Calcite reports most errors
 * without a state), and a prepared statement checks each value as it is bound
 * ({@link PreparedStatements}). Calcite's connection and statement classes cannot be
 * subclassed outside Calcite; everything else a connection does goes through
 * {@link BasaltMeta}.
 */
final class JdbcProxies {
  private JdbcProxies() {}

  /** Handles some calls itself: a result (Void.TYPE for none), or empty to delegate. */
  @FunctionalInterface
  interface Override {
    Optional<Object> invoke(Method method, Object[] args) throws Throwable;
  }

  static <T> T wrap(T target, Class<T> iface, Override override) {
    Object proxy = Proxy.newProxyInstance(JdbcProxies.class.getClassLoader(),
        new Class<?>[] {iface}, (p, method, args) -> {
          try {
            if (override != null) {
              Optional<Object> r = override.invoke(method, args);
              if (r.isPresent()) {
                return r.get() == Void.TYPE ? null : r.get();
              }
            }
            Object result = Proxies.forward(method, target, args);
            return wrapResult(result, method.getReturnType());
          } catch (SQLException | RuntimeException | StackOverflowError e) {
            throw translate(e);
          }
        });
    return iface.cast(proxy);
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private static Object wrapResult(Object result, Class<?> type) {
    if (result == null || !type.isInterface() || Proxy.isProxyClass(result.getClass())) {
      return result;
    }
    if (Statement.class.isAssignableFrom(type) || type == ResultSet.class) {
      return wrap(result, (Class) type, null);
    }
    return result;
  }

  private static Throwable translate(Throwable t) {
    if (t instanceof SQLException || t instanceof RuntimeException
        || t instanceof StackOverflowError) {
      return SqlErrors.toSqlException(t);
    }
    return t;
  }
}
