package io.basaltdb.tpch;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.trino.tpch.TpchTable;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** At scale factor 0.01, the loader's row counts match the generator's, in Basalt and H2. */
class TpchLoadTest {
  static final double SF = 0.01;
  private static final String BASALT = "jdbc:basalt:mem:tpch-load;durability=ASYNC";
  private static final String H2 = "jdbc:h2:mem:tpch-load";

  @Test
  void loadedRowCountsMatchTheGenerator() throws Exception {
    Class.forName("io.basaltdb.jdbc.BasaltDriver");
    // the test's connections keep the in-memory databases open for the loaders' connections
    try (Connection basalt = DriverManager.getConnection(BASALT);
        Connection h2 = DriverManager.getConnection(H2)) {
      TpchLoader b = new TpchLoader(() -> DriverManager.getConnection(BASALT), true, SF, 2,
          null);
      b.createTables(true);
      Map<String, Long> loaded = b.loadAll("basalt");
      TpchLoader h = new TpchLoader(() -> DriverManager.getConnection(H2), false, SF, 2, null);
      h.createTables(false);
      Map<String, Long> loadedH2 = h.loadAll("h2");
      for (TpchTable<?> t : TpchTable.getTables()) {
        long generated = 0;
        for (Object ignored : t.createGenerator(SF, 1, 1)) {
          generated++;
        }
        String name = t.getTableName();
        assertEquals(generated, loaded.get(name), name);
        assertEquals(generated, loadedH2.get(name), name);
        assertEquals(generated, count(basalt, name), name + " in Basalt");
        assertEquals(generated, count(h2, name), name + " in H2");
      }
      assertEquals(60_175L, loaded.get("lineitem"));
    }
  }

  private static long count(Connection c, String table) throws Exception {
    try (Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM " + table)) {
      rs.next();
      return rs.getLong(1);
    }
  }
}
