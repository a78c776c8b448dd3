package io.basaltdb.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.basaltdb.engine.Database;
import io.basaltdb.engine.EngineOptions;
import io.basaltdb.sql.jdbc.BasaltConnections;
import java.sql.Connection;
import java.sql.DriverManager;
import org.junit.jupiter.api.Test;

/**
 * Differential test on the embedded engine ({@link RandomQueries}): Basalt and H2 must return
 * the same rows. Seeded and replayable with {@code -Dbasalt.seed=N}.
 */
class SqlVersusH2Test {
  /** With each storage scheme: one cell per column, one cell per family. */
  @org.junit.jupiter.params.ParameterizedTest
  @org.junit.jupiter.params.provider.ValueSource(strings = {"ONE_CELL_PER_COLUMN",
      "SINGLE_CELL_ARRAY_WITH_OFFSETS"})
  void randomQueriesAgreeWithH2(String scheme) throws Exception {
    System.setProperty(Switches.PARALLEL_SCAN_CELLS.property(), "0"); // every multi-region scan in parallel
    try {
      randomQueries("IMMUTABLE_STORAGE_SCHEME=" + scheme);
    } finally {
      System.clearProperty(Switches.PARALLEL_SCAN_CELLS.property());
    }
  }

  /**
   * The same random literal statements with plans shared across literal values switched off
   * (the runs above share them): both ways agree with H2.
   */
  @Test
  void randomQueriesAgreeWithH2WithoutSharedPlans() throws Exception {
    System.setProperty(Switches.SHARED_PLANS.property(), "false");
    try {
      randomQueries("IMMUTABLE_STORAGE_SCHEME=ONE_CELL_PER_COLUMN");
    } finally {
      System.clearProperty(Switches.SHARED_PLANS.property());
    }
  }
  private void randomQueries(String storage) throws Exception {
    long seed = RandomQueries.seed("SqlVersusH2Test");
    try (Database db = Database.openTemporary(EngineOptions.defaults());
        Connection h2 = DriverManager.getConnection("jdbc:h2:mem:versus" + seed);
        Connection b = BasaltConnections.open(db)) {
      assertEquals(450, RandomQueries.run(b, h2, seed, storage),
          "400 queries and 50 bindings compared");
    }
  }
}
