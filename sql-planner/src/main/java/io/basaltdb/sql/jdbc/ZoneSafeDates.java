package io.basaltdb.sql.jdbc;

import java.sql.SQLException;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.Calendar;
import java.util.List;
import java.util.TimeZone;
import org.apache.calcite.avatica.ColumnMetaData;
import org.apache.calcite.avatica.util.Cursor;

/**
 * DATE and TIMESTAMP values read as {@code java.sql} objects right after the JVM's default time
 * zone changed. Avatica 1.28 makes them from the stored number as a midnight (or date-time) in
 * the current default zone, then corrects by {@code DateTimeUtils.DEFAULT_ZONE}, the default
 * zone when that class was first used: once an application calls {@code TimeZone.setDefault}
 * after a first date was read (Spring applications often do at start-up), every date came back
 * a day early in a zone east of the old one. These accessors compute the same values with the
 * default zone read now (the same results while it does not change); installed over the
 * accessors of a result set's DATE and TIMESTAMP columns that hold numbers (Basalt's rows).
 */
final class ZoneSafeDates {
  private static final long MILLIS_PER_DAY = 86_400_000L;

  private ZoneSafeDates() {}

  /** Replaces, in {@code accessors}, those of DATE and TIMESTAMP columns that read numbers. */
  static void install(List<Cursor.Accessor> accessors, List<ColumnMetaData> columns,
      Calendar local) {
    if (accessors == null || columns == null) {
      return;
    }
    for (int i = 0; i < accessors.size() && i < columns.size(); i++) {
      Cursor.Accessor a = accessors.get(i);
      String kind = a.getClass().getSimpleName();
      int type = columns.get(i).type.id;
      if (type == Types.DATE && kind.equals("DateFromNumberAccessor")) {
        accessors.set(i, new DateColumn(a, local));
      } else if (type == Types.TIMESTAMP && kind.equals("TimestampFromNumberAccessor")) {
        accessors.set(i, new TimestampColumn(a, local));
      }
    }
  }

  /** Days since the epoch as Avatica's {@code unixDateToSqlDate}, the default zone read now. */
  static java.sql.Date date(long days, Calendar calendar) {
    java.sql.Date d = java.sql.Date.valueOf(LocalDate.ofEpochDay(days));
    long t = d.getTime();
    d.setTime(t + TimeZone.getDefault().getOffset(t) - offset(calendar, t));
    return d;
  }

  /** Local milliseconds as Avatica's {@code unixTimestampToSqlTimestamp}, the zone read now. */
  static Timestamp timestamp(long millis, Calendar calendar) {
    Timestamp ts = Timestamp.valueOf(LocalDateTime.ofEpochSecond(Math.floorDiv(millis, 1000),
        (int) (Math.floorMod(millis, 1000) * 1_000_000), ZoneOffset.UTC));
    long t = ts.getTime();
    ts.setTime(t + TimeZone.getDefault().getOffset(t) - offset(calendar, t));
    return ts;
  }

  private static int offset(Calendar calendar, long t) {
    return calendar == null ? 0 : calendar.getTimeZone().getOffset(t);
  }

  /** A DATE or TIMESTAMP column's accessor, with the result set's calendar for getObject. */
  private abstract static class ZonedColumn extends ForwardingAccessor {
    final Calendar local;

    ZonedColumn(Cursor.Accessor delegate, Calendar local) {
      super(delegate);
      this.local = local;
    }
  }

  /** A DATE column holding days. */
  private static final class DateColumn extends ZonedColumn {
    DateColumn(Cursor.Accessor delegate, Calendar local) {
      super(delegate, local);
    }

    @Override
    public Object getObject() throws SQLException {
      return getDate(local);
    }

    @Override
    public java.sql.Date getDate(Calendar calendar) throws SQLException {
      long days = delegate.getLong();
      return delegate.wasNull() ? null : date(days, calendar);
    }

    @Override
    public Timestamp getTimestamp(Calendar calendar) throws SQLException {
      long days = delegate.getLong();
      return delegate.wasNull() ? null : timestamp(days * MILLIS_PER_DAY, calendar);
    }
  }

  /** A TIMESTAMP column holding local milliseconds. */
  private static final class TimestampColumn extends ZonedColumn {
    TimestampColumn(Cursor.Accessor delegate, Calendar local) {
      super(delegate, local);
    }

    @Override
    public Object getObject() throws SQLException {
      return getTimestamp(local);
    }

    @Override
    public Timestamp getTimestamp(Calendar calendar) throws SQLException {
      long millis = delegate.getLong();
      return delegate.wasNull() ? null : timestamp(millis, calendar);
    }

    /** As H2 prints it, whatever the column's precision ({@link ColumnObjects#timestampText}). */
    @Override
    public String getString() throws SQLException {
      long millis = delegate.getLong();
      return delegate.wasNull() ? null : ColumnObjects.timestampText(millis);
    }

    @Override
    public java.sql.Date getDate(Calendar calendar) throws SQLException {
      Timestamp t = getTimestamp(calendar);
      return t == null ? null : new java.sql.Date(t.getTime());
    }

    @Override
    public java.sql.Time getTime(Calendar calendar) throws SQLException {
      Timestamp t = getTimestamp(calendar);
      return t == null ? null : new java.sql.Time(t.getTime());
    }
  }
}
