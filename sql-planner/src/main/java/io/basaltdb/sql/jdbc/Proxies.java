package io.basaltdb.sql.jdbc;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Forwarding of calls from Basalt's JDBC proxies (connection, statements) to the objects they
 * wrap. A proxy hands its handler the interface's {@link Method}; invoking it reflectively
 * checks access on every call, and with two proxy layers calling the same method (the
 * driver's and the connection's) the JDK's one-entry access cache missed every time, a
 * noticeable share of a batched load. Each method is made accessible once instead (they are
 * public methods of public JDBC interfaces).
 */
final class Proxies {
  private static final Set<Method> ACCESSIBLE = ConcurrentHashMap.newKeySet();

  private Proxies() {}

  /** {@code method} on {@code target}, throwing what the method throws. */
  static Object forward(Method method, Object target, Object[] args) throws Throwable {
    if (!ACCESSIBLE.contains(method)) {
      method.setAccessible(true);
      ACCESSIBLE.add(method);
    }
    try {
      return method.invoke(target, args);
    } catch (InvocationTargetException e) {
      throw e.getCause();
    }
  }
}
