package io.basaltdb.sql.jdbc;

import java.sql.ResultSet;
import java.sql.SQLException;
import org.apache.calcite.avatica.AvaticaConnection;
import org.apache.calcite.avatica.AvaticaStatement;
import org.apache.calcite.avatica.Meta;

/** A Basalt statement: Avatica's, with errors carrying Basalt's SQLStates ({@link Translated}). */
final class BasaltStatement extends AvaticaStatement {
  BasaltStatement(AvaticaConnection connection, Meta.StatementHandle h, int resultSetType,
      int resultSetConcurrency, int resultSetHoldability) {
    super(connection, h, resultSetType, resultSetConcurrency, resultSetHoldability);
  }

  @Override
  public boolean execute(String sql) throws SQLException {
    cancelFlag.set(false); // a cancel() ended the previous execution
    return Translated.call(() -> super.execute(sql));
  }

  @Override
  public ResultSet executeQuery(String sql) throws SQLException {
    cancelFlag.set(false); // a cancel() ended the previous execution
    return Translated.call(() -> super.executeQuery(sql));
  }

  @Override
  public long executeLargeUpdate(String sql) throws SQLException {
    cancelFlag.set(false); // a cancel() ended the previous execution
    return Translated.call(() -> super.executeLargeUpdate(sql));
  }

  @Override
  public long[] executeLargeBatch() throws SQLException {
    cancelFlag.set(false); // a cancel() ended the previous execution
    return Translated.call(() -> super.executeLargeBatch());
  }
}
