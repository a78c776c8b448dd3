package io.basaltdb.sql.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.basaltdb.engine.Database;
import io.basaltdb.engine.EngineOptions;
import io.basaltdb.sql.SqlTestSupport;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The threads the SQL layer starts for a database (its query-timeout timer, its aggregation
 * workers) are the database's: made when first needed, stopped when it closes (checked here
 * for the timer; both are {@code Storage.extension}s closed with the storage); a statement
 * with a timeout on a connection whose database closed fails as any statement there does
 * (08003), not with a pool's refusal.
 */
class StorageOwnedThreadsTest {
  private static Set<String> threads() {
    return Thread.getAllStackTraces().keySet().stream().filter(Thread::isAlive)
        .map(Thread::getName).collect(Collectors.toSet());
  }

  private static long named(String name) {
    return Thread.getAllStackTraces().keySet().stream()
        .filter(t -> t.isAlive() && t.getName().equals(name)).count();
  }

  @Test
  void aDatabasesThreadsStopWithIt() throws Exception {
    Database db = Database.openTemporary(EngineOptions.defaults());
    long timersBefore = named("basalt-query-timeouts");
    Connection c = BasaltConnections.open(db);
    try (Statement st = c.createStatement()) {
      st.executeUpdate("CREATE TABLE t (id INTEGER PRIMARY KEY, v INTEGER)");
      st.executeUpdate("UPSERT INTO t VALUES (1, 2)");
      st.setQueryTimeout(30);
      assertEquals(List.of("1"), SqlTestSupport.rows(st.executeQuery("SELECT COUNT(*) FROM t")));
      assertEquals(timersBefore + 1, named("basalt-query-timeouts"), "its timer: " + threads());
      db.close();
      for (int i = 0; i < 100 && named("basalt-query-timeouts") > timersBefore; i++) {
        Thread.sleep(10);
      }
      assertEquals(timersBefore, named("basalt-query-timeouts"), "stopped with it");
      SQLException e = assertThrows(SQLException.class,
          () -> st.executeQuery("SELECT v FROM t WHERE id = 1"));
      assertEquals("08003", e.getSQLState(), e.toString());
      assertFalse(e.getMessage().contains("Rejected"), e.getMessage());
    } finally {
      c.close();
    }
  }
}
