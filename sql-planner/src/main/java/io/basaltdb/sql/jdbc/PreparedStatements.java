package io.basaltdb.sql.jdbc;

import io.basaltdb.sql.SqlErrors;
import io.basaltdb.sql.exec.ColumnValues;
import io.basaltdb.sql.parser.LimitParameters;
import java.lang.reflect.Method;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.Optional;
import org.apache.calcite.avatica.AvaticaPreparedStatement;
import org.apache.calcite.jdbc.CalciteConnection;

/**
 * Prepared statements of a Basalt connection: Calcite's, whose every bound value is checked
 * against its parameter's type when it is set ({@link ColumnValues#checkParameter}; Calcite's
 * generated code would otherwise wrap a {@code long} into an {@code int} column or cut a long
 * string), and a LIMIT/OFFSET parameter against its sign ({@link LimitParameters}). Batches
 * reach {@link BasaltMeta#executeBatch} through Avatica.
 */
public final class PreparedStatements {
  private PreparedStatements() {}

  static PreparedStatement wrap(PreparedStatement statement, CalciteConnection connection)
      throws SQLException {
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
    BasaltMeta.Prepared prepared = BasaltMeta.of(connection).prepared(aps.handle.id);
    LimitParameters limits = prepared == null ? LimitParameters.NONE : prepared.limits();
    return JdbcProxies.wrap(statement, PreparedStatement.class,
        (method, args) -> check(method, args, types, precisions, scales, labels, limits));
  }

  private static Optional<Object> check(Method method, Object[] args, int[] types,
      int[] precisions, int[] scales, String[] labels, LimitParameters limits)
      throws SQLException {
    if (method.getParameterCount() >= 2 && method.getName().startsWith("set")
        && !method.getName().equals("setNull") && method.getParameterTypes()[0] == int.class) {
      int index = (Integer) args[0];
      if (index >= 1 && index <= types.length) {
        try {
          ColumnValues.checkParameter(types[index - 1], precisions[index - 1],
              scales[index - 1], args[1], labels[index - 1]);
          limits.check(index, args[1]);
        } catch (RuntimeException e) {
          throw SqlErrors.toSqlException(e);
        }
      }
    }
    return Optional.empty();
  }

  /** Whether {@code statement} writes its batches at once (for tests). */
  public static boolean writesWholeBatches(PreparedStatement statement) throws SQLException {
    AvaticaPreparedStatement aps = statement.unwrap(AvaticaPreparedStatement.class);
    BasaltMeta.Prepared prepared =
        BasaltMeta.of((CalciteConnection) aps.connection).prepared(aps.handle.id);
    return prepared != null && prepared.batch() != null;
  }
}
