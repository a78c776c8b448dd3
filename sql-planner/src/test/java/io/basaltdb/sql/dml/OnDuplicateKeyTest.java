package io.basaltdb.sql.dml;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basaltdb.sql.RandomQueries;
import io.basaltdb.sql.SqlTestBase;
import io.basaltdb.sql.SqlTestSupport;
import io.basaltdb.sql.jdbc.BasaltConnections;
import io.basaltdb.sql.jdbc.SqlErrors;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/**
 * {@code UPSERT ... ON DUPLICATE KEY IGNORE | UPDATE | UPDATE_ONLY} (Phoenix's atomic upsert)
 * and the same clause on INSERT (MySQL's): a new key is written from VALUES, an existing row is
 * left alone or updated from its current values under its lock; compared with H2 in its MySQL
 * mode, and exact under concurrent writers.
 */
class OnDuplicateKeyTest extends SqlTestBase {
  @Test
  void aNewKeyIsInsertedAndAnExistingRowUpdatedFromItsValues() throws Exception {
    update("CREATE TABLE hits (id INTEGER PRIMARY KEY, n BIGINT, s VARCHAR(10))");
    String upsert = "UPSERT INTO hits VALUES (1, 0, 'first') ON DUPLICATE KEY UPDATE n = n + 1";
    assertEquals(1, update(upsert));
    assertEquals(List.of("1|0|first"), rows("SELECT * FROM hits"));
    assertEquals(1, update(upsert));
    assertEquals(1, update(upsert));
    assertEquals(List.of("1|2|first"), rows("SELECT * FROM hits"));
    // the other assignments read the row as it was, standard UPDATE's way
    assertEquals(1, update("UPSERT INTO hits VALUES (1, 0, 'x') ON DUPLICATE KEY UPDATE "
        + "n = n * 10, s = s || CAST(n AS VARCHAR)"));
    assertEquals(List.of("1|20|first2"), rows("SELECT * FROM hits"));
    // IGNORE: a new key is written, an existing row left as it is (and not counted)
    assertEquals(0, update("UPSERT INTO hits VALUES (1, 5, 'y') ON DUPLICATE KEY IGNORE"));
    assertEquals(1, update("UPSERT INTO hits VALUES (2, 5, 'y') ON DUPLICATE KEY IGNORE"));
    // UPDATE_ONLY: a new key is not written
    assertEquals(0, update("UPSERT INTO hits VALUES (3, 5, 'z') ON DUPLICATE KEY UPDATE_ONLY "
        + "n = n - 1"));
    assertEquals(1, update("UPSERT INTO hits VALUES (2, 5, 'z') ON DUPLICATE KEY UPDATE_ONLY "
        + "n = n - 1, s = NULL"));
    assertEquals(List.of("1|20|first2", "2|4|null"), rows("SELECT * FROM hits ORDER BY id"));
    // several rows, one key twice: in order, the second sees the first
    assertEquals(3, update("UPSERT INTO hits (id, n) VALUES (7, 1), (7, 1), (1, 0) "
        + "ON DUPLICATE KEY UPDATE n = n + 100"));
    assertEquals(List.of("1|120|first2", "2|4|null", "7|101|null"),
        rows("SELECT * FROM hits ORDER BY id"));
    // MySQL's spelling, on INSERT
    assertEquals(1, update("INSERT INTO hits (id, n, s) VALUES (2, 0, 'w') "
        + "ON DUPLICATE KEY UPDATE s = 'was ' || CAST(n AS VARCHAR)"));
    assertEquals(List.of("2|4|was 4"), rows("SELECT * FROM hits WHERE id = 2"));
  }

  @Test
  void parametersAndLiteralsBindPerExecution() throws Exception {
    update("CREATE TABLE cnt (k VARCHAR(8) PRIMARY KEY, n BIGINT NOT NULL, t INTEGER)");
    try (PreparedStatement ps = c.prepareStatement("UPSERT INTO cnt (k, n) VALUES (?, ?) "
        + "ON DUPLICATE KEY UPDATE n = n + ?")) {
      for (int i = 0; i < 5; i++) {
        ps.setString(1, i % 2 == 0 ? "even" : "odd");
        ps.setLong(2, 1000 + i);
        ps.setLong(3, i);
        assertEquals(1, ps.executeUpdate());
      }
    }
    // even: 1000, +2, +4; odd: 1001, +3
    assertEquals(List.of("even|1006", "odd|1004"), rows("SELECT k, n FROM cnt ORDER BY k"));
    for (int i = 1; i <= 3; i++) { // literal statements differing in values share a plan
      update("UPSERT INTO cnt (k, n) VALUES ('lit', " + i + ") ON DUPLICATE KEY UPDATE n = n + "
          + (10 * i) + ", t = " + i);
    }
    assertEquals(List.of("lit|51|3"), rows("SELECT k, n, t FROM cnt WHERE k = 'lit'"));
  }

