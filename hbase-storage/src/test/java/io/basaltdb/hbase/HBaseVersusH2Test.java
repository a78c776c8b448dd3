package io.basaltdb.hbase;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.basaltdb.sql.RandomQueries;
import java.sql.Connection;
import java.sql.DriverManager;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The embedded engine's differential queries ({@link RandomQueries}) over HBase: key and
 * non-key predicates, IN, LIKE, ORDER BY both ways, LIMIT/OFFSET, GROUP BY, joins, a pre-split
 * table with a DESC key part and a salted one, all giving H2's rows. Seeded; replay with
 * {@code -Dbasalt.seed=N}.
 */
class HBaseVersusH2Test {
  @ParameterizedTest
  @ValueSource(strings = {"ONE_CELL_PER_COLUMN", "SINGLE_CELL_ARRAY_WITH_OFFSETS"})
  void randomQueriesAgreeWithH2(String scheme) throws Exception {
    long seed = RandomQueries.seed("HBaseVersusH2Test");
    try (Connection b = DriverManager.getConnection(SharedCluster.url(""));
        Connection h2 = DriverManager.getConnection("jdbc:h2:mem:hbversus" + seed)) {
      assertEquals(450, RandomQueries.run(b, h2, seed, "IMMUTABLE_STORAGE_SCHEME=" + scheme),
          "400 queries and 50 bindings compared");
    }
  }
}
