package io.basaltdb.sql.jdbc;

import io.basaltdb.sql.SqlStates;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.util.TimeZone;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.calcite.avatica.AvaticaStatement;
import org.apache.calcite.avatica.Meta;
import org.apache.calcite.avatica.QueryState;

/**
 * A Basalt result set: Avatica's over the rows {@link BasaltMeta#createIterable} enumerates,
 * with errors met while reading rows (a scan's storage error, a failed cast) reported as
 * {@link SQLException}s carrying Basalt's SQLStates instead of escaping unchecked, and
 * {@code getObject(column, type)} answered ({@link ColumnObjects}). A {@code TIMESTAMP WITH TIME
 * ZONE} column holds instants ({@link Instants}): {@code getObject} gives an
 * {@link java.time.OffsetDateTime} at UTC, {@code getTimestamp} the instant whatever the
 * calendar, {@code getString} the UTC text with its offset, as PostgreSQL prints it.
 */
final class BasaltResultSet extends ReadOnlyResultSet implements Cloneable {
  private AtomicBoolean cancelFlag; // the statement's, found at the first row
  BasaltResultSet(AvaticaStatement statement, QueryState state, Meta.Signature signature,
      ResultSetMetaData metaData, TimeZone timeZone, Meta.Frame firstFrame)
      throws SQLException {
    super(statement, state, signature, metaData, timeZone, firstFrame);
  }

  /**
   * A field-by-field copy of this result set, which must never have been executed (it is then
   * what the constructor makes from the same arguments: {@link ResultSetCopies}).
   */
  BasaltResultSet copy() {
    try {
      return (BasaltResultSet) super.clone();
    } catch (CloneNotSupportedException e) {
      throw new AssertionError(e);
    }
  }

  @Override
  protected org.apache.calcite.avatica.AvaticaResultSet execute() throws SQLException {
    super.execute();
    ZoneSafeDates.install(accessorList, columnMetaDataList, localCalendar);
    return this;
  }

  @Override
  public org.apache.calcite.avatica.AvaticaResultSet execute2(
      org.apache.calcite.avatica.util.Cursor cursor,
      java.util.List<org.apache.calcite.avatica.ColumnMetaData> columns) {
    super.execute2(cursor, columns);
    ZoneSafeDates.install(accessorList, columns, localCalendar);
    return this;
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

  /**
   * As Avatica's, but a TIMESTAMP of the type's default precision (0) that holds a fraction of a
   * second (the storage keeps milliseconds: from a bound value, or {@code CURRENT_TIMESTAMP})
   * shows it, as H2 does, instead of printing a value the column does not hold.
   */
  @Override
  public String getString(int columnIndex) throws SQLException {
    if (instant(columnIndex)) {
      Long millis = instantMillis(columnIndex);
      return millis == null ? null : Instants.text(millis);
    }
    String s = super.getString(columnIndex);
    if (s != null && s.length() == 19 && getMetaData().getColumnType(columnIndex)
        == java.sql.Types.TIMESTAMP) {
      long millis = getTimestamp(columnIndex, utc()).getTime();
      int fraction = (int) Math.floorMod(millis, 1000L);
      if (fraction != 0) {
        String digits = String.format(java.util.Locale.ROOT, "%03d", fraction);
        return s + "." + digits.replaceAll("0+$", "");
      }
    }
    return s;
  }

  @Override
  public String getString(String columnLabel) throws SQLException {
    return getString(findColumn(columnLabel));
  }

  @Override
  public Object getObject(int columnIndex) throws SQLException {
    if (instant(columnIndex)) {
      Long millis = instantMillis(columnIndex);
      return millis == null ? null : Instants.offsetDateTime(millis);
    }
    return super.getObject(columnIndex);
  }

  @Override
  public Object getObject(String columnLabel) throws SQLException {
    return getObject(findColumn(columnLabel));
  }

  @Override
  public java.sql.Timestamp getTimestamp(int columnIndex, java.util.Calendar cal)
      throws SQLException {
    if (instant(columnIndex)) {
      Long millis = instantMillis(columnIndex);
      return millis == null ? null : new java.sql.Timestamp(millis);
    }
    return super.getTimestamp(columnIndex, cal);
  }

  @Override
  public java.sql.Timestamp getTimestamp(int columnIndex) throws SQLException {
    return instant(columnIndex) ? getTimestamp(columnIndex, null)
        : super.getTimestamp(columnIndex);
  }

  @Override
  public java.sql.Timestamp getTimestamp(String columnLabel) throws SQLException {
    return getTimestamp(findColumn(columnLabel));
  }

  @Override
  public java.sql.Timestamp getTimestamp(String columnLabel, java.util.Calendar cal)
      throws SQLException {
    return getTimestamp(findColumn(columnLabel), cal);
  }

  /** The instant a TIMESTAMP WITH TIME ZONE column holds, in ms since the epoch, or null. */
  private Long instantMillis(int columnIndex) throws SQLException {
    long v = super.getLong(columnIndex);
    return wasNull() ? null : v;
  }

  /** Per column (0-based), whether it holds instants; made at the first question. */
  private boolean[] instants;

  private boolean instant(int columnIndex) {
    if (instants == null) {
      boolean[] b = new boolean[signature == null ? 0 : signature.columns.size()];
      for (int i = 0; i < b.length; i++) {
        b[i] = Instants.isInstant(signature, i + 1);
      }
      instants = b;
    }
    return columnIndex >= 1 && columnIndex <= instants.length && instants[columnIndex - 1];
  }

  private java.util.Calendar utcCalendar;

  private java.util.Calendar utc() {
    if (utcCalendar == null) {
      utcCalendar = java.util.Calendar.getInstance(TimeZone.getTimeZone("UTC"),
          java.util.Locale.ROOT);
    }
    return utcCalendar;
  }

  /** JDBC 4.1/4.2: the value as {@code type} ({@link ColumnObjects}: java.time, UUID, ...). */
  @Override
  public <T> T getObject(int columnIndex, Class<T> type) throws SQLException {
    return ColumnObjects.get(this, columnIndex, type, localCalendar.getTimeZone());
  }

  @Override
  public <T> T getObject(String columnLabel, Class<T> type) throws SQLException {
    return getObject(findColumn(columnLabel), type);
  }

  private AtomicBoolean cancelFlag() {
    return statement instanceof TimedStatement t ? t.cancelFlag() : new AtomicBoolean();
  }
}
