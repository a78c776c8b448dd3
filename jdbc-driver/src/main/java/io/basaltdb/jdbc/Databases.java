package io.basaltdb.jdbc;

import io.basaltdb.engine.Database;
import io.basaltdb.engine.EngineOptions;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.Map;

/**
 * The databases this process has open for JDBC connections: one per location, opened by the
 * first connection and closed when the last one closes (which releases the directory's lock).
 * Thread-safe.
 */
final class Databases {
  private record Entry(Database db, int refs) {}

  private static final Map<String, Entry> OPEN = new HashMap<>();

  private Databases() {}

  private static String key(BasaltUrl url) {
    return url.memory() ? "mem:" + url.location()
        : Path.of(url.location()).toAbsolutePath().normalize().toString();
  }

  /** The open database for {@code url}, opened if needed; the caller must {@link #release}. */
  static synchronized Database acquire(BasaltUrl url) throws SQLException {
    String key = key(url);
    Entry e = OPEN.get(key);
    if (e == null) {
      Database db;
      try {
        db = url.memory() ? Database.openTemporary(EngineOptions.defaults())
            : Database.open(Path.of(url.location()), EngineOptions.defaults());
      } catch (RuntimeException ex) {
        throw new SQLException("cannot open Basalt database " + url.location() + ": "
            + ex.getMessage(), "08001", ex);
      }
      e = new Entry(db, 0);
    }
    OPEN.put(key, new Entry(e.db(), e.refs() + 1));
    return e.db();
  }

  /** One connection to {@code db} closed: the last one closes the database. */
  static synchronized void release(Database db) {
    for (Map.Entry<String, Entry> e : OPEN.entrySet()) {
      if (e.getValue().db() == db) {
        int refs = e.getValue().refs() - 1;
        if (refs == 0) {
          OPEN.remove(e.getKey());
          db.close();
        } else {
          e.setValue(new Entry(db, refs));
        }
        return;
      }
    }
  }
}
