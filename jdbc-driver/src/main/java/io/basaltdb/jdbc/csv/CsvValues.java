package io.basaltdb.jdbc.csv;

import io.basaltdb.sql.SqlStates;
import java.math.BigDecimal;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Types;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.HexFormat;
import java.util.Locale;

/**
 * Binds a CSV field's text to a statement parameter of its column's SQL type: numbers, booleans,
 * dates and times parsed here, so a field that is not a value of its type is refused (22018)
 * naming the column and the text; whether a parsed value fits its column (range, length, scale)
 * is the database's to say (22003, 22001), as for any write. Dates and timestamps are ISO
 * ({@code 2024-05-31}, {@code 2024-05-31 13:45:00.5} or with a {@code T}) unless a pattern is
 * given ({@link DateTimeFormatter}); binary columns take hexadecimal.
 */
final class CsvValues {
  private final DateTimeFormatter date;
  private final DateTimeFormatter timestamp;

  /** {@code datePattern}, {@code timestampPattern}: null for ISO. */
  CsvValues(String datePattern, String timestampPattern) {
    this.date = datePattern == null ? null : DateTimeFormatter.ofPattern(datePattern, Locale.ROOT);
    this.timestamp = timestampPattern == null ? null
        : DateTimeFormatter.ofPattern(timestampPattern, Locale.ROOT);
  }

  /** Sets parameter {@code p} to {@code text} (null: NULL) as a value of {@code sqlType}. */
  void bind(PreparedStatement ps, int p, int sqlType, String column, String text)
      throws SQLException {
    if (text == null) {
      ps.setNull(p, sqlType);
      return;
    }
    try {
      switch (sqlType) {
        case Types.TINYINT, Types.SMALLINT, Types.INTEGER, Types.BIGINT -> {
          BigDecimal v = new BigDecimal(text.trim());
          if (v.signum() != 0 && v.stripTrailingZeros().scale() > 0) {
            throw refused(column, text, "an integer");
          }
          ps.setBigDecimal(p, v);
        }
        case Types.DECIMAL, Types.NUMERIC -> ps.setBigDecimal(p, new BigDecimal(text.trim()));
        case Types.REAL, Types.FLOAT, Types.DOUBLE -> ps.setDouble(p, Double.parseDouble(text));
        case Types.BOOLEAN, Types.BIT -> ps.setBoolean(p, bool(column, text));
        case Types.DATE -> ps.setDate(p, java.sql.Date.valueOf(date == null
            ? LocalDate.parse(text.trim()) : LocalDate.parse(text.trim(), date)));
        case Types.TIME -> ps.setTime(p, java.sql.Time.valueOf(LocalTime.parse(text.trim())));
        case Types.TIMESTAMP -> ps.setTimestamp(p, java.sql.Timestamp.valueOf(timestamp(text)));
        case Types.BINARY, Types.VARBINARY, Types.LONGVARBINARY ->
            ps.setBytes(p, HexFormat.of().parseHex(text.trim()));
        default -> ps.setString(p, text);
      }
    } catch (NumberFormatException | DateTimeParseException e) {
      throw refused(column, text, typeName(sqlType));
    } catch (IllegalArgumentException e) { // hex digits
      throw refused(column, text, typeName(sqlType));
    }
  }

  private LocalDateTime timestamp(String text) {
    String t = text.trim();
    if (timestamp != null) {
      return LocalDateTime.parse(t, timestamp);
    }
    return LocalDateTime.parse(t.length() > 10 && t.charAt(10) == ' '
        ? t.substring(0, 10) + 'T' + t.substring(11) : t);
  }

  private static boolean bool(String column, String text) throws SQLException {
    return switch (text.trim().toLowerCase(Locale.ROOT)) {
      case "true", "t", "yes", "y", "1" -> true;
      case "false", "f", "no", "n", "0" -> false;
      default -> throw refused(column, text, "a BOOLEAN");
    };
  }

  private static String typeName(int sqlType) {
    return switch (sqlType) {
      case Types.DECIMAL, Types.NUMERIC -> "a DECIMAL";
      case Types.REAL, Types.FLOAT, Types.DOUBLE -> "a floating-point number";
      case Types.DATE -> "a DATE";
      case Types.TIME -> "a TIME";
      case Types.TIMESTAMP -> "a TIMESTAMP";
      case Types.BINARY, Types.VARBINARY, Types.LONGVARBINARY -> "hexadecimal bytes";
      default -> "an integer";
    };
  }

  private static SQLException refused(String column, String text, String what) {
    return new SQLException("column " + column + ": '" + text + "' is not " + what,
        SqlStates.INVALID_CHARACTER_VALUE_FOR_CAST);
  }
}
