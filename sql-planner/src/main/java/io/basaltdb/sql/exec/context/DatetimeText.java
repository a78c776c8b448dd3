package io.basaltdb.sql.exec.context;

import io.basaltdb.sql.SqlStateException;
import io.basaltdb.sql.SqlStates;
import io.basaltdb.sql.catalog.SqlColumn;
import java.time.DateTimeException;
import java.time.LocalDate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Strict reading of a string assigned to a DATE, TIME or TIMESTAMP [WITH TIME ZONE] column. Calcite's reading
 * is lenient where it should refuse: {@code '10:61:00'} became 11:01:00. A string that is no
 * date or time is 22007 (invalid datetime format), one with a field out of its range (month
 * 13, February 30, hour 24, minute 60, or digits of a second past the column's precision,
 * which Calcite would cut) 22008, both naming the column; nothing is changed.
 * Accepted (what Calcite reads): {@code yyyy-mm-dd}, {@code hh:mm[:ss[.fraction]]}, a
 * timestamp as a date, or a date and a time separated by spaces; surrounding spaces ignored.
 */
public final class DatetimeText {
  private DatetimeText() {}

  private static final Pattern DATE = Pattern.compile("(\\d{1,4})-(\\d{1,2})-(\\d{1,2})");
  private static final Pattern TIME =
      Pattern.compile("(\\d{1,2}):(\\d{1,2})(?::(\\d{1,2})(?:\\.(\\d{1,9}))?)?");

  /** Checks {@code text} assigned to {@code c}, a column of {@code table}. */
  public static void check(SqlColumn c, String text, String table) {
    String t = text.trim();
    boolean ok = switch (c.type()) {
      case DATE -> date(t, c, text, table);
      case TIME -> time(t, c, text, table);
      case TIMESTAMP -> {
        int split = t.indexOf(' ');
        yield split < 0 ? date(t, c, text, table)
            : date(t.substring(0, split), c, text, table)
                && time(t.substring(split + 1).trim(), c, text, table);
      }
      case TIMESTAMP_TZ -> {
        var parsed = io.basaltdb.sql.type.InstantText.parse(t, "for column " + c.name()
            + " of " + table);
        int nanos = parsed.local().getNano();
        String fraction = nanos == 0 ? ""
            : String.format(java.util.Locale.ROOT, "%09d", nanos).replaceFirst("0+$", "");
        if (fraction.length() > Math.max(0, c.precision())) {
          throw outOfRange(c, text, table, c.type().sqlName() + "(" + Math.max(0, c.precision())
              + ") keeps " + Math.max(0, c.precision()) + " digits of a second");
        }
        yield true;
      }
      default -> true;
    };
    if (!ok) {
      throw new SqlStateException(SqlStates.INVALID_DATETIME_FORMAT,
          "'" + text + "' is not a " + c.type() + " ("
          + format(c) + "), for column " + c.name() + " of " + table);
    }
  }

  private static String format(SqlColumn c) {
    return switch (c.type()) {
      case DATE -> "yyyy-mm-dd";
      case TIME -> "hh:mm:ss";
      default -> "yyyy-mm-dd hh:mm:ss";
    };
  }

  private static boolean date(String t, SqlColumn c, String text, String table) {
    Matcher m = DATE.matcher(t);
    if (!m.matches()) {
      return false;
    }
    try {
      LocalDate.of(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)),
          Integer.parseInt(m.group(3)));
    } catch (DateTimeException e) {
      throw outOfRange(c, text, table, e.getMessage());
    }
    return true;
  }

  private static boolean time(String t, SqlColumn c, String text, String table) {
    Matcher m = TIME.matcher(t);
    if (!m.matches()) {
      return false;
    }
    int hour = Integer.parseInt(m.group(1));
    int minute = Integer.parseInt(m.group(2));
    int second = m.group(3) == null ? 0 : Integer.parseInt(m.group(3));
    if (hour > 23 || minute > 59 || second > 59) {
      throw outOfRange(c, text, table, "hours 0-23, minutes and seconds 0-59");
    }
    String fraction = m.group(4) == null ? "" : m.group(4).replaceFirst("0+$", "");
    int keeps = fractionDigits(c);
    if (fraction.length() > keeps) {
      throw outOfRange(c, text, table, c.type() + "(" + keeps + ") keeps " + keeps
          + " digits of a second" + (keeps < 3 ? "; declare " + c.type() + "(3) for"
          + " milliseconds" : ""));
    }
    return true;
  }

  /**
   * The digits of a second column {@code c} keeps: its declared precision, else 3 for a
   * TIMESTAMP (the type system's default: the milliseconds Basalt stores) and 0 for a TIME.
   */
  private static int fractionDigits(SqlColumn c) {
    return c.precision() >= 0 ? c.precision()
        : c.type() == io.basaltdb.sql.type.ColumnType.TIMESTAMP
        ? io.basaltdb.sql.type.BasaltTypeSystem.INSTANCE.getDefaultPrecision(
            org.apache.calcite.sql.type.SqlTypeName.TIMESTAMP) : 0;
  }

  private static SqlStateException outOfRange(SqlColumn c, String text, String table,
      String why) {
    return new SqlStateException(SqlStates.DATETIME_FIELD_OVERFLOW,
        "'" + text + "' is out of range for " + c.type()
        + " (" + why + "), for column " + c.name() + " of " + table);
  }
}
