package io.basaltdb.sql.jdbc;

import io.basaltdb.sql.SqlStates;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.OffsetTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoField;
import java.util.Calendar;
import java.util.UUID;
import org.apache.calcite.avatica.ColumnMetaData;
import org.apache.calcite.avatica.remote.TypedValue;

/**
 * What {@code setObject} binds: a Java object converted to the parameter's SQL type, as H2's and
 * PostgreSQL's drivers do, where Avatica would only pass the object on (and fail, or store a
 * wrong value: a {@code java.util.Date} bound to a DATE became a date in the year 3958).
 *
 * <ul>
 *   <li>DATE, TIME, TIMESTAMP (without time zone) take the JDBC 4.2 types: {@link LocalDate},
 *       {@link LocalTime}, {@link LocalDateTime} as they are; {@link OffsetDateTime},
 *       {@link ZonedDateTime}, {@link Instant}, {@link OffsetTime}, {@code java.util.Date} and
 *       {@link Calendar} at the same instant in the connection's time zone (a {@code Calendar}
 *       in its own zone); text in SQL or ISO form ({@code 2024-01-31}, {@code 2024-01-31
 *       12:34:56.789}, {@code 2024-01-31T12:34:56}, {@code 12:34:56}). A DATE takes the date of
 *       a date-time, a TIME its time, a TIMESTAMP the midnight of a date (as CAST does).
 *       Fractions of a second below the millisecond are cut, as for {@code setTimestamp}.
 *   <li>CHAR and VARCHAR take those types as SQL text, a {@link UUID}, a number or a boolean
 *       as its text.
 *   <li>A value that cannot be converted is refused: 22007 (text that is no date or time) or
 *       22018 (an object of a type the parameter does not take), naming the parameter.
 * </ul>
 *
 * <p>Values are made in Avatica's serial form (DATE: days, TIME: ms of the day, TIMESTAMP: ms of
 * the local date-time), so no calendar shifts them again. Other types are left to Avatica.
 */
public final class ParameterObjects {
  /** SQL's date-time text, or ISO's with a T; seconds and fractions optional. */
  private static final DateTimeFormatter DATE_TIME = new DateTimeFormatterBuilder()
      .append(DateTimeFormatter.ISO_LOCAL_DATE)
      .optionalStart().appendLiteral(' ').optionalEnd()
      .optionalStart().appendLiteral('T').optionalEnd()
      .append(DateTimeFormatter.ISO_LOCAL_TIME)
      .toFormatter();
  private static final long MILLIS_PER_DAY = 86_400_000L;

  private ParameterObjects() {}

  /**
   * {@code x} as a value of a parameter of JDBC type {@code sqlType}, or null when Avatica's
   * own binding is right for it (no conversion needed, or a type this class does not cover).
   *
   * @param zone the connection's time zone (asked only for a date or time; the zone id, not a
   *     {@code TimeZone}: a connection hands out a copy of that, and its id costs a lookup)
   * @param what names the parameter in an error
   */
  public static TypedValue convert(Object x, int sqlType, java.util.function.Supplier<ZoneId> zone,
      String what) throws SQLException {
    if (x == null) {
      return null;
    }
    return switch (sqlType) {
      case Types.DATE -> date(x, zone.get(), what);
      case Types.TIME -> time(x, zone.get(), what);
      case Types.TIMESTAMP -> timestamp(x, zone.get(), what);
      case Types.TIMESTAMP_WITH_TIMEZONE -> instant(x, zone.get(), what);
      case Types.CHAR, Types.VARCHAR, Types.LONGVARCHAR, Types.NCHAR, Types.NVARCHAR -> text(x);
      default -> null;
    };
  }

