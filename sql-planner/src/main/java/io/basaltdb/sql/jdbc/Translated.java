package io.basaltdb.sql.jdbc;

import java.sql.SQLException;

/**
 * Runs a JDBC call and reports its failure with Basalt's SQLState and message
 * ({@link SqlErrors}): what the Basalt JDBC classes wrap around Avatica's methods.
 */
final class Translated {
  private Translated() {}

  /** A JDBC call. */
  @FunctionalInterface
  interface Call<T> {
    T run() throws SQLException;
  }

  /** A JDBC call without a result. */
  @FunctionalInterface
  interface Action {
    void run() throws SQLException;
  }

  static <T> T call(Call<T> call) throws SQLException {
    try {
      return call.run();
    } catch (SQLException | RuntimeException | StackOverflowError | OutOfMemoryError
        | ExceptionInInitializerError | NoClassDefFoundError e) {
      throw SqlErrors.toSqlException(e);
    }
  }

  static void run(Action action) throws SQLException {
    try {
      action.run();
    } catch (SQLException | RuntimeException | StackOverflowError | OutOfMemoryError
        | ExceptionInInitializerError | NoClassDefFoundError e) {
      throw SqlErrors.toSqlException(e);
    }
  }
}
