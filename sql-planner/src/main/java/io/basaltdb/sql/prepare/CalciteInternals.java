package io.basaltdb.sql.prepare;

import java.lang.reflect.Field;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.calcite.adapter.java.JavaTypeFactory;
import org.apache.calcite.avatica.ColumnMetaData;
import org.apache.calcite.jdbc.CalcitePrepare;
import org.apache.calcite.prepare.CalcitePrepareImpl.CalcitePreparingStmt;
import org.apache.calcite.prepare.CalcitePrepareImpl;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.server.CalciteServer;

/**
 * Every private member of Calcite that Basalt reaches by reflection, in one place, each
 * looked up once; under a Calcite that moved one, that member is null and the path needing it
 * is off (its caller asks {@code has...} first and takes Calcite's own way), and
 * {@link #missing()} names what moved, which {@code CalciteInternalsTest} turns into a loud
 * failure at the upgrade. What is reached, and why:
 * <ul>
 *   <li>{@code CalcitePrepareImpl.getColumnMetaDataList}: the JDBC column metadata of a
 *       result, so that a plan made without Calcite's preparation ({@code DirectPlans}) shows
 *       the same metadata;
 *   <li>{@code CalcitePreparingStmt.internalParameters}: where the JDBC layer finds a batch
 *       plan, stashed there by a plan that compiles nothing;
 *   <li>{@code CalciteConnectionImpl.server} and {@code parseQuery}: the steps of Calcite's
 *       prepare-and-execute, run without building the configuration Calcite's meta builds
 *       first (cold start).
 * </ul>
 */
public final class CalciteInternals {
  private static final String CONNECTION_IMPL = "org.apache.calcite.jdbc.CalciteConnectionImpl";
  private static final List<String> MISSING = new ArrayList<>();

  private static final Method COLUMNS = method(CalcitePrepareImpl.class,
      "getColumnMetaDataList", JavaTypeFactory.class, RelDataType.class, RelDataType.class,
      List.class);
  private static final Field INTERNAL_PARAMETERS = field(CalcitePreparingStmt.class,
      "internalParameters");
  private static final Field SERVER = field(connectionImpl(), "server");
  private static final Method PARSE_QUERY = method(connectionImpl(), "parseQuery",
      CalcitePrepare.Query.class, CalcitePrepare.Context.class, long.class);

  private CalciteInternals() {}

  /** The members this Calcite lacks, by name; empty under the Calcite Basalt is built with. */
  public static List<String> missing() {
    synchronized (MISSING) {
      return List.copyOf(MISSING);
    }
  }

  // ------------------------------------------------------------ column metadata

  static boolean hasColumnMetadata() {
    return COLUMNS != null;
  }

  /** The JDBC columns of a result of {@code rowType}, each with its origin or null. */
  @SuppressWarnings("unchecked")
  static List<ColumnMetaData> columns(JavaTypeFactory types, RelDataType rowType,
      List<? extends List<String>> origins) {
    try {
      return (List<ColumnMetaData>) COLUMNS.invoke(null, types, rowType, rowType, origins);
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("Calcite's column metadata", e);
    }
  }

  // ------------------------------------------------------------ internal parameters

  /** Puts {@code value} among {@code stmt}'s internal parameters; false if it cannot. */
  @SuppressWarnings("unchecked")
  static boolean putInternalParameter(CalcitePreparingStmt stmt, String key, Object value) {
    if (INTERNAL_PARAMETERS == null) {
      return false;
    }
    try {
      ((Map<String, Object>) INTERNAL_PARAMETERS.get(stmt)).put(key, value);
      return true;
    } catch (ReflectiveOperationException | RuntimeException e) {
      return false;
    }
  }

  /** {@code stmt}'s internal parameters (the generated code's context), or null if unreachable. */
  @SuppressWarnings("unchecked")
  static Map<String, Object> internalParameters(CalcitePreparingStmt stmt) {
    try {
      return INTERNAL_PARAMETERS == null ? null
          : (Map<String, Object>) INTERNAL_PARAMETERS.get(stmt);
    } catch (ReflectiveOperationException | RuntimeException e) {
      return null;
    }
  }

  // ------------------------------------------------------------ the connection's steps

  /** Whether {@link #server} and {@link #parseQuery} are reachable. */
  public static boolean hasConnectionSteps() {
    return SERVER != null && PARSE_QUERY != null;
  }

  /** The server of a Calcite connection (its statements by handle). */
  public static CalciteServer server(Object connection) {
    try {
      return (CalciteServer) SERVER.get(connection);
    } catch (IllegalAccessException e) {
      throw new IllegalStateException("Calcite's connection", e);
    }
  }

  /**
   * Calcite's parse-validate-plan of {@code query} on {@code connection}; what it throws is
   * thrown as it is (a runtime exception or an error), else wrapped.
   */
  @SuppressWarnings("unchecked")
  public static CalcitePrepare.CalciteSignature<Object> parseQuery(Object connection,
      CalcitePrepare.Query<?> query, CalcitePrepare.Context context, long maxRowCount) {
    try {
      return (CalcitePrepare.CalciteSignature<Object>) PARSE_QUERY.invoke(connection, query,
          context, maxRowCount);
    } catch (InvocationTargetException e) {
      if (e.getCause() instanceof RuntimeException r) {
        throw r;
      }
      if (e.getCause() instanceof Error err) {
        throw err;
      }
      throw new RuntimeException(e.getCause());
    } catch (IllegalAccessException e) {
      throw new IllegalStateException("Calcite's connection", e);
    }
  }

  // ------------------------------------------------------------ lookup

  private static Class<?> connectionImpl() {
    try {
      return Class.forName(CONNECTION_IMPL);
    } catch (ClassNotFoundException e) {
      return null;
    }
  }

  private static Method method(Class<?> owner, String name, Class<?>... parameters) {
    try {
      Method m = owner.getDeclaredMethod(name, parameters);
      m.setAccessible(true);
      return m;
    } catch (ReflectiveOperationException | RuntimeException e) {
      note((owner == null ? CONNECTION_IMPL : owner.getName()) + "." + name + "()");
      return null;
    }
  }

  private static Field field(Class<?> owner, String name) {
    try {
      Field f = owner.getDeclaredField(name);
      f.setAccessible(true);
      return f;
    } catch (ReflectiveOperationException | RuntimeException e) {
      note((owner == null ? CONNECTION_IMPL : owner.getName()) + "." + name);
      return null;
    }
  }

  private static void note(String member) {
    synchronized (MISSING) {
      MISSING.add(member);
    }
  }
}
