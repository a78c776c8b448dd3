package io.basaltdb.sql.jdbc;

import java.sql.SQLException;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A Basalt statement, whose result sets report a timed-out execution as a timeout and read its
 * cancel flag at each row.
 */
interface TimedStatement {
  /** {@code e}, met while reading the statement's rows, as the statement reports it. */
  SQLException rowError(SQLException e);

  /** The statement's cancel flag (one per statement: Avatica's, not looked up per execution). */
  AtomicBoolean cancelFlag();

  /** {@code s}'s cancel flag as its connection holds it (a fresh one if it holds none). */
  static AtomicBoolean lookUp(org.apache.calcite.avatica.AvaticaStatement s) {
    try {
      if (s.connection instanceof BasaltConnection c) {
        return c.getCancelFlag(s.handle);
      }
    } catch (org.apache.calcite.avatica.NoSuchStatementException e) {
      // a statement Calcite no longer knows: nothing can cancel it
    }
    return new AtomicBoolean();
  }
}
