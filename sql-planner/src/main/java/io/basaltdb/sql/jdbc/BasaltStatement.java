package io.basaltdb.sql.jdbc;

import java.sql.ResultSet;
import java.sql.SQLException;
import org.apache.calcite.avatica.AvaticaConnection;
import org.apache.calcite.avatica.AvaticaStatement;
import org.apache.calcite.avatica.Meta;

/** A Basalt statement: Avatica's, with errors carrying Basalt's SQLStates ({@link Translated}). */
final class BasaltStatement extends AvaticaStatement
    implements TimedStatement {
  private final QueryTimer timer = new QueryTimer(cancelFlag);

  BasaltStatement(AvaticaConnection connection, Meta.StatementHandle h, int resultSetType,
      int resultSetConcurrency, int resultSetHoldability) {
    super(connection, h, resultSetType, resultSetConcurrency, resultSetHoldability);
  }

  @Override
  public boolean execute(String sql) throws SQLException {
    timer.start(getQueryTimeout());
    return timed(() -> super.execute(sql));
  }

  @Override
  public ResultSet executeQuery(String sql) throws SQLException {
    timer.start(getQueryTimeout());
    return timed(() -> super.executeQuery(sql));
  }

  @Override
  public long executeLargeUpdate(String sql) throws SQLException {
    timer.start(getQueryTimeout());
    return timed(() -> super.executeLargeUpdate(sql));
  }

  @Override
  public long[] executeLargeBatch() throws SQLException {
    timer.start(getQueryTimeout());
    return timed(() -> super.executeLargeBatch());
  }

  /** Runs an execution; its errors carry Basalt's SQLStates, a timeout's is a timeout. */
  private <T> T timed(Translated.Call<T> call) throws SQLException {
    try {
      return Translated.call(call);
    } catch (SQLException e) {
      throw timer.translate(e);
    }
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
