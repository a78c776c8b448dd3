package io.basaltdb.sql;

/**
 * An error a user caused, carrying its standard SQLState (e.g. 22021 a string that is not
 * valid Unicode, 54001 a statement too complex, 2201W a negative LIMIT). The JDBC layer
 * reports it with this state wherever Calcite wrapped it.
 */
public class SqlStateException extends RuntimeException {
  private static final long serialVersionUID = 1L;
  private final String sqlState;

  public SqlStateException(String sqlState, String message) {
    super(message);
    this.sqlState = sqlState;
  }

  public SqlStateException(String sqlState, String message, Throwable cause) {
    super(message, cause);
    this.sqlState = sqlState;
  }

  public String sqlState() {
    return sqlState;
  }

  /** 54001: the statement nests too deeply for the planner's recursion. */
  public static SqlStateException tooComplex(String what) {
    return new SqlStateException(SqlStates.STATEMENT_TOO_COMPLEX, "statement too complex: " + what);
  }
}