  /** With auto-commit off the clause runs at commit, on the row as it is then. */
  @Test
  void aTransactionAppliesTheClauseAtCommit() throws Exception {
    update("CREATE TABLE tx (id INTEGER PRIMARY KEY, n BIGINT)");
    update("UPSERT INTO tx VALUES (1, 100)");
    c.setAutoCommit(false);
    try (PreparedStatement ps = c.prepareStatement("UPSERT INTO tx VALUES (?, 0) "
        + "ON DUPLICATE KEY UPDATE n = n + ?")) {
      for (long add : new long[] {1, 20, 300}) {
        ps.setInt(1, 1);
        ps.setLong(2, add);
        ps.executeUpdate();
      }
      ps.setInt(1, 2);
      ps.setLong(2, 5);
      ps.executeUpdate();
      update("UPDATE tx SET n = n + 1000 WHERE id = 1"); // another statement, in order
      c.commit();
    } finally {
      c.setAutoCommit(true);
    }
    assertEquals(List.of("1|1421", "2|0"), rows("SELECT id, n FROM tx ORDER BY id"));
  }

  @Test
  void concurrentIncrementsAreExact() throws Exception {
    update("CREATE TABLE ctr (id INTEGER PRIMARY KEY, n BIGINT, m INTEGER)");
    int threads = 4;
    int each = 300;
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<?>> done = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        done.add(pool.submit(() -> {
          try (Connection own = BasaltConnections.open(db);
              PreparedStatement ps = own.prepareStatement("UPSERT INTO ctr VALUES (?, 1, 1) "
                  + "ON DUPLICATE KEY UPDATE n = n + 1, m = m + 2")) {
            for (int i = 0; i < each; i++) {
              ps.setInt(1, i % 3);
              ps.executeUpdate();
            }
          }
          return null;
        }));
      }
      for (Future<?> f : done) {
        f.get();
      }
    } finally {
      pool.shutdownNow();
    }
    assertEquals(List.of("0|400|799", "1|400|799", "2|400|799"),
        rows("SELECT id, n, m FROM ctr ORDER BY id"));
  }

  @Test
  void badClausesAndValuesAreRefusedAndWriteNothing() throws Exception {
    update("CREATE TABLE r (id INTEGER PRIMARY KEY, n INTEGER NOT NULL, s VARCHAR(3), "
        + "CHECK (n < 100))");
    update("UPSERT INTO r VALUES (1, 1, 'a')");
    assertState("0A000", "UPSERT INTO r VALUES (1, 1, 'a') ON DUPLICATE KEY UPDATE id = 2");
    assertState("23502", "UPSERT INTO r VALUES (1, 1, 'a') ON DUPLICATE KEY UPDATE n = NULL");
    assertState("23514", "UPSERT INTO r VALUES (1, 1, 'a') ON DUPLICATE KEY UPDATE n = n + 99");
    assertState("22001", "UPSERT INTO r VALUES (1, 1, 'a') ON DUPLICATE KEY UPDATE s = 'long'");
    assertState("22003", "UPSERT INTO r VALUES (1, 1, 'a') ON DUPLICATE KEY UPDATE "
        + "n = n + 2147483647");
    assertState("42000", "UPDATE r SET nosuch = 1");
    assertState("42000", "UPSERT INTO r VALUES (1, 1, 'a') ON DUPLICATE KEY UPDATE nosuch = 1");
    assertState("42000", "UPSERT INTO r VALUES (1, 1, 'a') ON DUPLICATE KEY UPDATE n = 1, n = 2");
    assertState("22018", "UPDATE r SET n = 'x'");
    assertState("22018", "UPSERT INTO r VALUES (1, 1, 'a') ON DUPLICATE KEY UPDATE n = 'x'");
    assertState("42000", "UPSERT INTO r VALUES (1, 1, 'a') ON DUPLICATE KEY UPDATE n = "
        + "(SELECT 1)");
    assertEquals(List.of("1|1|a"), rows("SELECT * FROM r"));
    update("CREATE TABLE nokey (a INTEGER, b INTEGER)");
    assertState("0A000", "UPSERT INTO nokey VALUES (1, 1) ON DUPLICATE KEY IGNORE");
  }

  @Test
  void indexesFollowTheUpdatedRow() throws Exception {
    update("CREATE TABLE u (id INTEGER PRIMARY KEY, code VARCHAR(5) UNIQUE, n INTEGER)");
    update("CREATE INDEX u_n ON u (n)");
    update("UPSERT INTO u VALUES (1, 'a', 1), (2, 'b', 2)");
    assertEquals(1, update("UPSERT INTO u VALUES (1, 'zz', 0) ON DUPLICATE KEY UPDATE "
        + "n = n + 10, code = code || 'x'"));
    assertEquals(List.of("1|ax|11"), rows("SELECT id, code, n FROM u WHERE n = 11"));
    assertEquals(List.of(), rows("SELECT id FROM u WHERE n = 1"));
    assertEquals(List.of("1"), rows("SELECT id FROM u WHERE code = 'ax'"));
    assertState("23505", "UPSERT INTO u VALUES (2, 'q', 0) ON DUPLICATE KEY UPDATE code = 'ax'");
    assertEquals(List.of("1|ax|11", "2|b|2"), rows("SELECT id, code, n FROM u ORDER BY id"));
  }

  @Test
  void explainShowsTheClause() throws Exception {
    update("CREATE TABLE e (id INTEGER PRIMARY KEY, n INTEGER)");
    String plan = String.join("\n", rows("EXPLAIN PLAN FOR UPSERT INTO e VALUES (1, 1) "
        + "ON DUPLICATE KEY UPDATE n = n + 1"));
    assertTrue(plan.contains("onDuplicateKey=[UPDATE N = "), plan);
  }

  /**
   * Random INSERTs with the clause on a small key space, one statement at a time: the table
   * after each as H2's in its MySQL mode ({@code INSERT IGNORE} for IGNORE).
   */
  @Test
  void randomStatementsAgreeWithH2() throws Exception {
    long seed = RandomQueries.seed("OnDuplicateKeyTest");
    Random r = new Random(seed);
    try (Connection h2 = DriverManager.getConnection("jdbc:h2:mem:odk" + seed + ";MODE=MySQL")) {
      String ddl = "CREATE TABLE od (id INT PRIMARY KEY, a INT, b BIGINT, s VARCHAR(20))";
      update(ddl);
      try (Statement st = h2.createStatement()) {
        st.executeUpdate(ddl);
      }
      String all = "SELECT id, a, b, s FROM od ORDER BY id";
      for (int i = 0; i < 300; i++) {
        String values = "(" + r.nextInt(12) + ", " + value(r) + ", " + r.nextInt(50) + ", '"
            + (char) ('a' + r.nextInt(26)) + "')";
        String basalt;
        String mysql;
        if (r.nextInt(4) == 0) {
          basalt = "INSERT INTO od VALUES " + values + " ON DUPLICATE KEY IGNORE";
          mysql = "INSERT IGNORE INTO od VALUES " + values;
        } else {
          String set = switch (r.nextInt(5)) {
            case 0 -> "a = a + 1";
            case 1 -> "b = b * 2, s = s || 'x'";
            case 2 -> "a = CASE WHEN a IS NULL THEN 0 ELSE a - 3 END";
            case 3 -> "s = 'set', b = b + a";
            default -> "a = NULL";
          };
          basalt = "INSERT INTO od VALUES " + values + " ON DUPLICATE KEY UPDATE " + set;
          mysql = basalt.replace("s || 'x'", "CONCAT(s, 'x')");
        }
        update(basalt);
        try (Statement st = h2.createStatement()) {
          st.executeUpdate(mysql);
        }
        assertEquals(SqlTestSupport.rows(h2, all), rows(all), "seed " + seed + ", after "
            + basalt);
      }
    }
  }

  private static String value(Random r) {
    return r.nextInt(5) == 0 ? "NULL" : Integer.toString(r.nextInt(20));
  }

  private void assertState(String state, String sql) {
    SQLException e = assertThrows(SQLException.class, () -> update(sql), sql);
    assertEquals(state, SqlErrors.sqlState(e), sql + ": " + e.getMessage());
  }
}
