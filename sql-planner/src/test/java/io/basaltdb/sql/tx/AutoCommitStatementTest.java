package io.basaltdb.sql.tx;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basaltdb.engine.Database;
import io.basaltdb.engine.EngineOptions;
import io.basaltdb.sql.SqlTestSupport;
import io.basaltdb.sql.jdbc.BasaltConnections;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * An auto-commit write statement is all or nothing, on Basalt as on H2 running the same SQL: a
 * multi-row INSERT, INSERT ... SELECT, UPDATE or DELETE that fails at any row (a duplicate key,
 * a unique index, NOT NULL, a value too long, a division by zero computing a row) leaves none of
 * its rows, with the SQLState H2 gives; and concurrent multi-row updates of the same rows lose
 * nothing and are seen whole.
 */
class AutoCommitStatementTest {
  private static final String[] SCHEMA = {
      "CREATE TABLE p (id INT PRIMARY KEY, email VARCHAR(10), n INT NOT NULL)",
      "CREATE UNIQUE INDEX p_email ON p (email)",
      "INSERT INTO p VALUES (1, 'a', 10), (2, 'b', 20), (3, 'c', 30)"};

  /** Each failing statement, then the query whose answer must not have changed. */
  private static final String[] FAILING = {
      "INSERT INTO p VALUES (4, 'd', 40), (1, 'x', 0)", // duplicate key at the second row
      "INSERT INTO p VALUES (4, 'd', 40), (5, 'd', 50)", // unique index within the statement
      "INSERT INTO p VALUES (4, 'd', 40), (5, 'e', NULL)", // NOT NULL
      "INSERT INTO p VALUES (4, 'd', 40), (5, 'far too long', 50)", // 22001
      "INSERT INTO p SELECT id + 10, email || 'z', 100 / (id - 2) FROM p", // 22012 at id 2
      "INSERT INTO p SELECT id + 10, 'same', n FROM p", // unique index at the second row
      "UPDATE p SET n = n + 1, email = CASE WHEN id = 3 THEN 'a' ELSE email END", // unique
      "UPDATE p SET n = 100 / (id - 3)", // 22012 at the last row
      "UPDATE p SET email = email || 'more than ten' WHERE id >= 2", // 22001
      "DELETE FROM p WHERE 10 / (3 - id) > 0"}; // 22012 at id 3, after deleting 1 and 2

  @Test
  void aFailingStatementLeavesNoneOfItsRowsAsOnH2() throws Exception {
    try (Database db = Database.openTemporary(EngineOptions.defaults());
        Connection basalt = BasaltConnections.open(db);
        Connection h2 = DriverManager.getConnection("jdbc:h2:mem:autocommit")) {
      for (Connection c : List.of(basalt, h2)) {
        for (String sql : SCHEMA) {
          execute(c, sql);
        }
      }
      String all = "SELECT id, email, n FROM p ORDER BY id";
      assertEachLeavesTheTableAsOnH2(basalt, h2, FAILING, all);
      // and statements that succeed write every row, with H2's counts
      for (String sql : new String[] {"INSERT INTO p SELECT id + 10, email || 'z', n FROM p",
          "UPDATE p SET n = n + 1 WHERE id > 2", "DELETE FROM p WHERE id IN (1, 11)"}) {
        assertEquals(update(h2, sql), update(basalt, sql), sql);
        assertEquals(SqlTestSupport.rows(h2, all), SqlTestSupport.rows(basalt, all), sql);
      }
    }
  }

  /**
   * Two connections add 1 to ten rows in one auto-commit UPDATE each, many times, while a third
   * sums them: no update is lost (a statement whose commit met the other's runs again) and every
   * sum sees whole statements (a multiple of ten).
   */
  @Test
  void concurrentMultiRowUpdatesLoseNothingAndAreSeenWhole() throws Exception {
    int rounds = 60;
    try (Database db = Database.openTemporary(EngineOptions.defaults());
        Connection setup = BasaltConnections.open(db)) {
      execute(setup, "CREATE TABLE c (id INT PRIMARY KEY, n INT NOT NULL)");
      StringBuilder values = new StringBuilder("INSERT INTO c VALUES ");
      for (int i = 0; i < 10; i++) {
        values.append(i == 0 ? "" : ", ").append('(').append(i).append(", 0)");
      }
      execute(setup, values.toString());
      AtomicReference<Throwable> failed = new AtomicReference<>();
      List<Thread> threads = new ArrayList<>();
      for (int t = 0; t < 2; t++) {
        threads.add(new Thread(() -> {
          try (Connection c = BasaltConnections.open(db)) {
            for (int i = 0; i < rounds; i++) {
              assertEquals(10, update(c, "UPDATE c SET n = n + 1"));
            }
          } catch (Throwable e) {
            failed.compareAndSet(null, e);
          }
        }));
      }
      List<Integer> sums = new ArrayList<>();
      threads.forEach(Thread::start);
      try (Connection auditor = BasaltConnections.open(db)) {
        while (threads.stream().anyMatch(Thread::isAlive)) {
          sums.add(Integer.parseInt(SqlTestSupport.rows(auditor, "SELECT SUM(n) FROM c").get(0)));
        }
      }
      for (Thread t : threads) {
        t.join();
      }
      assertNull(failed.get());
      assertEquals(List.of(String.valueOf(2 * rounds)),
          SqlTestSupport.rows(setup, "SELECT DISTINCT n FROM c"), "no update lost");
      for (int s : sums) {
        assertEquals(0, s % 10, "a sum saw part of a statement: " + sums);
      }
    }
  }

