package io.basaltdb.sql.jdbc;

import io.basaltdb.sql.SqlStates;
import io.basaltdb.storage.ClosedException;
import io.basaltdb.storage.CorruptionException;
import io.basaltdb.storage.InvalidArgumentException;
import io.basaltdb.storage.StorageIOException;
import io.basaltdb.storage.TableDisabledException;
import io.basaltdb.storage.TableNotFoundException;
import io.basaltdb.sql.SqlStateException;
import java.sql.SQLException;
import java.sql.SQLIntegrityConstraintViolationException;
import java.util.List;
import java.util.Map;

/**
 * The SQLState of an error, found by walking its causes (Calcite wraps them). The SQL layer's
 * own errors are {@link SqlStateException}s carrying their state (a duplicate key 23505, a
 * schema, table, view or sequence that exists already 42P07, a value out of range 22003 or
 * longer than its type 22001, a string that is no number 22018, a write on a read-only connection
 * 25006, a cancelled statement 57014, ...); a stack overflow while planning is 54001
 * (statement too complex). The engine knows nothing of SQL, so its exceptions are mapped here:
 * a missing table 42P01, a disabled table 55000, other bad input 22023, corruption XX001,
 * storage failure 58030 (a full disk 53100; every write after a log failure 25006: the database
 * is read-only until reopened), a closed database 08003; and Calcite's: an overflow 22003 (exact
 * arithmetic is checked), a division by zero 22012, a date or time it cannot read 22007 (a
 * field out of range 22008), a string
 * that is no number cast to one 22018, an unsupported operation 0A000, a parse or validation
 * error 42000.
 */
public final class SqlErrors {
  private SqlErrors() {}

  /** Error classes and their states, most specific first (subclasses before their parents). */
  private static final List<Map.Entry<Class<?>, String>> STATES = List.of(
      // Calcite's own overflow checks; a string cast to a number
      Map.entry(ArithmeticException.class, SqlStates.NUMERIC_OUT_OF_RANGE),
      Map.entry(NumberFormatException.class, SqlStates.INVALID_CHARACTER_VALUE_FOR_CAST),
      Map.entry(UnsupportedOperationException.class, SqlStates.FEATURE_NOT_SUPPORTED),
      Map.entry(TableNotFoundException.class, SqlStates.UNDEFINED_TABLE),
      Map.entry(io.basaltdb.storage.WriteConflictException.class, SqlStates.SERIALIZATION_FAILURE),
      Map.entry(io.basaltdb.storage.TransactionTooLargeException.class, SqlStates.OUT_OF_MEMORY),
      Map.entry(TableDisabledException.class, SqlStates.OBJECT_NOT_IN_PREREQUISITE_STATE),
      Map.entry(InvalidArgumentException.class, SqlStates.INVALID_PARAMETER_VALUE),
      Map.entry(CorruptionException.class, SqlStates.DATA_CORRUPTED),
      Map.entry(StorageIOException.class, SqlStates.IO_ERROR),
      Map.entry(io.basaltdb.storage.StorageUnavailableException.class,
          SqlStates.CONNECTION_FAILURE),
      Map.entry(ClosedException.class, SqlStates.CONNECTION_DOES_NOT_EXIST),
      Map.entry(org.apache.calcite.sql.parser.SqlParseException.class, SqlStates.SYNTAX_ERROR),
      Map.entry(org.apache.calcite.sql.validate.SqlValidatorException.class,
          SqlStates.SYNTAX_ERROR));

  public static String sqlState(Throwable t) {
    String initializer = failedInitializer(t);
    if (initializer != null) {
      String datetime = datetimeState(initializer);
      return datetime != null ? datetime
          : initializer.contains("by zero") ? SqlStates.DIVISION_BY_ZERO
          : initializer.contains("ArithmeticException") ? SqlStates.NUMERIC_OUT_OF_RANGE
          : initializer.contains("NumberFormatException")
              || initializer.contains("Invalid UUID string")
              ? SqlStates.INVALID_CHARACTER_VALUE_FOR_CAST : SqlStates.INTERNAL_ERROR;
    }
    for (Throwable c = t; c != null; c = c.getCause()) {
      String datetime = (c instanceof IllegalArgumentException
          || c instanceof org.apache.calcite.runtime.CalciteException) && c.getMessage() != null
          ? datetimeState(c.getMessage()) : null;
      if (datetime != null) {
        return datetime;
      }
      if (c instanceof RuntimeException && c.getMessage() != null
          && c.getMessage().startsWith("Invalid escape ")) { // Calcite's Like
        return c.getMessage().startsWith("Invalid escape character")
            ? SqlStates.INVALID_ESCAPE_CHARACTER : SqlStates.INVALID_ESCAPE_SEQUENCE;
      }
      if (c instanceof IllegalArgumentException && c.getMessage() != null
          && c.getMessage().startsWith("Invalid UUID string")) { // java.util.UUID.fromString
        return SqlStates.INVALID_CHARACTER_VALUE_FOR_CAST;
      }
      if (c instanceof ArithmeticException a && a.getMessage() != null
          && (a.getMessage().contains("by zero")
              || a.getMessage().startsWith("Division undefined"))) {
        return SqlStates.DIVISION_BY_ZERO;
      }
      if (c instanceof SqlStateException s) {
        return s.sqlState();
      }
      if (c instanceof org.apache.calcite.sql.validate.SqlValidatorException v
          && v.getMessage() != null && v.getMessage().contains("does not allow NULLs")) {
        // Calcite's validator: an INSERT leaving a NOT NULL column without value
        return SqlStates.NOT_NULL_VIOLATION;
      }
      if (c instanceof StackOverflowError) {
        return SqlStates.STATEMENT_TOO_COMPLEX;
      }
      if (c instanceof io.basaltdb.storage.DatabaseReadOnlyException) {
        // before its cause, which may be the full disk of an earlier write
        return SqlStates.READ_ONLY_TRANSACTION;
      }
      if (c instanceof java.io.IOException && c.getMessage() != null
          && c.getMessage().contains("No space left on device")) {
        return SqlStates.DISK_FULL; // ENOSPC as the JDK reports it; the write that hit it failed
      }
      if (c instanceof OutOfMemoryError) {
        // the last resort: statements keep within queryMemory (QueryGuard)
        return SqlStates.OUT_OF_MEMORY;
      }
    }
    for (Throwable c = t; c != null; c = c.getCause()) {
      for (Map.Entry<Class<?>, String> e : STATES) {
        if (e.getKey().isInstance(c)) {
          return e.getValue();
        }
      }
    }
    return t instanceof SQLException s && s.getSQLState() != null ? s.getSQLState()
        : SqlStates.INTERNAL_ERROR;
  }

