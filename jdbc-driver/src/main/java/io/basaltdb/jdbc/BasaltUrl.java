package io.basaltdb.jdbc;

import io.basaltdb.sql.SqlStates;
import io.basaltdb.storage.StorageProvider;
import java.sql.SQLException;
import java.util.Properties;

/**
 * A parsed Basalt JDBC URL: {@code jdbc:basalt:<dir>} (an embedded database in a directory,
 * created if absent), {@code jdbc:basalt:mem:<name>} (in memory, alive while a connection to it
 * is open) or {@code jdbc:basalt:<scheme>:<location>} for a storage a {@link StorageProvider}
 * opens ({@code hbase:<zookeeper quorum>[:<port>][:/<znode>]}), followed by properties as
 * {@code ;key=value}. Properties given to {@code connect} override none of the URL's: the
 * URL's win, as in H2.
 *
 * @param scheme {@code ""} for a directory, {@code mem}, or a provider's scheme
 * @param location the directory, the memory database's name, or what the provider reads
 * @param properties the URL's and the caller's properties merged
 */
public record BasaltUrl(String scheme, String location, Properties properties) {
  public static final String PREFIX = "jdbc:basalt:";
  /** Schemes reserved even when no provider is on the class path (then a clear error). */
  private static final java.util.Set<String> RESERVED = java.util.Set.of("mem", "hbase");

  /** True for an in-memory database. */
  public boolean memory() {
    return scheme.equals("mem");
  }

  /** True for the embedded engine (a directory or memory). */
  public boolean embedded() {
    return scheme.isEmpty() || memory();
  }

  public static boolean accepts(String url) {
    return url != null && url.startsWith(PREFIX);
  }

  /** Parses {@code url} with the caller's {@code info}; a clear error (08001) when malformed. */
  public static BasaltUrl parse(String url, Properties info) throws SQLException {
    if (!accepts(url)) {
      throw new SQLException("not a Basalt URL (expected " + PREFIX + "<dir> or " + PREFIX
          + "mem:<name>): " + url, SqlStates.UNABLE_TO_CONNECT);
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
            + " (expected ;key=value)", SqlStates.UNABLE_TO_CONNECT);
      }
      p.setProperty(kv.substring(0, eq).trim(), kv.substring(eq + 1).trim());
    }
    int colon = where.indexOf(':');
    String scheme = colon > 0 && isScheme(where.substring(0, colon))
        ? where.substring(0, colon) : "";
    String location = scheme.isEmpty() ? where : where.substring(colon + 1);
    if (location.isEmpty()) {
      throw new SQLException("no " + (scheme.isEmpty() ? "database directory"
          : scheme.equals("mem") ? "database name" : scheme + " location") + " in " + url,
          SqlStates.UNABLE_TO_CONNECT);
    }
    return new BasaltUrl(scheme, location, p);
  }

  /** A location starting with a scheme and a colon belongs to that scheme; else a directory. */
  private static boolean isScheme(String s) {
    return RESERVED.contains(s) || Storages.providerSchemes().contains(s);
  }
}
