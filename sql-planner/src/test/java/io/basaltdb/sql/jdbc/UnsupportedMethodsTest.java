package io.basaltdb.sql.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basaltdb.engine.Database;
import io.basaltdb.engine.EngineOptions;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Every method of the JDBC objects a user meets (connection, statements, result set, metadata),
 * called with plain arguments: one Basalt does not support fails with a
 * {@link SQLFeatureNotSupportedException} whose SQLState is 0A000 and whose message names the
 * method (Avatica's had neither); the pool hints Basalt can honour ({@code setPoolable},
 * {@code setEscapeProcessing}, an empty type map, {@code nativeSQL}) are accepted.
 */
class UnsupportedMethodsTest {
  /** Methods that end or change what the probe goes on with. */
  private static final Set<String> SKIP = Set.of("close", "abort", "shutdown", "commit",
      "rollback", "setAutoCommit", "releaseSavepoint", "setReadOnly", "setCatalog", "setSchema",
      "setTransactionIsolation", "setNetworkTimeout", "cancel", "closeOnCompletion", "execute",
      "executeQuery", "executeUpdate", "executeLargeUpdate", "executeBatch", "executeLargeBatch",
      "addBatch", "clearBatch", "next", "absolute", "relative", "first", "last", "beforeFirst",
      "afterLast", "previous", "deleteRow", "insertRow", "updateRow", "moveToInsertRow",
      "refreshRow");

  @Test
  void everyUnsupportedMethodSaysWhichWith0A000() throws Exception {
    List<String> bad = new ArrayList<>();
    int refused = 0;
    try (Database db = Database.openTemporary(EngineOptions.defaults());
        Connection c = BasaltConnections.open(db)) {
      c.createStatement().execute("CREATE TABLE t (id INT PRIMARY KEY)");
      refused += probe(c, Connection.class, bad);
      refused += probe(c.createStatement(), Statement.class, bad);
      refused += probe(c.prepareStatement("SELECT id FROM t WHERE id = ?"),
          PreparedStatement.class, bad);
      refused += probe(c.createStatement().executeQuery("SELECT id FROM t"), ResultSet.class,
          bad);
      refused += probe(c.getMetaData(), DatabaseMetaData.class, bad);
      c.createStatement().setPoolable(true);
      c.createStatement().setEscapeProcessing(false);
      c.setTypeMap(new java.util.HashMap<>());
      assertEquals("SELECT 1", c.nativeSQL("SELECT 1"));
    }
    assertEquals(List.of(), bad);
    assertTrue(refused > 100, "the probe reached the unsupported methods: " + refused);
  }

  /** Calls each method of {@code type} on {@code o}; the count of refusals. */
  private static int probe(Object o, Class<?> type, List<String> bad) throws Exception {
    int refused = 0;
    for (Method m : type.getMethods()) {
      if (SKIP.contains(m.getName()) || Modifier.isStatic(m.getModifiers())) {
        continue;
      }
      Object[] args = Arrays.stream(m.getParameterTypes()).map(UnsupportedMethodsTest::value)
          .toArray();
      try {
        m.invoke(o, args);
      } catch (InvocationTargetException e) {
        if (e.getCause() instanceof SQLFeatureNotSupportedException s) {
          refused++;
          if (!"0A000".equals(s.getSQLState()) || s.getMessage() == null
              || !s.getMessage().contains(m.getName())) {
            bad.add(type.getSimpleName() + "." + m.getName() + ": " + s.getSQLState() + " "
                + s.getMessage());
          }
        }
      }
    }
    return refused;
  }

  private static Object value(Class<?> t) {
    if (!t.isPrimitive()) {
      return t == String.class ? "x" : t == Class.class ? Object.class
          : t.isArray() ? java.lang.reflect.Array.newInstance(t.getComponentType(), 0) : null;
    }
    return t == boolean.class ? (Object) false : t == int.class ? (Object) 1
        : t == long.class ? (Object) 1L : t == double.class ? (Object) 1d
        : t == float.class ? (Object) 1f : t == short.class ? (Object) (short) 1 : (byte) 1;
  }
}
