package io.basaltdb.tpch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basaltdb.hbase.local.LocalHBase;
import java.sql.Connection;
import java.sql.DriverManager;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * All 22 TPC-H queries at scale factor 0.01 over an HBase mini cluster
 * ({@code jdbc:basalt:hbase:...}) return H2's results: the same SQL layer over the other
 * storage.
 */
class TpchOverHBaseTest {
  @Test
  void all22QueriesAgreeWithH2OverHBase() throws Exception {
    long t0 = System.nanoTime();
    try (LocalHBase hbase = LocalHBase.startTemporary()) {
      String basaltUrl = hbase.jdbcUrl() + ";durability=ASYNC";
      String h2Url = "jdbc:h2:mem:tpch-hbase";
      try (Connection basalt = DriverManager.getConnection(basaltUrl);
          Connection h2 = DriverManager.getConnection(h2Url)) {
        TpchLoader b = new TpchLoader(() -> DriverManager.getConnection(basaltUrl), true,
            TpchLoadTest.SF, 1, null);
        b.createTables(true);
        b.loadAll("basalt over hbase");
        TpchLoader h = new TpchLoader(() -> DriverManager.getConnection(h2Url), false,
            TpchLoadTest.SF, 1, null);
        h.createTables(false);
        h.loadAll("h2");
        long q0 = System.nanoTime();
        List<String> differences = new ArrayList<>();
        int nonEmpty = 0;
        for (int q = 1; q <= 22; q++) {
          List<List<Object>> expected = TpchQueries.run(h2, q);
          String d = TpchQueries.difference(expected, TpchQueries.run(basalt, q));
          if (d != null) {
            differences.add("Q" + q + ": " + d);
          }
          nonEmpty += expected.isEmpty() ? 0 : 1;
        }
        System.out.printf("TPC-H SF %s over HBase: 22 queries in %.1f s (%.1f s with the cluster"
            + " and loads)%n", TpchLoadTest.SF, (System.nanoTime() - q0) / 1e9,
            (System.nanoTime() - t0) / 1e9);
        assertEquals(List.of(), differences);
        assertTrue(nonEmpty >= 20, "most queries return rows at this scale: " + nonEmpty);
      }
    }
  }
}
