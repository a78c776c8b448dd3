package io.basaltdb.sql;

import io.basaltdb.engine.ClosedException;
import io.basaltdb.engine.CorruptionException;
import io.basaltdb.engine.InvalidArgumentException;
import io.basaltdb.engine.StorageIOException;
import io.basaltdb.engine.TableDisabledException;
import io.basaltdb.engine.TableNotFoundException;
import java.sql.SQLException;
import java.sql.SQLIntegrityConstraintViolationException;

/**
 * The SQLState of an error, found by walking its causes to the engine's or adapter's own
 * exception (Calcite wraps them): a duplicate key 23505, a missing table or schema 42P01, a
 * disabled table 55000, other bad input 22023 (or 42000 for a parse or validation error),
 * corruption XX001, storage failure 58030, a closed database 08003.
 */
public final class SqlErrors {
  private SqlErrors() {}

  public static String sqlState(Throwable t) {
    for (Throwable c = t; c != null; c = c.getCause()) {
      if (c instanceof BasaltSqlTable.DuplicateKeyException) {
        return "23505";
      }
      if (c instanceof TableNotFoundException) {
        return "42P01";
      }
      if (c instanceof TableDisabledException) {
        return "55000";
      }
      if (c instanceof InvalidArgumentException) {
        return "22023";
      }
      if (c instanceof CorruptionException) {
        return "XX001";
      }
      if (c instanceof StorageIOException) {
        return "58030";
      }
      if (c instanceof ClosedException) {
        return "08003";
      }
      if (c instanceof org.apache.calcite.sql.parser.SqlParseException
          || c instanceof org.apache.calcite.sql.validate.SqlValidatorException) {
        return "42000";
      }
    }
    return t instanceof SQLException s && s.getSQLState() != null ? s.getSQLState() : "XX000";
  }

  /** A SQLException carrying the right SQLState and the most specific message. */
  public static SQLException toSqlException(Throwable t) {
    String state = sqlState(t);
    String message = t.getMessage();
    for (Throwable c = t; c != null; c = c.getCause()) {
      if (c instanceof io.basaltdb.engine.BasaltException) {
        message = c.getMessage();
        break;
      }
    }
    return state.equals("23505") ? new SQLIntegrityConstraintViolationException(message, state, t)
        : new SQLException(message, state, t);
  }
}
