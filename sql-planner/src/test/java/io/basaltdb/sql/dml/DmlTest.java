package io.basaltdb.sql.dml;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basaltdb.sql.jdbc.BasaltConnections;
import io.basaltdb.sql.jdbc.SqlErrors;
import io.basaltdb.sql.SqlTestBase;
import io.basaltdb.sql.SqlTestSupport;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** UPSERT, UPDATE (with atomic increments), DELETE, INSERT/UPSERT ... SELECT and batches. */
class DmlTest extends SqlTestBase {

  @BeforeEach
  void createTables() throws Exception {
    update("CREATE TABLE acct (id BIGINT NOT NULL PRIMARY KEY, f.name VARCHAR, f.hits BIGINT, "
        + "f.n INTEGER, g.bal DECIMAL(12, 2))");
  }

  @Test
  void upsertOverwritesAndLeavesUnnamedColumnsAlone() throws Exception {
    assertEquals(2, update("UPSERT INTO acct VALUES (1, 'a', 10, 1, 1.50), (2, 'b', 20, 2, NULL)"));
    assertEquals(1, update("UPSERT INTO acct VALUES (1, 'a2', NULL, 5, 2.00)"));
    assertEquals(1, update("UPSERT INTO acct (id, name) VALUES (2, 'b2')"));
    assertEquals(1, update("UPSERT INTO acct (id, hits) VALUES (3, 7)"));
    assertEquals(List.of("1|a2|null|5|2.00", "2|b2|20|2|null", "3|null|7|null|null"),
        rows("SELECT * FROM acct ORDER BY id"));
    assertEquals(3, update("UPSERT INTO acct (id, n) SELECT id, n * 10 FROM acct WHERE id < 3"
        + " UNION ALL SELECT 9, 9 FROM acct WHERE id = 1"));
    assertEquals(List.of("1|50", "2|20", "3|null", "9|9"), rows("SELECT id, n FROM acct ORDER BY id"));
  }

  @Test
  void updateSetsColumnsAndCountsRows() throws Exception {
    update("INSERT INTO acct VALUES (1, 'a', 10, 1, 1.50), (2, 'b', 20, 2, NULL), "
        + "(3, 'c', NULL, 3, 3.00)");
    assertEquals(2, update("UPDATE acct SET name = UPPER(name), bal = 9.99 WHERE id >= 2"));
    assertEquals(0, update("UPDATE acct SET name = 'z' WHERE id = 42"));
    assertEquals(1, update("UPDATE acct SET name = NULL WHERE id = 1"));
    assertEquals(List.of("1|null|10|1|1.50", "2|B|20|2|9.99", "3|C|null|3|9.99"),
        rows("SELECT * FROM acct ORDER BY id"));
    assertEquals(3, update("UPDATE acct SET hits = hits + 5, n = n - 1, bal = bal + 0.01"));
    assertEquals(List.of("1|15|0|1.51", "2|25|1|10.00", "3|null|2|10.00"),
        rows("SELECT id, hits, n, bal FROM acct ORDER BY id"));
    SQLException key = assertThrows(SQLException.class,
        () -> update("UPDATE acct SET id = 7 WHERE id = 1"));
    assertEquals("0A000", SqlErrors.sqlState(key));
    assertTrue(key.getMessage().contains("primary key column ID"), key.getMessage());
    assertEquals(2, update("DELETE FROM acct WHERE hits IS NOT NULL"));
    assertEquals(List.of("3"), rows("SELECT id FROM acct"));
  }

  @Test
  void incrementsShowInThePlan() throws Exception {
    String plan = String.join("\n",
        rows("EXPLAIN PLAN FOR UPDATE acct SET hits = hits + 1 WHERE id = 5"));
    assertTrue(plan.contains("atomicIncrement=[HITS += 1]"), plan);
    assertTrue(plan.contains("keys=[ID = 5"), plan);
    String upsert = String.join("\n", rows("EXPLAIN PLAN FOR UPSERT INTO acct (id) VALUES (1)"));
    assertTrue(upsert.contains("upsert=[true]"), upsert);
  }

  @Test
  void overflowIsAnErrorAndNothingIsWritten() throws Exception {
    update("INSERT INTO acct (id, n) VALUES (1, 2147483600)");
    SQLException e = assertThrows(SQLException.class,
        () -> update("UPDATE acct SET n = n + 100 WHERE id = 1"));
    assertEquals("22003", SqlErrors.sqlState(e));
    assertEquals(List.of("2147483600"), rows("SELECT n FROM acct"));
  }