  private static TypedValue date(Object x, ZoneId zone, String what) throws SQLException {
    LocalDate d;
    if (x instanceof LocalDate ld) {
      d = ld;
    } else if (x instanceof String s) {
      d = parse(s, what).toLocalDate();
    } else if (x instanceof java.sql.Date sd) { // a batched load's dates: its day, no objects
      long ms = sd.getTime();
      long local = ms + zone.getRules().getOffset(Instant.ofEpochMilli(ms)).getTotalSeconds()
          * 1000L;
      return TypedValue.ofSerial(ColumnMetaData.Rep.JAVA_SQL_DATE,
          Math.toIntExact(Math.floorDiv(local, MILLIS_PER_DAY)));
    } else {
      LocalDateTime t = dateTime(x, zone, what, false);
      if (t == null) {
        return null;
      }
      d = t.toLocalDate();
    }
    return TypedValue.ofSerial(ColumnMetaData.Rep.JAVA_SQL_DATE, Math.toIntExact(d.toEpochDay()));
  }

  private static TypedValue time(Object x, ZoneId zone, String what) throws SQLException {
    LocalTime t;
    if (x instanceof LocalTime lt) {
      t = lt;
    } else if (x instanceof OffsetTime ot) {
      t = ot.withOffsetSameInstant(zone.getRules().getOffset(Instant.now()))
          .toLocalTime();
    } else if (x instanceof String s) {
      try {
        t = LocalTime.parse(s.trim());
      } catch (DateTimeParseException e) {
        t = parse(s, what).toLocalTime();
      }
    } else {
      LocalDateTime dt = dateTime(x, zone, what, true);
      if (dt == null) {
        return null;
      }
      t = dt.toLocalTime();
    }
    return TypedValue.ofSerial(ColumnMetaData.Rep.JAVA_SQL_TIME,
        (int) (t.toNanoOfDay() / 1_000_000));
  }

  private static TypedValue timestamp(Object x, ZoneId zone, String what)
      throws SQLException {
    LocalDateTime t = x instanceof String s ? parse(s, what) : dateTime(x, zone, what, false);
    if (t == null) {
      return null;
    }
    long millis = t.toLocalDate().toEpochDay() * MILLIS_PER_DAY
        + t.toLocalTime().toNanoOfDay() / 1_000_000;
    return TypedValue.ofSerial(ColumnMetaData.Rep.JAVA_SQL_TIMESTAMP, millis);
  }

  /**
   * A value for a TIMESTAMP WITH TIME ZONE parameter: milliseconds since the epoch (Calcite's
   * internal form of the instant type, passed as a number so no calendar shifts it). The
   * instant types and {@code java.util.Date} give their instant; a local date-time, a date or
   * text without a zone are placed in the connection's zone.
   */
  private static TypedValue instant(Object x, ZoneId zone, String what) throws SQLException {
    long millis;
    if (x instanceof Instant i) {
      millis = i.toEpochMilli();
    } else if (x instanceof OffsetDateTime t) {
      millis = t.toInstant().toEpochMilli();
    } else if (x instanceof ZonedDateTime t) {
      millis = t.toInstant().toEpochMilli();
    } else if (x instanceof java.util.Date d && !(x instanceof java.sql.Date)
        && !(x instanceof java.sql.Time)) {
      millis = d.getTime();
    } else if (x instanceof Calendar c) {
      millis = c.getTimeInMillis();
    } else if (x instanceof String s) {
      try {
        millis = io.basaltdb.sql.type.InstantText.parse(s, "for " + what)
            .epochMillis(zone);
      } catch (RuntimeException e) {
        throw SqlErrors.toSqlException(e);
      }
    } else {
      LocalDateTime t = dateTime(x, zone, what, false);
      if (t == null) {
        return null;
      }
      millis = t.atZone(zone).toInstant().toEpochMilli();
    }
    return TypedValue.ofLocal(ColumnMetaData.Rep.LONG, millis);
  }

  /**
   * A value for a UUID parameter: a {@link UUID}, its text (22018 when it is none) or its 16
   * bytes; null for other objects (Avatica's binding then decides).
   */
  static TypedValue uuid(Object x, String what) throws SQLException {
    if (x == null) {
      return null;
    }
    UUID u;
    if (x instanceof UUID id) {
      u = id;
    } else if (x instanceof String s) {
      try {
        u = UUID.fromString(s.trim());
      } catch (IllegalArgumentException e) {
        throw new SQLException("'" + s + "' is not a UUID, for " + what,
            SqlStates.INVALID_CHARACTER_VALUE_FOR_CAST, e);
      }
    } else if (x instanceof byte[] b && b.length == 16) {
      java.nio.ByteBuffer bb = java.nio.ByteBuffer.wrap(b);
      u = new UUID(bb.getLong(), bb.getLong());
    } else {
      return null;
    }
    return TypedValue.ofLocal(ColumnMetaData.Rep.OBJECT, u);
  }

