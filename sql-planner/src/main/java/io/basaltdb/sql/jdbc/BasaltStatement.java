package io.basaltdb.sql.jdbc;

import java.sql.ResultSet;
import java.sql.SQLException;
import org.apache.calcite.avatica.AvaticaConnection;
import org.apache.calcite.avatica.AvaticaStatement;
import org.apache.calcite.avatica.Meta;

/** A Basalt statement: Avatica's, with errors carrying Basalt's SQLStates ({@link Translated}). */
final class BasaltStatement extends AvaticaStatement
    implements TimedStatement {
  private final QueryTimer timer =
      new QueryTimer(cancelFlag, ((BasaltConnection) connection).storage());

  BasaltStatement(AvaticaConnection connection, Meta.StatementHandle h, int resultSetType,
      int resultSetConcurrency, int resultSetHoldability) {
    super(connection, h, resultSetType, resultSetConcurrency, resultSetHoldability);
  }

  @Override
  public boolean execute(String sql) throws SQLException {
    return timer.run(getQueryTimeout(), () -> super.execute(sql));
  }

  @Override
  public ResultSet executeQuery(String sql) throws SQLException {
    return timer.run(getQueryTimeout(), () -> super.executeQuery(sql));
  }

  @Override
  public long executeLargeUpdate(String sql) throws SQLException {
    return timer.run(getQueryTimeout(), () -> super.executeLargeUpdate(sql));
  }

  @Override
  public long[] executeLargeBatch() throws SQLException {
    return timer.run(getQueryTimeout(), () -> super.executeLargeBatch());
  }

  @Override
  public SQLException rowError(SQLException e) {
    return timer.translate(e);
  }

  @Override
  public synchronized void close() throws SQLException {
    timer.disarm();
    super.close();
  }
}
