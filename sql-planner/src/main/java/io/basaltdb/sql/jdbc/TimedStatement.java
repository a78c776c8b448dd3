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
}
