package io.basaltdb.sql.type;

import io.basaltdb.sql.SqlStateException;
import io.basaltdb.sql.SqlStates;
import java.time.DateTimeException;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.format.ResolverStyle;
import java.time.temporal.ChronoField;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Text read as a {@code TIMESTAMP WITH TIME ZONE}, as PostgreSQL and H2 read it: a date and a
 * time ({@code 2024-01-31 12:34:56[.fraction]}, or ISO's {@code T}), then an optional zone: an
 * offset ({@code Z}, {@code +02}, {@code +02:00}, {@code -0530}) or a region ({@code UTC},
 * {@code Europe/Paris}, after a space). Text with a zone is an instant; text without one is a
 * local date-time, placed in the session's zone when the statement runs. Calcite reads only
 * {@code yyyy-MM-dd HH:mm:ss zone}. Stateless.
 */
public final class InstantText {
  private static final Pattern SHAPE = Pattern.compile(
      "(\\d{4}-\\d{1,2}-\\d{1,2}(?:[ T]\\d{1,2}:\\d{2}(?::\\d{2}(?:\\.\\d{1,9})?)?)?)"
      + "\\s*(Z|[+-]\\d{2}(?::?\\d{2})?|[A-Za-z][A-Za-z0-9_/+-]*)?");
  private static final DateTimeFormatter LOCAL = new DateTimeFormatterBuilder()
      .appendPattern("uuuu-M-d")
      .optionalStart().optionalStart().appendLiteral(' ').optionalEnd()
      .optionalStart().appendLiteral('T').optionalEnd()
      .appendPattern("H:mm").optionalStart().appendPattern(":ss")
      .optionalStart().appendFraction(ChronoField.NANO_OF_SECOND, 1, 9, true).optionalEnd()
      .optionalEnd().optionalEnd()
      .parseDefaulting(ChronoField.HOUR_OF_DAY, 0)
      .toFormatter(Locale.ROOT).withResolverStyle(ResolverStyle.STRICT);

  private InstantText() {}

  /** The text's parts: its local date-time, and its zone or null. */
  public record Parsed(LocalDateTime local, ZoneId zone) {
    /** Milliseconds since the epoch; {@code session} places a local date-time. */
    public long epochMillis(ZoneId session) {
      return local.atZone(zone != null ? zone : session).toInstant().toEpochMilli();
    }

    /** The local date-time as Calcite's timestamp text ({@code yyyy-MM-dd HH:mm:ss.SSS}). */
    public String localText() {
      return local.format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSS", Locale.ROOT));
    }
  }

  /**
   * Reads {@code text}; 22007 naming it when it is no date-time with an optional zone.
   *
   * @param what names where the text goes in the error ("for column X of T")
   */
  public static Parsed parse(String text, String what) {
    Matcher m = SHAPE.matcher(text.trim());
    if (m.matches()) {
      try {
        LocalDateTime local = LocalDateTime.parse(m.group(1), LOCAL);
        String z = m.group(2);
        ZoneId zone = z == null ? null : ZoneId.of(z.length() == 3 && (z.startsWith("+")
            || z.startsWith("-")) ? z + ":00" : z);
        return new Parsed(local, zone);
      } catch (DateTimeException e) {
        // refused below
      }
    }
    throw new SqlStateException(SqlStates.INVALID_DATETIME_FORMAT, "'" + text
        + "' is not a TIMESTAMP WITH TIME ZONE (yyyy-mm-dd hh:mm:ss[.fff][+hh:mm | zone])"
        + (what == null ? "" : ", " + what));
  }
}
