package io.basaltdb.sql.jdbc;

import io.basaltdb.sql.SqlStates;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.util.TimeZone;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.calcite.avatica.AvaticaResultSet;
import org.apache.calcite.avatica.AvaticaStatement;
import org.apache.calcite.avatica.Meta;
import org.apache.calcite.avatica.QueryState;

/**
 * A Basalt result set: Avatica's over the rows {@link BasaltMeta#createIterable} enumerates,
 * with errors met while reading rows (a scan's storage error, a failed cast) reported as
 * {@link SQLException}s carrying Basalt's SQLStates instead of escaping unchecked.
 */
final class BasaltResultSet extends AvaticaResultSet {
  private AtomicBoolean cancelFlag; // the statement's, found at the first row
  BasaltResultSet(AvaticaStatement statement, QueryState state, Meta.Signature signature,
      ResultSetMetaData metaData, TimeZone timeZone, Meta.Frame firstFrame)
      throws SQLException {
    super(statement, state, signature, metaData, timeZone, firstFrame);
  }

  /** Reads the next row; after {@code Statement.cancel()}, 57014 (query cancelled). */
  @Override
  public boolean next() throws SQLException {
    if (cancelFlag == null) {
      cancelFlag = cancelFlag();
    }
    SQLException error;
    try {
      if (!cancelFlag.get()) {
        return super.next(); // no lambda: this runs once per row
      }
      error = new SQLException("statement cancelled", SqlStates.QUERY_CANCELED);
    } catch (SQLException | RuntimeException | StackOverflowError | OutOfMemoryError
        | ExceptionInInitializerError | NoClassDefFoundError e) {
      error = SqlErrors.toSqlException(e);
    }
    throw statement instanceof TimedStatement t ? t.rowError(error) : error;
  }

  private AtomicBoolean cancelFlag() {
    try {
      if (statement != null && statement.connection instanceof BasaltConnection c) {
        return c.getCancelFlag(statement.handle);
      }
    } catch (org.apache.calcite.avatica.NoSuchStatementException e) {
      // a statement Calcite no longer knows: nothing can cancel it
    }
    return new AtomicBoolean();
  }
}