  /**
   * Three connections add 1 to rows they read (not a counter: read, then written), many times,
   * in auto-commit: one row by its key on a plain table (one row, once written directly) and on
   * a table with an enforced foreign key, and two rows by a key range (a transaction of its
   * own). A statement whose rows another wrote between its read and its commit must run again
   * and read them again: no update is lost, as on H2.
   */
  @Test
  void concurrentReadThenWriteUpdatesLoseNothing() throws Exception {
    int rounds = 150;
    try (Database db = Database.openTemporary(EngineOptions.defaults());
        Connection setup = BasaltConnections.open(db)) {
      execute(setup, "CREATE TABLE p (id INT PRIMARY KEY)");
      execute(setup, "INSERT INTO p VALUES (1)");
      execute(setup, "CREATE TABLE plain (id INT PRIMARY KEY, n INT NOT NULL)");
      execute(setup, "CREATE TABLE pair (id INT PRIMARY KEY, n INT NOT NULL)");
      execute(setup, "CREATE TABLE child (id INT PRIMARY KEY, pid INT REFERENCES p (id),"
          + " n INT NOT NULL)");
      execute(setup, "INSERT INTO plain VALUES (7, 0)");
      execute(setup, "INSERT INTO pair VALUES (7, 0), (8, 0)");
      execute(setup, "INSERT INTO child VALUES (7, 1, 0)");
      for (String table : List.of("plain", "child", "pair")) {
        String update = "UPDATE " + table + " SET n = CASE WHEN n >= 0 THEN n + 1 END WHERE id "
            + (table.equals("pair") ? ">= ?" : "= ?");
        AtomicReference<Throwable> failed = new AtomicReference<>();
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < 3; t++) {
          threads.add(new Thread(() -> {
            try (Connection c = BasaltConnections.open(db);
                java.sql.PreparedStatement p = c.prepareStatement(update)) {
              for (int i = 0; i < rounds; i++) {
                p.setInt(1, 7);
                assertEquals(table.equals("pair") ? 2 : 1, p.executeUpdate());
              }
            } catch (Throwable e) {
              failed.compareAndSet(null, e);
            }
          }));
        }
        threads.forEach(Thread::start);
        for (Thread t : threads) {
          t.join();
        }
        assertNull(failed.get(), table);
        assertEquals(List.of(String.valueOf(3 * rounds)),
            SqlTestSupport.rows(setup, "SELECT DISTINCT n FROM " + table), table);
      }
    }
  }

  /**
   * Runs each of {@code failing} on both connections: H2 refuses it, Basalt with the same
   * SQLState, and neither changes what {@code all} answers.
   */
  static void assertEachLeavesTheTableAsOnH2(Connection basalt, Connection h2,
      String[] failing, String all) throws SQLException {
    List<String> before = SqlTestSupport.rows(h2, all);
    assertEquals(before, SqlTestSupport.rows(basalt, all));
    for (String sql : failing) {
      String h2State = failure(h2, sql);
      String basaltState = failure(basalt, sql);
      assertTrue(h2State != null, "H2 refuses " + sql);
      assertEquals(h2State, basaltState, sql);
      assertEquals(before, SqlTestSupport.rows(h2, all), "H2 after " + sql);
      assertEquals(before, SqlTestSupport.rows(basalt, all), "none of the rows of " + sql);
    }
  }

  static void execute(Connection c, String sql) throws SQLException {
    try (Statement st = c.createStatement()) {
      st.execute(sql);
    }
  }

  static int update(Connection c, String sql) throws SQLException {
    try (Statement st = c.createStatement()) {
      return st.executeUpdate(sql);
    }
  }

  /** The SQLState's class and subclass of the statement's failure, or null if it succeeded. */
  static String failure(Connection c, String sql) {
    try {
      execute(c, sql);
      return null;
    } catch (SQLException e) {
      return e.getSQLState();
    }
  }
}