  @Test
  void concurrentIncrementsNeverLoseAnUpdate() throws Exception {
    update("INSERT INTO acct (id, hits, n, bal) VALUES (1, 0, 0, 0)");
    int threads = 4;
    int each = 150;
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<?>> done = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        done.add(pool.submit(() -> {
          try (Connection own = BasaltConnections.open(db);
              PreparedStatement p = own.prepareStatement(
                  "UPDATE acct SET hits = hits + ?, n = n + 1, bal = bal + 0.5 WHERE id = ?")) {
            for (int i = 0; i < each; i++) {
              p.setLong(1, 2);
              p.setLong(2, 1);
              assertEquals(1, p.executeUpdate());
            }
          }
          return null;
        }));
      }
      for (Future<?> f : done) {
        f.get();
      }
    } finally {
      pool.shutdown();
    }
    int n = threads * each;
    assertEquals(List.of((2 * n) + "|" + n + "|" + (n / 2) + ".00"),
        rows("SELECT hits, n, bal FROM acct"));
  }

  @Test
  void batchesAndParametersWrite() throws Exception {
    try (PreparedStatement p = c.prepareStatement("UPSERT INTO acct (id, name) VALUES (?, ?)")) {
      for (int i = 0; i < 50; i++) {
        p.setLong(1, i);
        p.setString(2, "n" + i);
        p.addBatch();
      }
      int[] counts = p.executeBatch();
      assertEquals(50, counts.length);
      int[] ones = new int[50];
      java.util.Arrays.fill(ones, 1);
      assertArrayEquals(ones, counts);
    }
    assertEquals(List.of("50", "n49"), List.of(rows("SELECT COUNT(*) FROM acct").get(0),
        rows("SELECT name FROM acct WHERE id = 49").get(0)));
  }

  @Test
  void writesAtAnExplicitTimestampAreReadAsOfIt() throws Exception {
    update("INSERT INTO acct (id, name) VALUES (1, 'now')");
    Properties p = new Properties();
    p.setProperty("writeTimestamp", "1000");
    try (Connection past = BasaltConnections.open(db, p)) {
      try (Statement st = past.createStatement()) {
        st.executeUpdate("UPSERT INTO acct (id, name) VALUES (2, 'then')");
      }
    }
    Properties r = new Properties();
    r.setProperty("readTimestamp", "1500");
    try (Connection asOf = BasaltConnections.open(db, r)) {
      assertEquals(List.of("2|then"), SqlTestSupport.rows(asOf, "SELECT id, name FROM acct"));
    }
    assertEquals(List.of("1|now", "2|then"), rows("SELECT id, name FROM acct ORDER BY id"));
    assertEquals(List.of("2|NAME|1970-01-01 00:00:01|then"), rows(
        "SELECT id, column_name, version_ts, val FROM \"ACCT$HISTORY\" WHERE id = 2 "
            + "AND column_name = 'NAME'"));
  }

  @Test
  void forSystemTimeAsOfReadsOldVersions() throws Exception {
    update("CREATE TABLE doc (id INTEGER NOT NULL PRIMARY KEY, body VARCHAR) VERSIONS=5");
    for (long ts : new long[] {1000, 2000, 3000}) {
      Properties p = new Properties();
      p.setProperty("writeTimestamp", Long.toString(ts));
      try (Connection at = BasaltConnections.open(db, p); Statement st = at.createStatement()) {
        st.executeUpdate("UPSERT INTO doc VALUES (1, 'v" + ts + "')");
        if (ts == 2000) {
          st.executeUpdate("UPSERT INTO doc VALUES (2, 'other')");
        }
      }
    }
    assertEquals(List.of("1|v3000", "2|other"), rows("SELECT * FROM doc ORDER BY id"));
    assertEquals(List.of("1|v1000"), rows("SELECT * FROM doc FOR SYSTEM_TIME AS OF "
        + "TIMESTAMP '1970-01-01 00:00:01.999' ORDER BY id"));
    assertEquals(List.of("1|v2000", "2|other"), rows("SELECT * FROM doc FOR SYSTEM_TIME AS OF "
        + "TIMESTAMP '1970-01-01 00:00:02' ORDER BY id"));
    assertEquals(List.of(), rows("SELECT * FROM doc FOR SYSTEM_TIME AS OF "
        + "TIMESTAMP '1970-01-01 00:00:00.999'"));
    String plan = String.join("\n", rows("EXPLAIN PLAN FOR SELECT * FROM doc "
        + "FOR SYSTEM_TIME AS OF TIMESTAMP '1970-01-01 00:00:02' WHERE id = 1"));
    assertTrue(plan.contains("asOf=[1970-01-01T00:00:02Z]") && plan.contains("keys=[ID = 1"),
        plan);
    try (PreparedStatement p = c.prepareStatement(
        "SELECT body FROM doc FOR SYSTEM_TIME AS OF CAST(? AS TIMESTAMP) WHERE id = 1")) {
      p.setTimestamp(1, java.sql.Timestamp.valueOf("1970-01-01 00:00:02.5"),
          java.util.Calendar.getInstance(java.util.TimeZone.getTimeZone("UTC")));
      assertEquals(List.of("v2000"), SqlTestSupport.rows(p.executeQuery()));
    }
  }

  @Test
  void withAutoCommitOffWritesWaitForCommit() throws Exception {
    try (Connection tx = BasaltConnections.open(db); Statement st = tx.createStatement()) {
      tx.setAutoCommit(false);
      assertEquals(2, st.executeUpdate("INSERT INTO acct (id, hits) VALUES (1, 10), (2, 20)"));
      assertEquals(List.of("0"), rows("SELECT COUNT(*) FROM acct"));
      assertEquals(List.of("2"), SqlTestSupport.rows(st.executeQuery(
          "SELECT COUNT(*) FROM acct")), "the transaction sees its own rows");
      tx.commit();
      assertEquals(List.of("1|10", "2|20"), rows("SELECT id, hits FROM acct ORDER BY id"));

      assertEquals(1, st.executeUpdate("UPDATE acct SET hits = hits + 5 WHERE id = 1"));
      assertEquals(1, st.executeUpdate("DELETE FROM acct WHERE id = 2"));
      update("UPDATE acct SET hits = hits + 100 WHERE id = 1"); // another connection, committed
      tx.rollback();
      assertEquals(List.of("1|110", "2|20"), rows("SELECT id, hits FROM acct ORDER BY id"));

      st.executeUpdate("UPDATE acct SET hits = hits + 5 WHERE id = 1");
      update("UPDATE acct SET hits = hits + 100 WHERE id = 1");
      st.executeUpdate("INSERT INTO acct (id) VALUES (3)");
      SQLException dup = assertThrows(SQLException.class,
          () -> st.executeUpdate("INSERT INTO acct (id) VALUES (2)"));
      assertEquals("23505", dup.getSQLState(), "a duplicate is found by its statement");
      st.executeUpdate("INSERT INTO acct (id) VALUES (4)"); // the transaction goes on
      SQLException conflict = assertThrows(SQLException.class, tx::commit);
      assertEquals("40001", conflict.getSQLState(), "row 1 was updated by another meanwhile");
      // a failed commit applies nothing
      assertEquals(List.of("1|210", "2|20"), rows("SELECT id, hits FROM acct ORDER BY id"));

      st.executeUpdate("UPSERT INTO acct (id, name) VALUES (5, 'five')");
      tx.setAutoCommit(true); // JDBC: switching auto-commit on commits
      assertEquals(List.of("five"), rows("SELECT name FROM acct WHERE id = 5"));
      st.executeUpdate("UPSERT INTO acct (id, name) VALUES (6, 'six')");
      assertEquals(List.of("six"), rows("SELECT name FROM acct WHERE id = 6"));
      tx.setAutoCommit(false);
      st.executeUpdate("UPSERT INTO acct (id, name) VALUES (7, 'seven')");
    }
    assertEquals(List.of(), rows("SELECT name FROM acct WHERE id = 7")); // closed: dropped
  }

  @Test
  void sequencesDrawFromAnEngineCounter() throws Exception {
    update("CREATE SEQUENCE ids START WITH 10 INCREMENT BY 5");
    assertEquals(List.of("10"), rows("SELECT NEXT VALUE FOR ids"));
    assertEquals(List.of("15"), rows("SELECT NEXT VALUE FOR ids"));
    assertEquals(3, update("UPSERT INTO acct (id, name) SELECT NEXT VALUE FOR ids, name "
        + "FROM (VALUES ('a'), ('b'), ('c')) AS v (name)"));
    assertEquals(List.of("20|a", "25|b", "30|c"), rows("SELECT id, name FROM acct ORDER BY id"));
    int threads = 3;
    int each = 100;
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    List<Future<List<Long>>> drawn = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      drawn.add(pool.submit(() -> {
        List<Long> got = new ArrayList<>();
        try (Connection own = BasaltConnections.open(db);
            PreparedStatement p = own.prepareStatement("SELECT NEXT VALUE FOR ids")) {
          for (int i = 0; i < each; i++) {
            got.add(Long.parseLong(SqlTestSupport.rows(p.executeQuery()).get(0)));
          }
        }
        return got;
      }));
    }
    java.util.Set<Long> all = new java.util.TreeSet<>();
    for (Future<List<Long>> f : drawn) {
      all.addAll(f.get());
    }
    pool.shutdown();
    assertEquals(threads * each, all.size(), "every value drawn once");
    assertEquals(List.of(35L, 35L + 5L * (threads * each - 1)),
        List.of(((java.util.TreeSet<Long>) all).first(), ((java.util.TreeSet<Long>) all).last()));
    assertEquals("42P07", SqlErrors.sqlState(assertThrows(SQLException.class,
        () -> update("CREATE SEQUENCE ids"))), "a duplicate object");
    update("CREATE SEQUENCE IF NOT EXISTS ids");
    assertEquals("22023", SqlErrors.sqlState(assertThrows(SQLException.class,
        () -> update("CREATE SEQUENCE zero INCREMENT BY 0"))));
    assertEquals("0A000", SqlErrors.sqlState(assertThrows(SQLException.class,
        () -> rows("SELECT CURRENT VALUE FOR ids"))));
    update("CREATE SEQUENCE down START WITH -1 INCREMENT BY -2");
    assertEquals(List.of("-1"), rows("SELECT NEXT VALUE FOR down"));
    assertEquals(List.of("-3"), rows("SELECT NEXT VALUE FOR down"));
    update("DROP SEQUENCE ids");
    assertEquals("42000", SqlErrors.sqlState(assertThrows(SQLException.class,
        () -> rows("SELECT NEXT VALUE FOR ids"))));
    update("DROP SEQUENCE IF EXISTS ids");
  }

  @Test
  void tablesWithoutPrimaryKeyGetAHiddenRowKey() throws Exception {
    update("CREATE TABLE log (msg VARCHAR, n INTEGER)");
    assertEquals(3, update("INSERT INTO log VALUES ('a', 1), ('a', 1), ('b', 7)"));
    assertEquals(List.of("a|1", "a|1", "b|7"), rows("SELECT * FROM log ORDER BY msg"));
    assertEquals(2, update("UPDATE log SET n = n + 1 WHERE msg = 'a'"));
    assertEquals(1, update("UPDATE log SET msg = 'c' WHERE n > 5"));
    assertEquals(List.of("a|2", "a|2", "c|7"), rows("SELECT msg, n FROM log ORDER BY msg"));
    assertEquals(2, update("INSERT INTO log SELECT msg, n * 10 FROM log WHERE msg = 'a'"));
    assertEquals(2, update("DELETE FROM log WHERE n = 20"));
    assertEquals(List.of("3"), rows("SELECT COUNT(*) FROM log"));
    List<String> columns = new ArrayList<>();
    try (var rs = c.getMetaData().getColumns(null, "DEFAULT", "LOG", null)) {
      while (rs.next()) {
        columns.add(rs.getString("COLUMN_NAME"));
      }
    }
    assertEquals(List.of("MSG", "N"), columns);
    update("ALTER TABLE log ADD extra VARCHAR");
    assertEquals(List.of("a|2|null"), rows("SELECT * FROM log WHERE msg = 'a' LIMIT 1"));
    assertEquals("22023", SqlErrors.sqlState(assertThrows(SQLException.class,
        () -> update("CREATE TABLE bad (\"_ROWID\" BIGINT, v INTEGER)"))));
    update("INSERT INTO acct (id, hits) VALUES (1, 2)");
    assertEquals(2, update("DELETE FROM log WHERE n IN (SELECT hits FROM acct)"));
    assertEquals(List.of("c|7|null"), rows("SELECT * FROM log"));
  }
}
