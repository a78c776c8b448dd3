package io.basaltdb.sql.jdbc;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import org.apache.calcite.avatica.ColumnMetaData;
import org.apache.calcite.avatica.Meta;

/**
 * {@code TIMESTAMP WITH TIME ZONE} through JDBC. Basalt stores it as an instant (PostgreSQL's
 * {@code timestamptz}; Calcite's {@code TIMESTAMP WITH LOCAL TIME ZONE}: milliseconds since the
 * epoch), which Avatica would read as a local date-time and shift by the client's zone. Columns
 * and parameters of that type are found by their Calcite type name; their values read as
 * {@link OffsetDateTime} at UTC and print as {@code 2024-01-31 12:34:56.789+00}, embedded and
 * through {@code jdbc:basalt:remote:} alike. Stateless.
 */
public final class Instants {
  /** Calcite's name of the instant type, in column and parameter metadata. */
  public static final String CALCITE_TYPE_NAME = "TIMESTAMP_WITH_LOCAL_TIME_ZONE";
  /** The SQL name reported to JDBC clients. */
  public static final String SQL_TYPE_NAME = "TIMESTAMP WITH TIME ZONE";
  private static final DateTimeFormatter TEXT =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss", Locale.ROOT);

  private Instants() {}

  static boolean isInstant(ColumnMetaData.AvaticaType type) {
    return type != null && CALCITE_TYPE_NAME.equals(type.name);
  }

  /** Whether column {@code i} (1-based) of {@code signature} holds instants. */
  static boolean isInstant(Meta.Signature signature, int i) {
    return signature != null && i >= 1 && i <= signature.columns.size()
        && isInstant(signature.columns.get(i - 1).type);
  }

  public static OffsetDateTime offsetDateTime(long millis) {
    return Instant.ofEpochMilli(millis).atOffset(ZoneOffset.UTC);
  }

  /** {@code yyyy-MM-dd HH:mm:ss[.fff]+00}: UTC, with the milliseconds when there are some. */
  public static String text(long millis) {
    OffsetDateTime t = offsetDateTime(millis);
    int ms = t.getNano() / 1_000_000;
    return t.format(TEXT) + (ms == 0 ? "" : String.format(Locale.ROOT, ".%03d", ms)
        .replaceAll("0+$", "")) + "+00";
  }
}
