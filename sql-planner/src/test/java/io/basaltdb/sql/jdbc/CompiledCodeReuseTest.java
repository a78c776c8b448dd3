package io.basaltdb.sql.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basaltdb.engine.Database;
import io.basaltdb.engine.EngineOptions;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import org.apache.calcite.config.CalciteSystemProperty;
import org.junit.jupiter.api.Test;

/**
 * Generated code is reused by its source text (Calcite's bindable cache, switched on by
 * Basalt's connections): statements differing only in literal values still answer for their
 * own values.
 */
class CompiledCodeReuseTest {
  @Test
  void theCacheIsOnAndLiteralStatementsAnswerForTheirOwnValues() throws Exception {
    try (Database db = Database.openTemporary(EngineOptions.defaults());
        Connection c = BasaltConnections.open(db);
        Statement st = c.createStatement()) {
      assertTrue(CalciteSystemProperty.BINDABLE_CACHE_MAX_SIZE.value() > 0,
          "Calcite read its properties before Basalt set the cache size");
      st.executeUpdate("CREATE TABLE t (id INTEGER NOT NULL PRIMARY KEY, v VARCHAR(10), "
          + "n INTEGER)");
      for (int i = 0; i < 50; i++) {
        st.executeUpdate("INSERT INTO t VALUES (" + i + ", 'v" + i + "', " + i * 3 + ")");
      }
      for (int i = 0; i < 50; i += 7) {
        try (ResultSet rs = st.executeQuery("SELECT v, n + " + i + " FROM t WHERE id = " + i)) {
          assertTrue(rs.next());
          assertEquals("v" + i, rs.getString(1));
          assertEquals(i * 4, rs.getInt(2), "the literal in the projection is this one");
        }
        try (ResultSet rs = st.executeQuery(
            "SELECT COUNT(*) FROM t WHERE n > " + i + " AND v <> 'v" + (i + 1) + "'")) {
          assertTrue(rs.next());
          long expected = 50 - (i / 3 + 1) - (i + 1 < 50 && (i + 1) * 3 > i ? 1 : 0);
          assertEquals(expected, rs.getLong(1), "filter literals of this statement");
        }
      }
    }
  }
}
