package io.basaltdb.sql;

import io.basaltdb.sql.exec.ColumnValues;
import io.basaltdb.sql.rel.BatchWrite;
import java.lang.reflect.Field;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.PreparedStatement;
import java.util.Arrays;
import java.util.List;
import org.apache.calcite.avatica.AvaticaPreparedStatement;
import org.apache.calcite.avatica.remote.TypedValue;
import org.apache.calcite.jdbc.CalciteConnection;
import org.apache.calcite.jdbc.CalciteMetaImpl;
import org.apache.calcite.jdbc.CalcitePrepare;

/**
 * Prepared statements of a Basalt connection: Calcite's, with two additions.
 * <ul>
 *   <li>Every value bound to a parameter is checked against the parameter's type
 *       ({@link ColumnValues#checkParameter}) when it is set: Calcite's generated code would
 *       otherwise wrap a {@code long} into an {@code int} column or cut a long string.
 *   <li>{@code executeBatch} of a statement planned with a {@link BatchWrite} (a prepared
 *       {@code INSERT}/{@code UPSERT ... VALUES (?, ...)}) writes the whole batch at once instead
 *       of running Calcite's execution once per row. Update counts (1 per row), errors and the
 *       rows written before an error are the same either way; the batch is cleared afterwards
 *       in both.
 * </ul>
 *
 * <p>Calcite runs batches in {@code CalciteMetaImpl.executeBatch}, which cannot be overridden
 * from outside its package (its constructor takes a package-private type), so the plan and the
 * batch are read here from Avatica's statement, through its protected {@code getSignature()}
 * and {@code parameterValueBatch}; with another Avatica, batches run row by row.
 */
final class PreparedStatements {
  private static final Field BATCH;
  private static final Method SIGNATURE;

  static {
    Field batch = null;
    Method signature = null;
    try {
      batch = AvaticaPreparedStatement.class.getDeclaredField("parameterValueBatch");
      batch.setAccessible(true);
      signature = org.apache.calcite.avatica.AvaticaStatement.class
          .getDeclaredMethod("getSignature");
      signature.setAccessible(true);
    } catch (ReflectiveOperationException | RuntimeException e) {
      batch = null;
    }
    BATCH = batch;
    SIGNATURE = signature;
  }

  private PreparedStatements() {}

  static PreparedStatement wrap(PreparedStatement statement, CalciteConnection connection)
      throws java.sql.SQLException {
    if (!(statement instanceof AvaticaPreparedStatement aps)) {
      return statement;
    }
    int n = aps.getParameterCount();
    int[] types = new int[n];
    int[] precisions = new int[n];
    int[] scales = new int[n];
    String[] labels = new String[n]; // made once: a message per bound value costs a lot
    for (int i = 0; i < n; i++) {
      labels[i] = "parameter " + (i + 1);
      types[i] = aps.getParameterType(i + 1);
      precisions[i] = aps.getPrecision(i + 1);
      scales[i] = aps.getScale(i + 1);
    }
    BatchWrite batch = BATCH == null ? null : batchWrite(aps);
    return (PreparedStatement) Proxy.newProxyInstance(PreparedStatements.class.getClassLoader(),
        new Class<?>[] {PreparedStatement.class},
        new Handler(aps, connection, batch, types, precisions, scales, labels,
            io.basaltdb.sql.parser.LimitParameters.of(sql(aps))));
  }

  /** Whether {@code statement} writes its batches at once (for tests). */
  static boolean writesWholeBatches(PreparedStatement statement) {
    return Proxy.isProxyClass(statement.getClass())
        && Proxy.getInvocationHandler(statement) instanceof Handler h && h.batch != null;
  }

  private record Handler(AvaticaPreparedStatement statement, CalciteConnection connection,
      BatchWrite batch, int[] types, int[] precisions, int[] scales, String[] labels,
      io.basaltdb.sql.parser.LimitParameters limits) implements InvocationHandler {
    @Override
    public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
      String name = method.getName();
      int arity = method.getParameterCount();
      if (arity >= 2 && name.startsWith("set") && !name.equals("setNull")
          && method.getParameterTypes()[0] == int.class) {
        check((Integer) args[0], args[1]);
      } else if (batch != null && arity == 0 && name.equals("executeLargeBatch")) {
        return executeBatch(statement, connection, batch);
      } else if (batch != null && arity == 0 && name.equals("executeBatch")) {
        return Arrays.stream(executeBatch(statement, connection, batch))
            .mapToInt(c -> (int) c).toArray();
      }
      return Proxies.forward(method, statement, args);
    }

    private void check(int index, Object value) throws java.sql.SQLException {
      if (index >= 1 && index <= types.length) {
        try {
          ColumnValues.checkParameter(types[index - 1], precisions[index - 1],
              scales[index - 1], value, labels[index - 1]);
          limits.check(index, value);
        } catch (RuntimeException e) {
          throw SqlErrors.toSqlException(e);
        }
      }
    }
  }

  @SuppressWarnings("unchecked")
  private static long[] executeBatch(AvaticaPreparedStatement statement,
      CalciteConnection connection, BatchWrite write) throws java.sql.SQLException {
    List<List<TypedValue>> batch;
    try {
      batch = (List<List<TypedValue>>) BATCH.get(statement);
    } catch (IllegalAccessException e) {
      throw new IllegalStateException(e);
    }
    try {
      if (!batch.isEmpty()) {
        write.run(CalciteMetaImpl.createDataContext(connection), batch);
      }
      long[] counts = new long[batch.size()];
      Arrays.fill(counts, 1);
      return counts;
    } catch (RuntimeException e) {
      throw SqlErrors.toSqlException(e);
    } finally {
      statement.clearBatch();
    }
  }

  private static BatchWrite batchWrite(AvaticaPreparedStatement statement) {
    Object signature;
    try {
      signature = SIGNATURE.invoke(statement);
    } catch (ReflectiveOperationException e) {
      return null;
    }
    if (signature instanceof CalcitePrepare.CalciteSignature<?> s) {
      for (Object v : s.internalParameters.values()) {
        if (v instanceof BatchWrite b) {
          return b;
        }
      }
    }
    return null;
  }

  /** The statement's SQL text, or null when Avatica's signature cannot be read. */
  private static String sql(AvaticaPreparedStatement statement) {
    if (SIGNATURE == null) {
      return null;
    }
    try {
      return SIGNATURE.invoke(statement) instanceof org.apache.calcite.avatica.Meta.Signature s
          ? s.sql : null;
    } catch (ReflectiveOperationException e) {
      return null;
    }
  }
}
