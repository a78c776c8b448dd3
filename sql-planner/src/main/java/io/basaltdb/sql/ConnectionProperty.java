package io.basaltdb.sql;

import io.basaltdb.storage.InvalidArgumentException;
import java.sql.DriverPropertyInfo;
import java.util.List;
import java.util.Locale;
import java.util.Properties;

/**
 * The connection properties a client may set on a Basalt connection, each with its name, type,
 * default and description: the one list the URL parser, {@code Driver.getPropertyInfo}, the
 * {@code DataSource}, {@code exec.ConnectionSettings} and the documentation
 * ({@code jdbc-driver/doc/connection-properties.md}, checked by a test) all read. Any other
 * name is not Basalt's: Calcite's own settings are refused, the rest ignored
 * ({@code BasaltConnections.accepted}).
 */
public enum ConnectionProperty {
  DURABILITY("durability", Type.CHOICE, "SYNC", List.of("SYNC", "ASYNC"),
      "SYNC: a statement returns once its writes are fsynced in the write-ahead log;"
      + " ASYNC: fsynced in the background within 100 ms"),
  READ_TIMESTAMP("readTimestamp", Type.EPOCH_MILLIS, null, List.of(),
      "every read sees the data as of this instant (epoch ms); later versions are not read"),
  WRITE_TIMESTAMP("writeTimestamp", Type.EPOCH_MILLIS, null, List.of(),
      "every cell the connection writes gets this timestamp (epoch ms) instead of the"
      + " current time"),
  READ_ONLY("readOnly", Type.BOOLEAN, "false", List.of("true", "false"),
      "true: writes and DDL are refused with SQLState 25006 (as Connection.setReadOnly)"),
  PLAN_CACHE_SIZE("planCacheSize", Type.COUNT, "2048", List.of(),
      "statement plans the open database keeps for all its connections (least recently used"
      + " out first; 0: none); set by the last connection opened with it"),
  QUERY_MEMORY("queryMemory", Type.BYTES, null, List.of(),
      "bytes one statement may hold in sorts, windows and hash joins' build sides (e.g. 64m,"
      + " 2g; default a quarter of the heap); past it the statement fails with SQLState 53200,"
      + " naming the operator, and other statements are unharmed"),
  SLOW_STATEMENT_MILLIS("slowStatementMillis", Type.COUNT, null, List.of(),
      "an execution of this connection taking at least this many milliseconds (from its start"
      + " to its last row) is logged with its time, rows, scan counts and text: to standard"
      + " error, or the server's --slow-statement-log; unset: none");

  /** How a value is written. */
  public enum Type { CHOICE, EPOCH_MILLIS, BOOLEAN, COUNT, BYTES }

  /** The largest {@link Type#COUNT}. */
  private static final long MAX_COUNT = 1_000_000;

  private final String camelName;
  private final Type type;
  private final String defaultValue;
  private final List<String> choices;
  private final String description;

  ConnectionProperty(String camelName, Type type, String defaultValue, List<String> choices,
      String description) {
    this.camelName = camelName;
    this.type = type;
    this.defaultValue = defaultValue;
    this.choices = choices;
    this.description = description;
  }

  /** The name in URLs and {@code Properties}, e.g. {@code readTimestamp}. */
  public String camelName() {
    return camelName;
  }

  public Type type() {
    return type;
  }

  /** The value when unset, or null for none. */
  public String defaultValue() {
    return defaultValue;
  }

  /** The values allowed (empty: any of its type). */
  public List<String> choices() {
    return choices;
  }

  public String description() {
    return description;
  }

  /** The property named exactly {@code name}, or null. */
  public static ConnectionProperty of(String name) {
    for (ConnectionProperty p : values()) {
      if (p.camelName.equals(name)) {
        return p;
      }
    }
    return null;
  }

  /**
   * The value {@code p} gives this property, checked ({@link #check}), else its default (null
   * for none).
   */
  public String valueIn(Properties p) {
    String v = raw(p);
    return v == null ? defaultValue : check(v);
  }

  /** The value {@code p} holds for this property (blank counts as unset), or null. */
  private String raw(Properties p) {
    String v = p.getProperty(camelName);
    return v == null || v.isBlank() ? null : v.trim();
  }

  /**
   * The value checked against its type, normalised (choices upper case, booleans lower case,
   * timestamps as decimal); an {@link InvalidArgumentException} naming the property otherwise.
   */
  public String check(String value) {
    String v = value.trim();
    switch (type) {
      case CHOICE -> {
        String u = v.toUpperCase(Locale.ROOT);
        if (!choices.contains(u)) {
          throw invalid(value, "must be one of " + String.join(", ", choices));
        }
        return u;
      }
      case BOOLEAN -> {
        String l = v.toLowerCase(Locale.ROOT);
        if (!choices.contains(l)) {
          throw invalid(value, "must be true or false");
        }
        return l;
      }
      case COUNT -> {
        try {
          long n = Long.parseLong(v);
          if (n >= 0 && n <= MAX_COUNT) {
            return Long.toString(n);
          }
        } catch (NumberFormatException e) {
          // refused below
        }
        throw invalid(value, "must be an integer from 0 to " + MAX_COUNT);
      }
      case BYTES -> {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("(\\d{1,15})([kKmMgG]?)")
            .matcher(v);
        if (m.matches()) {
          long n = Long.parseLong(m.group(1)) << switch (m.group(2).toLowerCase(Locale.ROOT)) {
            case "k" -> 10;
            case "m" -> 20;
            case "g" -> 30;
            default -> 0;
          };
          if (n > 0) {
            return Long.toString(n);
          }
        }
        throw invalid(value, "must be a positive number of bytes, with k, m or g for KiB,"
            + " MiB or GiB (e.g. 512m)");
      }
      default -> {
        try {
          long ts = Long.parseLong(v);
          if (ts >= 0) {
            return Long.toString(ts);
          }
        } catch (NumberFormatException e) {
          // refused below
        }
        throw invalid(value, "must be epoch milliseconds (a non-negative integer)");
      }
    }
  }

  private InvalidArgumentException invalid(String value, String rule) {
    return new InvalidArgumentException("connection property " + camelName + " " + rule
        + ", got '" + value + "'");
  }

  /** What {@code Driver.getPropertyInfo} reports, with the value {@code given} holds. */
  public DriverPropertyInfo info(Properties given) {
    String v = given == null ? null : raw(given);
    DriverPropertyInfo i = new DriverPropertyInfo(camelName, v != null ? v : defaultValue);
    i.description = description;
    i.required = false;
    i.choices = choices.isEmpty() ? null : choices.toArray(new String[0]);
    return i;
  }
}
