package io.basaltdb.sql.jdbc;

import static org.junit.jupiter.api.Assertions.assertNull;

import io.basaltdb.engine.Database;
import io.basaltdb.engine.EngineOptions;
import io.basaltdb.sql.SqlTestSupport;
import java.lang.ref.WeakReference;
import java.sql.Connection;
import java.sql.SQLException;
import org.junit.jupiter.api.Test;

/**
 * A closed connection and a closed database are not kept alive by Basalt's per-connection
 * caches (found by the torture runner, whose process opened a database per round and ran out
 * of heap after 23: the cache of each connection's database held it strongly, and the
 * database's plans reached the connection).
 */
class ConnectionLeakTest {
  @Test
  void closedDatabasesAndConnectionsAreCollected() throws Exception {
    WeakReference<Database> db = openUseAndClose();
    for (int i = 0; i < 50 && db.get() != null; i++) {
      System.gc();
      Thread.sleep(20);
    }
    assertNull(db.get(), "a closed database stays reachable after its connection closed");
  }

  private static WeakReference<Database> openUseAndClose() throws SQLException {
    Database db = Database.openTemporary(EngineOptions.defaults());
    try (Connection c = BasaltConnections.open(db)) {
      c.createStatement().executeUpdate("CREATE TABLE t (id INTEGER PRIMARY KEY, v INTEGER)");
      c.createStatement().executeUpdate("UPSERT INTO t VALUES (1, 2)");
      SqlTestSupport.rows(c, "SELECT v FROM t WHERE id = 1");
      SqlTestSupport.rows(c, "SELECT v FROM t WHERE id = 2");
    }
    db.close();
    return new WeakReference<>(db);
  }
}
