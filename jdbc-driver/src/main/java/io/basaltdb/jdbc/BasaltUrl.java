package io.basaltdb.jdbc;

import java.sql.SQLException;
import java.util.Properties;

/**
 * A parsed Basalt JDBC URL: {@code jdbc:basalt:<dir>} (an embedded database in a directory,
 * created if absent) or {@code jdbc:basalt:mem:<name>} (in memory, alive while a connection to
 * it is open), followed by properties as {@code ;key=value}. Properties given to
 * {@code connect} override none of the URL's: the URL's win, as in H2.
 *
 * @param location the directory, or the memory database's name
 * @param memory true for {@code mem:} databases
 * @param properties the URL's and the caller's properties merged
 */
public record BasaltUrl(String location, boolean memory, Properties properties) {
  public static final String PREFIX = "jdbc:basalt:";

  public static boolean accepts(String url) {
    return url != null && url.startsWith(PREFIX);
  }

  /** Parses {@code url} with the caller's {@code info}; a clear error (08001) when malformed. */
  public static BasaltUrl parse(String url, Properties info) throws SQLException {
    if (!accepts(url)) {
      throw new SQLException("not a Basalt URL (expected " + PREFIX + "<dir> or " + PREFIX
          + "mem:<name>): " + url, "08001");
    }
    String rest = url.substring(PREFIX.length());
    String[] parts = rest.split(";", -1);
    String where = parts[0].trim();
    Properties p = new Properties();
    if (info != null) {
      p.putAll(info);
    }
    for (int i = 1; i < parts.length; i++) {
      String kv = parts[i].trim();
      if (kv.isEmpty()) {
        continue;
      }
      int eq = kv.indexOf('=');
      if (eq <= 0) {
        throw new SQLException("malformed property '" + kv + "' in " + url
            + " (expected ;key=value)", "08001");
      }
      p.setProperty(kv.substring(0, eq).trim(), kv.substring(eq + 1).trim());
    }
    boolean memory = where.startsWith("mem:");
    String location = memory ? where.substring(4) : where;
    if (location.isEmpty()) {
      throw new SQLException("no database " + (memory ? "name" : "directory") + " in " + url,
          "08001");
    }
    return new BasaltUrl(location, memory, p);
  }
}
