package io.basaltdb.sql.jdbc;

import io.basaltdb.sql.SqlStates;
import java.sql.SQLFeatureNotSupportedException;

/**
 * The error of a JDBC method Basalt does not support: a
 * {@link SQLFeatureNotSupportedException} naming the method, SQLState 0A000 (Avatica throws
 * one with neither, which tells a user nothing).
 */
final class Unsupported {
  private Unsupported() {}

  /** {@code name}: interface and method, {@code ResultSet.updateInt}. */
  static SQLFeatureNotSupportedException method(String name) {
    return new SQLFeatureNotSupportedException(name + " is not supported by Basalt",
        SqlStates.FEATURE_NOT_SUPPORTED);
  }
}
