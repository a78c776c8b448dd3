package io.basaltdb.sql.jdbc;

import io.basaltdb.sql.SqlStates;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.OffsetTime;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.Calendar;
import java.util.Locale;
import java.util.TimeZone;
import java.util.UUID;

/**
 * {@code ResultSet.getObject(column, type)} (JDBC 4.1/4.2): a column's value as the Java type
 * asked for, as H2's and PostgreSQL's drivers give it. The boxed numbers, {@link String},
 * {@link BigDecimal}, {@link BigInteger}, {@code byte[]} and the {@code java.sql} date-times
 * come from the result set's own getters; the java.time types from the stored value itself
 * (DATE: {@link LocalDate}, TIME: {@link LocalTime}, TIMESTAMP: {@link LocalDateTime}; the
 * types with an offset or an instant place that local value in the connection's time zone;
 * TIMESTAMP WITH TIME ZONE: an instant, {@link OffsetDateTime} at UTC, {@link Instant}, or the
 * local types as that instant is in the connection's zone); a
 * {@link UUID} from its text or 16 bytes. SQL NULL is null whatever the type. Any other pair is
 * refused with 22018 naming the column, its type and the class. It reads {@code rs} through
 * JDBC's getters only, so the remote driver ({@code jdbc:basalt:remote:}) answers the same.
 */
public final class ColumnObjects {
  private static final TimeZone UTC = TimeZone.getTimeZone("UTC");

  private ColumnObjects() {}

  /**
   * A TIMESTAMP's text from its local milliseconds, as H2 prints it: {@code 2024-01-31
   * 12:34:56}, then a fraction of a second without trailing zeros ({@code .5}, {@code .789}).
   */
  public static String timestampText(long localMillis) {
    LocalDateTime t = LocalDateTime.ofEpochSecond(Math.floorDiv(localMillis, 1000),
        (int) Math.floorMod(localMillis, 1000) * 1_000_000, ZoneOffset.UTC);
    StringBuilder b = new StringBuilder(t.toLocalDate().toString()).append(' ');
    LocalTime time = t.toLocalTime();
    b.append(String.format(Locale.ROOT, "%02d:%02d:%02d", time.getHour(), time.getMinute(),
        time.getSecond()));
    int ms = time.getNano() / 1_000_000;
    if (ms != 0) {
      String f = String.format(Locale.ROOT, "%03d", ms);
      int end = f.length();
      while (f.charAt(end - 1) == '0') {
        end--;
      }
      b.append('.').append(f, 0, end);
    }
    return b.toString();
  }

  /** Column {@code i} of {@code rs}'s current row as {@code type}; {@code zone}: the session's. */
  public static <T> T get(ResultSet rs, int i, Class<T> type, TimeZone zone)
      throws SQLException {
    if (type == null) {
      throw new SQLException("getObject of column " + i + " without a type",
          SqlStates.INVALID_PARAMETER_VALUE);
    }
    Object raw = rs.getObject(i);
    if (raw == null) {
      return null;
    }
    Object v = convert(rs, i, type, zone, raw);
    if (v == null) {
      throw new SQLException("cannot read column " + rs.getMetaData().getColumnLabel(i) + " ("
          + rs.getMetaData().getColumnTypeName(i) + ") as " + type.getName(),
          SqlStates.INVALID_CHARACTER_VALUE_FOR_CAST);
    }
    return type.cast(v);
  }

