package io.basaltdb.jdbc.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basaltdb.engine.Database;
import io.basaltdb.engine.EngineOptions;
import io.basaltdb.sql.jdbc.BasaltConnections;
import java.util.Map;
import org.apache.calcite.avatica.Meta;
import org.apache.calcite.avatica.NoSuchConnectionException;
import org.apache.calcite.avatica.remote.AvaticaRuntimeException;
import org.junit.jupiter.api.Test;

/** The server's meta: connections it opens, refuses and closes when their client went away. */
class ServerMetaTest {
  @Test
  void idleConnectionsAreClosedAndBadPropertiesRefusedWithTheirState() throws Exception {
    try (Database db = Database.openTemporary(EngineOptions.defaults());
        ServerMeta meta = new ServerMeta(info -> BasaltConnections.open(db, info), 300)) {
      Meta.ConnectionHandle idle = new Meta.ConnectionHandle("idle");
      meta.openConnection(idle, Map.of());
      assertEquals(1, meta.openConnections());
      long deadline = System.nanoTime() + 10_000_000_000L;
      while (meta.openConnections() > 0 && System.nanoTime() < deadline) {
        Thread.sleep(50);
      }
      assertEquals(0, meta.openConnections(), "closed after its idle time");
      assertThrows(NoSuchConnectionException.class,
          () -> meta.createStatement(idle), "the client is told its connection is gone");

      AvaticaRuntimeException refused = assertThrows(AvaticaRuntimeException.class,
          () -> meta.openConnection(new Meta.ConnectionHandle("m"), Map.of("model", "x.json")));
      assertEquals("08001", refused.getSqlState(), refused.getErrorMessage());
      AvaticaRuntimeException bad = assertThrows(AvaticaRuntimeException.class,
          () -> meta.openConnection(new Meta.ConnectionHandle("d"),
              Map.of("durability", "sometimes")));
      assertEquals("22023", bad.getSqlState(), bad.getErrorMessage());
      assertTrue(bad.getErrorMessage().contains("durability"), bad.getErrorMessage());
      assertEquals(0, meta.openConnections());
    }
  }
}
