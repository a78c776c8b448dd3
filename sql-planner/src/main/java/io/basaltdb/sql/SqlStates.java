package io.basaltdb.sql;

/**
 * Every SQLState Basalt's SQL layer and driver raise, named once (the SQL standard's classes,
 * PostgreSQL's codes where the standard has none); {@code jdbc-driver/doc/sqlstates.md} says
 * what raises each, and a test keeps the two and the sources in step (no state is written as a
 * literal anywhere else). An error a user caused is a {@link SqlStateException} carrying one of
 * these.
 */
public final class SqlStates {
  private SqlStates() {}

  /** 08001: cannot connect (a bad URL, a database that cannot be opened). */
  public static final String UNABLE_TO_CONNECT = "08001";
  /** 08003: the connection or database is closed. */
  public static final String CONNECTION_DOES_NOT_EXIST = "08003";
  /** 08006: the connection failed (over HBase: a region not serving, retries exhausted). */
  public static final String CONNECTION_FAILURE = "08006";
  /** 07009: a parameter or column index the statement does not have. */
  public static final String INVALID_DESCRIPTOR_INDEX = "07009";
  /** 0A000: a feature Basalt does not have. */
  public static final String FEATURE_NOT_SUPPORTED = "0A000";
  /** 22001: a string or binary value longer than its column. */
  public static final String STRING_TOO_LONG = "22001";
  /** 22003: a number outside its type's range or past its scale. */
  public static final String NUMERIC_OUT_OF_RANGE = "22003";
  /** 22007: a string that is no date or time where one is needed. */
  public static final String INVALID_DATETIME_FORMAT = "22007";
  /** 22008: a date or time with a field out of range. */
  public static final String DATETIME_FIELD_OVERFLOW = "22008";
  /** 22012: division by zero. */
  public static final String DIVISION_BY_ZERO = "22012";
  /** 22018: a string that is no number where one is needed. */
  public static final String INVALID_CHARACTER_VALUE_FOR_CAST = "22018";
  /** 22021: a string that is not valid Unicode. */
  public static final String CHARACTER_NOT_IN_REPERTOIRE = "22021";
  /** 22019: a LIKE escape that is not one character. */
  public static final String INVALID_ESCAPE_CHARACTER = "22019";
  /** 22025: a LIKE pattern whose escape is followed by no wildcard or escape. */
  public static final String INVALID_ESCAPE_SEQUENCE = "22025";
  /** 2201W: a negative LIMIT or FETCH. */
  public static final String INVALID_LIMIT = "2201W";
  /** 2201X: a negative OFFSET. */
  public static final String INVALID_OFFSET = "2201X";
  /** 22023: a bad option, property or argument value. */
  public static final String INVALID_PARAMETER_VALUE = "22023";
  /** 23502: NULL for a NOT NULL column. */
  public static final String NOT_NULL_VIOLATION = "23502";
  /** 23503: a child row without its parent, or a parent row deleted from under its children. */
  public static final String FOREIGN_KEY_VIOLATION = "23503";
  /** 23505: a key or unique value that exists. */
  public static final String UNIQUE_VIOLATION = "23505";
  /** 23514: a row for which a CHECK is false. */
  public static final String CHECK_VIOLATION = "23514";
  /** 25006: a write on a read-only connection or database. */
  public static final String READ_ONLY_TRANSACTION = "25006";
  /** 2BP01: a drop refused because another object depends on what it drops. */
  public static final String DEPENDENT_OBJECTS_STILL_EXIST = "2BP01";
  /** 3B001: a savepoint that is not open. */
  public static final String INVALID_SAVEPOINT = "3B001";
  /** 40001: a transaction that lost to a concurrent writer (run it again). */
  public static final String SERIALIZATION_FAILURE = "40001";
  /** 42000: a statement that does not parse or validate. */
  public static final String SYNTAX_ERROR = "42000";
  /** 42501: a write or DDL by a client that may only read. */
  public static final String INSUFFICIENT_PRIVILEGE = "42501";
  /** 42704: a constraint (or other object) that does not exist. */
  public static final String UNDEFINED_OBJECT = "42704";
  /** 42804: types that do not match where they must (a foreign key and its parent's key). */
  public static final String DATATYPE_MISMATCH = "42804";
  /** 428C9: a value written into a column GENERATED ALWAYS. */
  public static final String GENERATED_ALWAYS = "428C9";
  /** 42830: a foreign key whose columns do not match its parent's primary key. */
  public static final String INVALID_FOREIGN_KEY = "42830";
  /** 42703: a column that does not exist. */
  public static final String UNDEFINED_COLUMN = "42703";
  /** 42P01: a table, schema, view or sequence that does not exist. */
  public static final String UNDEFINED_TABLE = "42P01";
  /** 42P07: a schema, table, view, sequence or index that exists already. */
  public static final String DUPLICATE_OBJECT = "42P07";
  /** 42S12: an index its table does not have. */
  public static final String INDEX_NOT_FOUND = "42S12";
  /** 53100: the disk is full. */
  public static final String DISK_FULL = "53100";
  /** 53200: a statement or transaction past its memory budget. */
  public static final String OUT_OF_MEMORY = "53200";
  /** 53300: a server client past its connection limit. */
  public static final String TOO_MANY_CONNECTIONS = "53300";
  /** 53400: a server client past another of its limits. */
  public static final String CONFIGURATION_LIMIT_EXCEEDED = "53400";
  /** 54001: a statement nesting too deeply to plan. */
  public static final String STATEMENT_TOO_COMPLEX = "54001";
  /** 55000: an object not in the state the statement needs (a disabled table, a changed index). */
  public static final String OBJECT_NOT_IN_PREREQUISITE_STATE = "55000";
  /** 57014: a statement cancelled or past its timeout. */
  public static final String QUERY_CANCELED = "57014";
  /** 58030: the disk or cluster refused a read or write. */
  public static final String IO_ERROR = "58030";
  /** HY024: an attribute value out of range (a JDBC call's argument). */
  public static final String INVALID_ATTRIBUTE_VALUE = "HY024";
  /** XX000: an internal error (a bug to report). */
  public static final String INTERNAL_ERROR = "XX000";
  /** XX001: damaged data (the message names the file and offset). */
  public static final String DATA_CORRUPTED = "XX001";
}
