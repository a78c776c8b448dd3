package io.basaltdb.tpch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.DriverManager;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** All 22 TPC-H queries at scale factor 0.01 return the same results on Basalt as on H2. */
class TpchQueriesTest {
  @Test
  void all22QueriesAgreeWithH2() throws Exception {
    Class.forName("io.basaltdb.jdbc.BasaltDriver");
    assertAll22AgreeWithH2("jdbc:basalt:mem:tpch-q;durability=ASYNC", "jdbc:h2:mem:tpch-q");
  }

  /** Loads SF {@link TpchLoadTest#SF} into both URLs' databases and compares the 22 queries. */
  static void assertAll22AgreeWithH2(String basaltUrl, String h2Url) throws Exception {
    try (Connection basalt = DriverManager.getConnection(basaltUrl);
        Connection h2 = DriverManager.getConnection(h2Url)) {
      TpchLoader b = new TpchLoader(() -> DriverManager.getConnection(basaltUrl), true,
          TpchLoadTest.SF, 1, null);
      b.createTables(true);
      b.loadAll("basalt");
      TpchLoader h = new TpchLoader(() -> DriverManager.getConnection(h2Url), false,
          TpchLoadTest.SF, 1, null);
      h.createTables(false);
      h.loadAll("h2");
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
      assertEquals(List.of(), differences);
      assertTrue(nonEmpty >= 20, "most queries return rows at this scale: " + nonEmpty);
    }
  }
}
