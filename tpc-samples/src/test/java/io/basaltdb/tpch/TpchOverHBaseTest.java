package io.basaltdb.tpch;

import io.basaltdb.hbase.local.LocalHBase;
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
      TpchQueriesTest.assertAll22AgreeWithH2(hbase.jdbcUrl() + ";durability=ASYNC",
          "jdbc:h2:mem:tpch-hbase");
    }
    System.out.printf("TPC-H SF %s over HBase: loads and 22 queries in %.1f s (cluster"
        + " included)%n", TpchLoadTest.SF, (System.nanoTime() - t0) / 1e9);
  }
}