  /**
   * The local date-time of a date-time object in {@code zone}; null for a type that is not
   * one (Avatica's binding then decides); a {@link LocalTime} is refused (it has no date), and
   * a {@code java.sql.Time} unless {@code timeWanted}.
   */
  private static LocalDateTime dateTime(Object x, ZoneId z, String what,
      boolean timeWanted) throws SQLException {
    if (x instanceof LocalDateTime t) {
      return t;
    } else if (x instanceof LocalDate d) {
      return d.atStartOfDay();
    } else if (x instanceof OffsetDateTime t) {
      return t.atZoneSameInstant(z).toLocalDateTime();
    } else if (x instanceof ZonedDateTime t) {
      return t.withZoneSameInstant(z).toLocalDateTime();
    } else if (x instanceof Instant t) {
      return LocalDateTime.ofInstant(t, z);
    } else if (x instanceof Calendar c) {
      return LocalDateTime.ofInstant(c.toInstant(), c.getTimeZone().toZoneId());
    } else if (x instanceof java.sql.Timestamp t) {
      return LocalDateTime.ofInstant(t.toInstant(), z);
    } else if (x instanceof java.sql.Time t && !timeWanted) {
      throw cannotBind(x, what);
    } else if (x instanceof java.util.Date d) { // java.sql.Date and Time too: in the zone
      return LocalDateTime.ofInstant(Instant.ofEpochMilli(d.getTime()), z);
    } else if (x instanceof LocalTime || x instanceof OffsetTime || x instanceof Number
        || x instanceof Boolean || x instanceof byte[] || x instanceof UUID) {
      throw cannotBind(x, what);
    }
    return null;
  }

  private static LocalDateTime parse(String s, String what) throws SQLException {
    String t = s.trim();
    try {
      return t.length() <= 10 ? LocalDate.parse(t).atStartOfDay()
          : LocalDateTime.parse(t, DATE_TIME);
    } catch (DateTimeParseException e) {
      throw new SQLException("value of " + what + " is not a date or time: '" + s + "'",
          SqlStates.INVALID_DATETIME_FORMAT, e);
    }
  }

  private static TypedValue text(Object x) {
    String s;
    if (x instanceof LocalDate || x instanceof LocalTime || x instanceof UUID
        || x instanceof OffsetTime) {
      s = x.toString();
    } else if (x instanceof LocalDateTime t) {
      s = SQL_DATE_TIME.format(t);
    } else if (x instanceof OffsetDateTime t) {
      s = SQL_DATE_TIME.format(t) + t.getOffset();
    } else if (x instanceof java.math.BigDecimal d) {
      s = d.toPlainString();
    } else if (x instanceof Number || x instanceof Character) {
      s = x.toString();
    } else if (x instanceof Boolean b) {
      s = b ? "TRUE" : "FALSE";
    } else {
      return null;
    }
    return TypedValue.ofSerial(ColumnMetaData.Rep.STRING, s);
  }

  /** {@code 2024-01-31 12:34:56}, with the fraction of a second only when there is one. */
  private static final DateTimeFormatter SQL_DATE_TIME = new DateTimeFormatterBuilder()
      .append(DateTimeFormatter.ISO_LOCAL_DATE).appendLiteral(' ')
      .appendPattern("HH:mm:ss").optionalStart()
      .appendFraction(ChronoField.NANO_OF_SECOND, 0, 9, true).optionalEnd()
      .toFormatter();

  private static SQLException cannotBind(Object x, String what) {
    return new SQLException("cannot bind a " + x.getClass().getName() + " (" + x + ") to "
        + what, SqlStates.INVALID_CHARACTER_VALUE_FOR_CAST);
  }
}
