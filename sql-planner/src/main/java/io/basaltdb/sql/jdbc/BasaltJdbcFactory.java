package io.basaltdb.sql.jdbc;

import java.sql.SQLException;
import org.apache.calcite.avatica.AvaticaConnection;
import org.apache.calcite.avatica.AvaticaPreparedStatement;
import org.apache.calcite.avatica.Meta;
import org.apache.calcite.jdbc.CalciteConnection;
import org.apache.calcite.jdbc.CalciteJdbc41Factory;

/**
 * Calcite's JDBC objects with one Basalt step: every prepared statement is made known to the
 * connection's {@link BasaltMeta} with its plan, so that {@code executeBatch} finds it.
 */
public final class BasaltJdbcFactory extends CalciteJdbc41Factory {
  @Override
  public AvaticaPreparedStatement newPreparedStatement(AvaticaConnection connection,
      Meta.StatementHandle h, Meta.Signature signature, int resultSetType,
      int resultSetConcurrency, int resultSetHoldability) throws SQLException {
    AvaticaPreparedStatement statement = super.newPreparedStatement(connection, h, signature,
        resultSetType, resultSetConcurrency, resultSetHoldability);
    BasaltMeta meta = BasaltMeta.of((CalciteConnection) connection);
    if (meta != null) {
      meta.prepared(statement.handle, signature);
    }
    return statement;
  }
}