  /**
   * 22007 (invalid datetime format) or 22008 (datetime field out of range) for Calcite's
   * messages about a date, time or timestamp it could not read; else null.
   */
  static String datetimeState(String message) {
    if (message.matches("(?s).*Value of \\w+ field is out of range.*")) {
      return SqlStates.DATETIME_FIELD_OVERFLOW;
    }
    if (message.matches("(?s).*(Invalid (DATE|TIME|TIMESTAMP)\\w* value"
        + "|Illegal (DATE|TIME|TIMESTAMP)\\w* literal).*")) {
      return SqlStates.INVALID_DATETIME_FORMAT;
    }
    return null;
  }

  /**
   * What failed in the static initializer of generated code, or null: Calcite hoists constant
   * expressions there, so {@code 9223372036854775807 + 1} or {@code 1 / 0} fails as an
   * {@link ExceptionInInitializerError}, and a later run of the same cached code as a
   * {@link NoClassDefFoundError} whose cause names the first failure.
   */
  private static String failedInitializer(Throwable t) {
    for (Throwable c = t; c != null; c = c.getCause()) {
      if (c instanceof ExceptionInInitializerError e) {
        Throwable x = e.getException();
        return x != null ? x.getClass().getName() + ": " + x.getMessage() : String.valueOf(
            e.getMessage());
      }
    }
    return null;
  }

  private static String describe(String state) {
    return switch (state) {
      case SqlStates.DIVISION_BY_ZERO -> "division by zero";
      case SqlStates.NUMERIC_OUT_OF_RANGE -> "numeric value out of range";
      case SqlStates.INVALID_DATETIME_FORMAT -> "invalid datetime format";
      case SqlStates.DATETIME_FIELD_OVERFLOW -> "datetime field out of range";
      default -> "a constant expression failed";
    };
  }

  /** A SQLException carrying the right SQLState and the most specific message. */
  public static SQLException toSqlException(Throwable t) {
    String state = sqlState(t);
    String message = t.getMessage();
    String initializer = failedInitializer(t);
    if (initializer != null) {
      message = describe(state) + " (" + initializer.replaceFirst(" \\[in thread .*\\]$", "")
          + ")";
    }
    for (Throwable c = t; c != null && initializer == null; c = c.getCause()) {
      if (c instanceof io.basaltdb.storage.BasaltException || c instanceof SqlStateException) {
        message = c.getMessage();
        break;
      }
      if (c instanceof StackOverflowError) {
        message = SqlStateException.tooComplex("it nests too deeply to plan").getMessage();
        break;
      }
      if (c instanceof OutOfMemoryError) {
        message = "out of memory while running the statement (" + c.getMessage() + "); it was"
            + " stopped, the database goes on: lower queryMemory so that such a statement fails"
            + " before the heap is full";
        break;
      }
      if (c instanceof ArithmeticException) {
        message = describe(state) + " (" + c.getMessage() + ")";
        break;
      }
      if ((state.equals(SqlStates.INVALID_DATETIME_FORMAT)
          || state.equals(SqlStates.DATETIME_FIELD_OVERFLOW)) && c.getMessage() != null
          && datetimeState(c.getMessage()) != null) {
        // the innermost cause that says what was wrong (wrappers repeat it with the statement)
        message = describe(state) + " (" + c.getMessage().replaceFirst("^From line \\d+, column "
            + "\\d+ to line \\d+, column \\d+: ", "") + ")";
      }
      if (c instanceof NumberFormatException) {
        message = "invalid character value for a number: " + c.getMessage();
        break;
      }
    }
    return state.equals(SqlStates.UNIQUE_VIOLATION)
        ? new SQLIntegrityConstraintViolationException(message, state, t)
        : new SQLException(message, state, t);
  }
}