  private static Object convert(ResultSet rs, int i, Class<?> type, TimeZone zone, Object raw)
      throws SQLException {
    int sqlType = rs.getMetaData().getColumnType(i);
    if (type == String.class) {
      return rs.getString(i);
    } else if (type == Integer.class) {
      return rs.getInt(i);
    } else if (type == Long.class) {
      return rs.getLong(i);
    } else if (type == Short.class) {
      return rs.getShort(i);
    } else if (type == Byte.class) {
      return rs.getByte(i);
    } else if (type == Double.class) {
      return rs.getDouble(i);
    } else if (type == Float.class) {
      return rs.getFloat(i);
    } else if (type == Boolean.class) {
      return rs.getBoolean(i);
    } else if (type == BigDecimal.class) {
      return rs.getBigDecimal(i);
    } else if (type == BigInteger.class) {
      return bigInteger(rs.getBigDecimal(i), i);
    } else if (type == byte[].class) {
      return rs.getBytes(i);
    } else if (type == java.sql.Date.class) {
      return rs.getDate(i);
    } else if (type == java.sql.Time.class) {
      return rs.getTime(i);
    } else if (type == java.sql.Timestamp.class) {
      return rs.getTimestamp(i);
    } else if (type == java.util.Date.class) {
      return new java.util.Date(rs.getTimestamp(i).getTime());
    } else if (type == UUID.class) {
      return uuid(raw);
    } else if (type.isInstance(raw)) {
      return raw;
    } else if (raw instanceof OffsetDateTime instant && sqlType == Types.TIMESTAMP_WITH_TIMEZONE) {
      return fromInstant(instant, type, zone);
    }
    LocalDateTime t = localDateTime(rs, i, sqlType);
    if (t == null) {
      return null;
    }
    if (type == LocalDate.class && sqlType != Types.TIME) {
      return t.toLocalDate();
    } else if (type == LocalDateTime.class && sqlType != Types.TIME) {
      return t;
    } else if (type == LocalTime.class && sqlType != Types.DATE) {
      return t.toLocalTime();
    } else if (type == OffsetDateTime.class && sqlType != Types.TIME) {
      return t.atZone(zone.toZoneId()).toOffsetDateTime();
    } else if (type == ZonedDateTime.class && sqlType != Types.TIME) {
      return t.atZone(zone.toZoneId());
    } else if (type == Instant.class && sqlType != Types.TIME) {
      return t.atZone(zone.toZoneId()).toInstant();
    } else if (type == OffsetTime.class && sqlType != Types.DATE) {
      ZoneOffset offset = zone.toZoneId().getRules().getOffset(Instant.now());
      return t.toLocalTime().atOffset(offset);
    } else if (type == Calendar.class && sqlType != Types.TIME) {
      Calendar c = Calendar.getInstance(zone, Locale.ROOT);
      c.setTimeInMillis(t.atZone(zone.toZoneId()).toInstant().toEpochMilli());
      return c;
    }
    return null;
  }

  /**
   * A TIMESTAMP WITH TIME ZONE value (an instant, at UTC) as {@code type}: the instant types as
   * they are, the local ones as the instant is in the session's zone.
   */
  private static Object fromInstant(OffsetDateTime instant, Class<?> type, TimeZone zone) {
    if (type == Instant.class) {
      return instant.toInstant();
    } else if (type == ZonedDateTime.class) {
      return instant.toZonedDateTime();
    } else if (type == Calendar.class) {
      Calendar c = Calendar.getInstance(zone, Locale.ROOT);
      c.setTimeInMillis(instant.toInstant().toEpochMilli());
      return c;
    }
    LocalDateTime local = instant.atZoneSameInstant(zone.toZoneId()).toLocalDateTime();
    if (type == LocalDateTime.class) {
      return local;
    } else if (type == LocalDate.class) {
      return local.toLocalDate();
    } else if (type == LocalTime.class) {
      return local.toLocalTime();
    }
    return null;
  }

  /** The stored local date-time of a DATE (midnight), TIME (on 1970-01-01) or TIMESTAMP. */
  private static LocalDateTime localDateTime(ResultSet rs, int i, int sqlType)
      throws SQLException {
    Calendar utc = Calendar.getInstance(UTC, Locale.ROOT);
    long millis;
    switch (sqlType) {
      case Types.DATE -> millis = rs.getDate(i, utc).getTime();
      case Types.TIME -> millis = rs.getTime(i, utc).getTime();
      case Types.TIMESTAMP -> millis = rs.getTimestamp(i, utc).getTime();
      default -> {
        return null;
      }
    }
    return LocalDateTime.ofEpochSecond(Math.floorDiv(millis, 1000),
        (int) Math.floorMod(millis, 1000) * 1_000_000, ZoneOffset.UTC);
  }

  private static BigInteger bigInteger(BigDecimal d, int i) throws SQLException {
    try {
      return d.toBigIntegerExact();
    } catch (ArithmeticException e) {
      throw new SQLException("column " + i + " holds " + d + ", which is not an integer",
          SqlStates.INVALID_CHARACTER_VALUE_FOR_CAST, e);
    }
  }

  private static UUID uuid(Object raw) throws SQLException {
    if (raw instanceof UUID u) {
      return u;
    } else if (raw instanceof byte[] b && b.length == 16) {
      ByteBuffer bb = ByteBuffer.wrap(b);
      return new UUID(bb.getLong(), bb.getLong());
    } else if (raw instanceof String s) {
      try {
        return UUID.fromString(s.trim());
      } catch (IllegalArgumentException e) {
        throw new SQLException("'" + s + "' is not a UUID",
            SqlStates.INVALID_CHARACTER_VALUE_FOR_CAST, e);
      }
    }
    return null;
  }
}
