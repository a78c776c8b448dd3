package io.basaltdb.sql.jdbc;

import io.basaltdb.sql.SqlStates;
import java.math.BigDecimal;
import java.sql.Date;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Time;
import java.sql.Timestamp;
import java.util.Calendar;
import java.util.List;
import org.apache.calcite.avatica.AvaticaConnection;
import org.apache.calcite.avatica.AvaticaPreparedStatement;
import org.apache.calcite.avatica.ColumnMetaData;
import org.apache.calcite.avatica.Meta;
import org.apache.calcite.avatica.remote.TypedValue;

/**
 * A Basalt prepared statement: Avatica's, with every bound value checked as it is set
 * ({@link ParameterChecks}: 22001, 22003, 2201W, ...), and errors carrying Basalt's SQLStates.
 * Batches go to {@link BasaltMeta#executeBatch}.
 */
public final class BasaltPreparedStatement extends AvaticaPreparedStatement
    implements TimedStatement {
  private final QueryTimer timer =
      new QueryTimer(cancelFlag, ((BasaltConnection) connection).storage());

  private final ParameterChecks checks;
  /** Its executions' result sets, copied from a pristine one (the factory's). */
  final ResultSetCopies resultSets = new ResultSetCopies();

  BasaltPreparedStatement(AvaticaConnection connection, Meta.StatementHandle h,
      Meta.Signature signature, int resultSetType, int resultSetConcurrency,
      int resultSetHoldability) throws SQLException {
    super(connection, h, signature, resultSetType, resultSetConcurrency, resultSetHoldability);
    checks = ((BasaltConnection) connection).parameterChecks(signature);
  }

  /**
   * Before each execution: the keys of the last one are forgotten, and the statement is
   * planned again if DDL moved the catalog since ({@link BasaltMeta#beforeExecution}).
   */
  private void beforeExecution() throws SQLException {
    BasaltMeta meta = ((BasaltConnection) connection).basaltMeta();
    Meta.Signature replanned = Translated.call(() -> {
      try {
        return meta.beforeExecution(handle, getSignature());
      } catch (org.apache.calcite.avatica.NoSuchStatementException e) {
        throw new SQLException("statement " + handle.id + " is gone from its connection",
            io.basaltdb.sql.SqlStates.INTERNAL_ERROR, e);
      }
    });
    if (replanned != null) {
      setSignature(replanned);
    }
  }

  /** The values bound now, in parameter order (for {@link BasaltMeta#createIterable}). */
  List<org.apache.calcite.avatica.remote.TypedValue> boundValues() {
    return getParameterValues();
  }

  /** The statement's signature (for {@link BasaltMeta#execute}). */
  Meta.Signature signature() {
    return getSignature();
  }

  /** Whether this statement writes its batches at once (for tests). */
  public boolean writesWholeBatches() {
    return ((BasaltConnection) connection).basaltMeta().batchWrite(handle.id) != null;
  }

  /** The statement open (else 55000: Avatica's error has no SQLState), the index and value. */
  private void check(int index, Object value) throws SQLException {
    if (isClosed()) {
      throw new SQLException("the statement is closed: parameter " + index + " cannot be set",
          SqlStates.OBJECT_NOT_IN_PREREQUISITE_STATE);
    }
    checks.check(index, value);
  }

  @Override
  public void setBoolean(int index, boolean x) throws SQLException {
    check(index, x);
    super.setBoolean(index, x);
  }

  @Override
  public void setByte(int index, byte x) throws SQLException {
    check(index, x);
    super.setByte(index, x);
  }

  @Override
  public void setShort(int index, short x) throws SQLException {
    check(index, x);
    super.setShort(index, x);
  }

  @Override
  public void setInt(int index, int x) throws SQLException {
    check(index, x);
    bind(index, ColumnMetaData.Rep.INTEGER, x);
  }

  @Override
  public void setLong(int index, long x) throws SQLException {
    check(index, x);
    bind(index, ColumnMetaData.Rep.LONG, x);
  }

  /**
   * Binds a value as Avatica's own setter would, without the site object and the statement's
   * calendar (taken under its lock) that setter makes per call; {@link #check} has checked the
   * statement open and the index one of its parameters.
   */
  private void bind(int index, ColumnMetaData.Rep rep, Object x) {
    slots[index - 1] = TypedValue.ofJdbc(rep, x, null);
  }

  @Override
  public void setFloat(int index, float x) throws SQLException {
    check(index, x);
    super.setFloat(index, x);
  }

  @Override
  public void setDouble(int index, double x) throws SQLException {
    check(index, x);
    super.setDouble(index, x);
  }

  @Override
  public void setBigDecimal(int index, BigDecimal x) throws SQLException {
    check(index, x);
    super.setBigDecimal(index, x);
  }

  @Override
  public void setString(int index, String x) throws SQLException {
    if ((checks.isUuid(index) || checks.type(index) == java.sql.Types.TIMESTAMP_WITH_TIMEZONE)
        && boundConverted(index, x, checks.type(index))) {
      return; // text for an instant or a UUID
    }
    check(index, x);
    super.setString(index, x);
  }

  @Override
  public void setNString(int index, String x) throws SQLException {
    check(index, x);
    super.setNString(index, x);
  }

  @Override
  public void setBytes(int index, byte[] x) throws SQLException {
    check(index, x);
    super.setBytes(index, x);
  }

  @Override
  public void setDate(int index, Date x) throws SQLException {
    check(index, x);
    if (x != null) {
      bindInZone(index, x, java.sql.Types.DATE, ((BasaltConnection) connection).zoneId());
      return;
    }
    super.setDate(index, x);
  }

  @Override
  public void setDate(int index, Date x, Calendar calendar) throws SQLException {
    check(index, x);
    if (x != null) {
      bindInZone(index, x, java.sql.Types.DATE, zoneOf(calendar));
      return;
    }
    super.setDate(index, x, calendar);
  }

  @Override
  public void setTime(int index, Time x) throws SQLException {
    check(index, x);
    super.setTime(index, x);
  }

  @Override
  public void setTime(int index, Time x, Calendar calendar) throws SQLException {
    check(index, x);
    super.setTime(index, x, calendar);
  }

  @Override
  public void setTimestamp(int index, Timestamp x) throws SQLException {
    if (checks.type(index) == java.sql.Types.TIMESTAMP_WITH_TIMEZONE) {
      boundConverted(index, x, java.sql.Types.TIMESTAMP_WITH_TIMEZONE); // the instant as it is
      return;
    }
    check(index, x);
    if (x != null) {
      bindInZone(index, x, java.sql.Types.TIMESTAMP, ((BasaltConnection) connection).zoneId());
      return;
    }
    super.setTimestamp(index, x);
  }

  @Override
  public void setTimestamp(int index, Timestamp x, Calendar calendar) throws SQLException {
    if (checks.type(index) == java.sql.Types.TIMESTAMP_WITH_TIMEZONE) {
      boundConverted(index, x, java.sql.Types.TIMESTAMP_WITH_TIMEZONE); // an instant: no zone
      return;
    }
    check(index, x);
    if (x != null) {
      bindInZone(index, x, java.sql.Types.TIMESTAMP, zoneOf(calendar));
      return;
    }
    super.setTimestamp(index, x, calendar);
  }

  /**
   * Binds a date or timestamp ({@code sqlType}) as its day or date-time in {@code zone}, as
   * Avatica's setter does, but computed here ({@link ParameterObjects}): Avatica's conversion
   * mixes in the default zone of its first use, which stored a timestamp nine hours off, and a
   * date a day early west of that zone, once an application changed the JVM's default zone at
   * run time ({@code ZoneChangeTest}). (Its TIME conversion does not.)
   */
  private void bindInZone(int index, java.util.Date x, int sqlType, java.time.ZoneId zone)
      throws SQLException {
    slots[index - 1] = ParameterObjects.convert(x, sqlType, () -> zone, checks.label(index));
  }

  /** A calendar's zone, or without one the connection's. */
  private java.time.ZoneId zoneOf(Calendar calendar) {
    return calendar == null ? ((BasaltConnection) connection).zoneId()
        : calendar.getTimeZone().toZoneId();
  }

  /**
   * Binds what {@link ParameterObjects} converts for a parameter of JDBC type {@code sqlType}
   * (java.time, dates as text, ...); false when Avatica's own binding is right for {@code x}.
   */
  private boolean boundConverted(int index, Object x, int sqlType) throws SQLException {
    TypedValue v = checks.isUuid(index)
        ? ParameterObjects.uuid(x, checks.label(index))
        : ParameterObjects.convert(x, sqlType, ((BasaltConnection) connection)::zoneId,
            checks.label(index));
    if (v == null) {
      return false;
    }
    getSite(index); // the index's check
    check(index, v.value instanceof String ? v.value : null);
    slots[index - 1] = v;
    return true;
  }

  @Override
  public void setObject(int index, Object x) throws SQLException {
    ColumnMetaData.Rep plain = plainRep(index, x);
    if (plain != null) {
      check(index, x);
      bind(index, plain, x);
      return;
    }
    if (boundConverted(index, x, checks.type(index))) {
      return;
    }
    check(index, x);
    java.sql.Array array = asArray(index, x);
    if (array != null) {
      super.setArray(index, array);
      return;
    }
    int type = checks.type(index);
    ColumnMetaData.Rep rep = x == null ? null : ColumnMetaData.Rep.of(x.getClass());
    if (rep == ColumnMetaData.Rep.OBJECT && scalar(type)) {
      setObject(index, x, type); // converted now, or refused, rather than failing at execution
      return;
    }
    if (rep != null && !usesCalendar(rep)) {
      bind(index, rep, x);
      return;
    }
    try {
      super.setObject(index, x);
    } catch (RuntimeException e) {
      throw cannotBind(index, x, e);
    }
  }

  /**
   * How the path below binds a value of the common classes that nothing converts for parameter
   * {@code index} (a string to anything but a date, time or UUID; a number or boolean to a
   * numeric or boolean column): bound at once, without the path's searches (class lookups,
   * interface tests), 2-3% of a batched load's time. Null for anything else.
   */
  private ColumnMetaData.Rep plainRep(int index, Object x) {
    if (x == null || checks.isUuid(index)) {
      return null;
    }
    switch (checks.type(index)) {
      case java.sql.Types.DATE, java.sql.Types.TIME, java.sql.Types.TIMESTAMP,
          java.sql.Types.TIMESTAMP_WITH_TIMEZONE:
        return null; // converted (text parsed, instants placed in the zone)
      case java.sql.Types.CHAR, java.sql.Types.VARCHAR, java.sql.Types.LONGVARCHAR,
          java.sql.Types.NCHAR, java.sql.Types.NVARCHAR:
        // a number or boolean bound to text becomes its SQL text
        return x.getClass() == String.class ? ColumnMetaData.Rep.STRING : null;
      default:
        break;
    }
    Class<?> c = x.getClass();
    if (c == String.class) {
      return ColumnMetaData.Rep.STRING;
    } else if (c == Long.class) {
      return ColumnMetaData.Rep.LONG;
    } else if (c == Integer.class) {
      return ColumnMetaData.Rep.INTEGER;
    } else if (c == BigDecimal.class) {
      return ColumnMetaData.Rep.NUMBER;
    } else if (c == Double.class) {
      return ColumnMetaData.Rep.DOUBLE;
    } else if (c == Boolean.class) {
      return ColumnMetaData.Rep.BOOLEAN;
    }
    return null;
  }

  /** Whether Avatica converts a value of {@code rep} with the statement's calendar. */
  private static boolean usesCalendar(ColumnMetaData.Rep rep) {
    return switch (rep) {
      case JAVA_SQL_DATE, JAVA_SQL_TIME, JAVA_SQL_TIMESTAMP, JAVA_UTIL_DATE, ARRAY, OBJECT -> true;
      default -> false;
    };
  }

  private static boolean scalar(int sqlType) {
    return switch (sqlType) {
      case java.sql.Types.TINYINT, java.sql.Types.SMALLINT, java.sql.Types.INTEGER,
          java.sql.Types.BIGINT, java.sql.Types.REAL, java.sql.Types.FLOAT,
          java.sql.Types.DOUBLE, java.sql.Types.DECIMAL, java.sql.Types.NUMERIC,
          java.sql.Types.BOOLEAN, java.sql.Types.CHAR, java.sql.Types.VARCHAR,
          java.sql.Types.BINARY, java.sql.Types.VARBINARY -> true;
      default -> false;
    };
  }

  /** Avatica's conversions fail unchecked ("Cannot convert ..."): a 22018 naming the value. */
  private SQLException cannotBind(int index, Object x, RuntimeException e) {
    return new SQLException("cannot bind a " + x.getClass().getName() + " (" + x + ") to "
        + checks.label(index) + ": " + e.getMessage(),
        io.basaltdb.sql.SqlStates.INVALID_CHARACTER_VALUE_FOR_CAST, e);
  }

  /**
   * A Java array or List bound to an ARRAY parameter, as a JDBC array of its element type
   * (Avatica binds only {@link java.sql.Array} values to arrays); else null.
   */
  private java.sql.Array asArray(int index, Object x) throws SQLException {
    boolean arrayLike = x instanceof Object[] || x instanceof java.util.List<?>
        || x != null && x.getClass().isArray() && !(x instanceof byte[]);
    if (!arrayLike || index < 1 || index > getParameterMetaData().getParameterCount()
        || getParameterMetaData().getParameterType(index) != java.sql.Types.ARRAY) {
      return null;
    }
    String type = getParameterMetaData().getParameterTypeName(index);
    String element = type.endsWith(" ARRAY") ? type.substring(0, type.length() - 6) : type;
    int paren = element.indexOf('(');
    element = paren > 0 ? element.substring(0, paren) : element;
    Object[] elements = x instanceof java.util.List<?> l ? l.toArray()
        : x instanceof Object[] a ? a : boxed(x);
    return connection.createArrayOf(element.trim(), elements);
  }

  private static Object[] boxed(Object primitives) {
    Object[] out = new Object[java.lang.reflect.Array.getLength(primitives)];
    for (int i = 0; i < out.length; i++) {
      out[i] = java.lang.reflect.Array.get(primitives, i);
    }
    return out;
  }

  @Override
  public void setObject(int index, Object x, int targetSqlType) throws SQLException {
    if (boundConverted(index, x, targetSqlType)) {
      return;
    }
    check(index, x);
    try {
      super.setObject(index, x, targetSqlType);
    } catch (RuntimeException e) {
      throw cannotBind(index, x, e);
    }
  }

  @Override
  public void setObject(int index, Object x, int targetSqlType, int scaleOrLength)
      throws SQLException {
    if (boundConverted(index, x, targetSqlType)) {
      return;
    }
    check(index, x);
    try {
      super.setObject(index, x, targetSqlType, scaleOrLength);
    } catch (RuntimeException e) {
      throw cannotBind(index, x, e);
    }
  }

  /** JDBC 4.2: a {@link java.sql.JDBCType} target as its {@link java.sql.Types} number. */
  @Override
  public void setObject(int index, Object x, java.sql.SQLType targetSqlType)
      throws SQLException {
    setObject(index, x, jdbcType(targetSqlType));
  }

  @Override
  public void setObject(int index, Object x, java.sql.SQLType targetSqlType, int scaleOrLength)
      throws SQLException {
    setObject(index, x, jdbcType(targetSqlType), scaleOrLength);
  }

  private static int jdbcType(java.sql.SQLType type) throws SQLException {
    if (type instanceof java.sql.JDBCType j) {
      return j.getVendorTypeNumber();
    }
    throw new java.sql.SQLFeatureNotSupportedException("setObject with SQL type " + type
        + " of vendor " + (type == null ? null : type.getVendor()) + ": only java.sql.JDBCType"
        + " types are known", io.basaltdb.sql.SqlStates.FEATURE_NOT_SUPPORTED);
  }

  @Override
  public ResultSet executeQuery() throws SQLException {
    beforeExecution();
    return timer.run(getQueryTimeout(), () -> super.executeQuery());
  }

  @Override
  public long executeLargeUpdate() throws SQLException {
    beforeExecution();
    return timer.run(getQueryTimeout(), () -> super.executeLargeUpdate());
  }

  @Override
  public boolean execute() throws SQLException {
    beforeExecution();
    return timer.run(getQueryTimeout(), () -> super.execute());
  }

  /**
   * The batch; when a row fails, a {@link java.sql.BatchUpdateException} (JDBC's) carrying the
   * failure's message and SQLState, with an update count of 1 for each row before it, which
   * stays written (in auto-commit; in a transaction they are the transaction's). Over HBase an
   * INSERT's rows go on past a duplicate key: then a count for every row tried, {@code
   * EXECUTE_FAILED} for each duplicate.
   */
  @Override
  public long[] executeLargeBatch() throws SQLException {
    beforeExecution();
    try {
      return timer.run(getQueryTimeout(), () -> super.executeLargeBatch());
    } catch (java.sql.BatchUpdateException e) {
      throw e;
    } catch (SQLException e) {
      long[] counts = io.basaltdb.sql.exec.write.RowsWritten.updateCounts(e);
      if (counts == null) {
        throw e; // a path that does not say what it kept: no counts claimed
      }
      throw new java.sql.BatchUpdateException(e.getMessage(), e.getSQLState(),
          e.getErrorCode(), counts, e);
    }
  }

  /** The keys the last execution wrote, as asked when the statement was prepared. */
  @Override
  public ResultSet getGeneratedKeys() throws SQLException {
    checkOpen();
    return ((BasaltConnection) connection).generatedKeys(this);
  }

  @Override
  public SQLException rowError(SQLException e) {
    return timer.translate(e);
  }

  @Override
  public java.util.concurrent.atomic.AtomicBoolean cancelFlag() {
    return cancelFlag; // Avatica's, found when the statement was made
  }

  @Override
  public synchronized void close() throws SQLException {
    timer.disarm();
    super.close();
  }

  /**
   * Accepted (Avatica refuses it): Basalt does no JDBC escape processing, so turning it off
   * changes nothing; Flyway turns it off before each statement of a script.
   */
  @Override
  public void setEscapeProcessing(boolean enable) throws java.sql.SQLException {
    checkOpen();
  }

  /** Named cursors (positioned UPDATE ... WHERE CURRENT OF): not supported, 0A000. */
  @Override
  public void setCursorName(String name) throws java.sql.SQLException {
    throw Unsupported.method("PreparedStatement.setCursorName");
  }

  /** A hint to pools: accepted (Basalt keeps its plans by text, pooled or not). */
  @Override
  public void setPoolable(boolean poolable) throws java.sql.SQLException {
    checkOpen();
  }
}
