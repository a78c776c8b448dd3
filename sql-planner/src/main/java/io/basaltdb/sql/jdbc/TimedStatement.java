package io.basaltdb.sql.jdbc;

import java.sql.SQLException;

/** A Basalt statement, whose result sets report a timed-out execution as a timeout. */
interface TimedStatement {
  /** {@code e}, met while reading the statement's rows, as the statement reports it. */
  SQLException rowError(SQLException e);
}
