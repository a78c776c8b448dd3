package io.basaltdb.hbase;

import static io.basaltdb.sql.SqlTestSupport.rows;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The SQL surface over HBase: DDL, DML with exact counts, reads, errors. */
class HBaseSqlTest {
  @Test
  void tablesRowsAndCounts() throws Exception {
    try (Connection c = DriverManager.getConnection(SharedCluster.url(""));
        Statement st = c.createStatement()) {
      st.execute("CREATE TABLE people (id BIGINT NOT NULL PRIMARY KEY, name VARCHAR,"
          + " age INTEGER)");
      assertEquals(3, st.executeUpdate("INSERT INTO people VALUES (1, 'ann', 31),"
          + " (2, 'bob', 42), (3, 'cy', 27)"));
      assertEquals(List.of("2|bob|42"), rows(c, "SELECT * FROM people WHERE id = 2"));
      assertEquals(List.of("1|ann", "3|cy"),
          rows(c, "SELECT id, name FROM people WHERE age < 40 ORDER BY id"));
      assertEquals(List.of("3|cy", "2|bob", "1|ann"),
          rows(c, "SELECT id, name FROM people ORDER BY id DESC"));
      SQLException dup = assertThrows(SQLException.class,
          () -> st.executeUpdate("INSERT INTO people VALUES (2, 'bo', 1)"));
      assertEquals("23505", dup.getSQLState());
      assertEquals(2, st.executeUpdate("UPDATE people SET age = age + 1 WHERE age > 30"));
      assertEquals(List.of("32", "43", "27"), rows(c, "SELECT age FROM people ORDER BY id"));
      assertEquals(1, st.executeUpdate("DELETE FROM people WHERE name = 'cy'"));
      assertEquals(List.of("2"), rows(c, "SELECT COUNT(*) FROM people"));
      try (PreparedStatement p = c.prepareStatement("UPSERT INTO people VALUES (?, ?, ?)")) {
        for (int i = 10; i < 20; i++) {
          p.setLong(1, i);
          p.setString(2, "p" + i);
          p.setInt(3, i);
          p.addBatch();
        }
        int[] counts = p.executeBatch();
        assertEquals(10, counts.length);
      }
      assertEquals(List.of("12|220"), rows(c, "SELECT COUNT(*), SUM(age) FROM people"));
      st.execute("DROP TABLE people");
      SQLException gone = assertThrows(SQLException.class,
          () -> st.executeQuery("SELECT * FROM people"));
      assertTrue(gone.getMessage().contains("PEOPLE"), gone.getMessage());
    }
  }

  /**
   * With auto-commit off over HBase, a transaction kept in the client: its statements see its own
   * writes, a duplicate key is refused by the statement that causes it (which leaves nothing),
   * savepoints and rollback take writes back, a row deleted and written again in one millisecond
   * stays written; the metadata says the commit is not atomic (no transactions).
   */
  @Test
  void ownWritesAndStatementErrorsOverHBase() throws Exception {
    try (Connection c = DriverManager.getConnection(SharedCluster.url(""));
        Connection other = DriverManager.getConnection(SharedCluster.url(""));
        Statement st = c.createStatement()) {
      st.executeUpdate("CREATE TABLE tx_acct (id INTEGER PRIMARY KEY, bal BIGINT, name VARCHAR(5))");
      st.executeUpdate("INSERT INTO tx_acct VALUES (1, 100, 'a'), (2, 100, 'b')");
      assertFalse(c.getMetaData().supportsTransactions());
      assertEquals(Connection.TRANSACTION_NONE, c.getTransactionIsolation());
      c.setAutoCommit(false);
      st.executeUpdate("INSERT INTO tx_acct VALUES (3, 0, 'c')");
      assertEquals(1, st.executeUpdate("UPDATE tx_acct SET bal = bal + 5 WHERE id = 3"));
      assertEquals(List.of("3|205"), txRows(st, "SELECT COUNT(*), SUM(bal) FROM tx_acct"));
      assertEquals(List.of("2|200"), txRows(other.createStatement(),
          "SELECT COUNT(*), SUM(bal) FROM tx_acct"), "nothing stored before the commit");
      SQLException dup = assertThrows(SQLException.class,
          () -> st.executeUpdate("INSERT INTO tx_acct VALUES (4, 1, 'd'), (3, 1, 'x')"));
      assertEquals("23505", dup.getSQLState());
      SQLException tooLong = assertThrows(SQLException.class,
          () -> st.executeUpdate("UPDATE tx_acct SET name = 'toolong' WHERE id = 1"));
      assertEquals("22001", tooLong.getSQLState());
      st.execute("SAVEPOINT s");
      st.executeUpdate("DELETE FROM tx_acct WHERE id = 2");
      st.execute("ROLLBACK TO SAVEPOINT s");
      st.executeUpdate("DELETE FROM tx_acct WHERE id = 1");
      st.executeUpdate("INSERT INTO tx_acct VALUES (1, 7, 'again')"); // same millisecond, likely
      assertEquals(List.of("1|7", "2|100", "3|5"), txRows(st, "SELECT id, bal FROM tx_acct ORDER BY id"));
      c.commit();
      assertEquals(List.of("1|7", "2|100", "3|5"), txRows(other.createStatement(),
          "SELECT id, bal FROM tx_acct ORDER BY id"));
      st.executeUpdate("UPDATE tx_acct SET bal = 0");
      c.rollback();
      assertEquals(List.of("1|7", "2|100", "3|5"), txRows(other.createStatement(),
          "SELECT id, bal FROM tx_acct ORDER BY id"));
      c.setAutoCommit(true);
      SQLException backup = assertThrows(SQLException.class,
          () -> st.execute("BACKUP TO 'hbase-backup'"));
      assertEquals("0A000", backup.getSQLState());
      assertTrue(backup.getMessage().contains("snapshot")
          && backup.getMessage().contains("ExportSnapshot"), backup.getMessage());
      st.executeUpdate("DROP TABLE tx_acct");
    }
  }

  /**
   * INSERT goes in batched check-and-puts over HBase: every row is tried, a stored or repeated
   * key is refused (23505 naming the first) and the others are written; a batch's update counts
   * say which (EXECUTE_FAILED for each duplicate), the table holds exactly the rows counted 1.
   */
  @Test
  void batchedInsertsRefuseEachDuplicateAndCountEveryRow() throws Exception {
    try (Connection c = DriverManager.getConnection(SharedCluster.url(""));
        Statement st = c.createStatement()) {
      st.executeUpdate("CREATE TABLE ins_b (id BIGINT NOT NULL PRIMARY KEY, v VARCHAR(8) NOT NULL)");
      st.executeUpdate("INSERT INTO ins_b VALUES (10, 'old'), (2400, 'old')");
      List<Long> ids = new ArrayList<>();
      for (long i = 0; i < 2500; i++) {
        ids.add(i == 1200 ? 1100 : i); // 10 and 2400 are stored, 1100 comes twice
      }
      try (PreparedStatement p = c.prepareStatement("INSERT INTO ins_b VALUES (?, ?)")) {
        for (long id : ids) {
          p.setLong(1, id);
          p.setString(2, "n" + id);
          p.addBatch();
        }
        java.sql.BatchUpdateException e = assertThrows(java.sql.BatchUpdateException.class,
            p::executeBatch);
        assertEquals("23505", e.getSQLState());
        assertTrue(e.getMessage().contains("[10]") && e.getMessage().contains("2 more")
            && e.getMessage().contains("2497 of the statement's 2500"), e.getMessage());
        int[] counts = e.getUpdateCounts();
        assertEquals(2500, counts.length);
        for (int i = 0; i < counts.length; i++) {
          int expected = i == 10 || i == 1200 || i == 2400 ? Statement.EXECUTE_FAILED : 1;
          assertEquals(expected, counts[i], "row " + i);
        }
      }
      assertEquals(List.of("2499|" + (2499L * 2500 / 2 - 1200)),
          rows(c, "SELECT COUNT(*), SUM(id) FROM ins_b"));
      assertEquals(List.of("old", "n1100", "old"),
          rows(c, "SELECT v FROM ins_b WHERE id IN (10, 1100, 2400) ORDER BY id"));
      SQLException dup = assertThrows(SQLException.class, () -> st.executeUpdate(
          "INSERT INTO ins_b VALUES (3000, 'a'), (5, 'b'), (3001, 'c')"));
      assertEquals("23505", dup.getSQLState());
      assertTrue(dup.getMessage().contains("[5]")
          && dup.getMessage().contains("2 of the statement's 3"), dup.getMessage());
      assertEquals(List.of("3000|a", "3001|c"),
          rows(c, "SELECT id, v FROM ins_b WHERE id >= 3000 ORDER BY id"));
      // a failure found before a row is sent (a NOT NULL column without a value) stops there
      try (PreparedStatement p = c.prepareStatement("INSERT INTO ins_b VALUES (?, ?)")) {
        for (long id = 4000; id < 5500; id++) {
          p.setLong(1, id);
          p.setString(2, id == 5200 ? null : "m");
          p.addBatch();
        }
        java.sql.BatchUpdateException e = assertThrows(java.sql.BatchUpdateException.class,
            p::executeBatch);
        assertEquals("23502", e.getSQLState(), e.getMessage());
        assertEquals(1200, e.getUpdateCounts().length);
      }
      assertEquals(List.of("1200|4000|5199"),
          rows(c, "SELECT COUNT(*), MIN(id), MAX(id) FROM ins_b WHERE id >= 4000"));
      st.execute("DROP TABLE ins_b");
    }
  }

  /**
   * Two clients inserting overlapping keys in batches at once: each key is written by exactly
   * one of them, and their update counts say which.
   */
  @Test
  void concurrentBatchedInsertsWriteEachKeyOnce() throws Exception {
    try (Connection c = DriverManager.getConnection(SharedCluster.url(""));
        Statement st = c.createStatement()) {
      st.executeUpdate("CREATE TABLE ins_race (id BIGINT NOT NULL PRIMARY KEY, who INTEGER)");
      int[][] counts = new int[2][];
      List<Thread> threads = new ArrayList<>();
      List<Throwable> errors = java.util.Collections.synchronizedList(new ArrayList<>());
      for (int w = 0; w < 2; w++) {
        int who = w;
        threads.add(new Thread(() -> {
          try (Connection own = DriverManager.getConnection(SharedCluster.url(""));
              PreparedStatement p = own.prepareStatement("INSERT INTO ins_race VALUES (?, ?)")) {
            for (int i = 0; i < 3000; i++) { // keys 0..2999, the two clients in opposite orders
              p.setLong(1, who == 0 ? i : 2999 - i);
              p.setInt(2, who);
              p.addBatch();
            }
            try {
              counts[who] = p.executeBatch();
            } catch (java.sql.BatchUpdateException e) {
              counts[who] = e.getUpdateCounts();
            }
          } catch (Throwable t) {
            errors.add(t);
          }
        }));
      }
      threads.forEach(Thread::start);
      for (Thread t : threads) {
        t.join();
      }
      assertEquals(List.of(), errors);
      java.util.Map<String, String> stored = new java.util.HashMap<>();
      for (String r : rows(c, "SELECT id, who FROM ins_race")) {
        stored.put(r.split("\\|")[0], r.split("\\|")[1]);
      }
      assertEquals(3000, stored.size());
      for (int i = 0; i < 3000; i++) {
        int by0 = counts[0][i];
        int by1 = counts[1][2999 - i];
        assertTrue(by0 == 1 ^ by1 == 1, "key " + i + ": " + by0 + " / " + by1);
        assertEquals(by0 == 1 ? "0" : "1", stored.get(String.valueOf(i)), "key " + i);
      }
      st.execute("DROP TABLE ins_race");
    }
  }

  private static List<String> txRows(Statement st, String sql) throws SQLException {
    return rows(st.executeQuery(sql));
  }

  @Test
  void aCounterThatWouldOverflowIsRefusedAndKept() throws Exception {
    try (Connection c = DriverManager.getConnection(SharedCluster.url(""));
        Statement st = c.createStatement()) {
      st.execute("CREATE TABLE big (id INTEGER PRIMARY KEY, n BIGINT)");
      st.executeUpdate("UPSERT INTO big VALUES (1, " + (Long.MAX_VALUE - 1) + "), (2, "
          + (Long.MIN_VALUE + 1) + ")");
      assertEquals(1, st.executeUpdate("UPDATE big SET n = n + 1 WHERE id = 1"));
      assertEquals("22003", assertThrows(SQLException.class,
          () -> st.executeUpdate("UPDATE big SET n = n + 1 WHERE id = 1")).getSQLState());
      assertEquals("22003", assertThrows(SQLException.class,
          () -> st.executeUpdate("UPDATE big SET n = n - 5 WHERE id = 2")).getSQLState());
      assertEquals(List.of(Long.MAX_VALUE + "", (Long.MIN_VALUE + 1) + ""),
          rows(c, "SELECT n FROM big ORDER BY id"), "the refused increments were taken back");
      st.execute("DROP TABLE big");
    }
  }

  /** A UNIQUE constraint over HBase is kept by a unique index kept from the client. */
  @Test
  void uniqueConstraintsHoldOverHBase() throws Exception {
    try (Connection c = DriverManager.getConnection(SharedCluster.url(""));
        Statement st = c.createStatement()) {
      st.execute("CREATE TABLE uq (id INTEGER PRIMARY KEY, v VARCHAR UNIQUE)");
      assertEquals(2, st.executeUpdate("INSERT INTO uq VALUES (1, 'a'), (2, 'b')"));
      SQLException u = assertThrows(SQLException.class,
          () -> st.executeUpdate("UPDATE uq SET v = 'a' WHERE id = 2"));
      assertEquals("23505", u.getSQLState());
      assertEquals(List.of("1|a", "2|b"), rows(c, "SELECT id, v FROM uq ORDER BY id"));
      st.execute("DROP TABLE uq");
    }
  }

  /** Defaults, checks and NOT NULL live in the SQL catalog's HBase table and hold the same. */
  @Test
  void columnConstraintsHoldOverHBase() throws Exception {
    try (Connection c = DriverManager.getConnection(SharedCluster.url(""));
        Statement st = c.createStatement()) {
      st.execute("CREATE TABLE cc (id INTEGER PRIMARY KEY, qty INTEGER DEFAULT 1 CHECK "
          + "(qty > 0), name TEXT NOT NULL, u UNSIGNED_LONG)");
      assertEquals(1, st.executeUpdate("INSERT INTO cc (id, name) VALUES (1, 'a')"));
      assertEquals("23514", assertThrows(SQLException.class,
          () -> st.executeUpdate("INSERT INTO cc VALUES (2, 0, 'b', 1)")).getSQLState());
      assertEquals("23514", assertThrows(SQLException.class,
          () -> st.executeUpdate("UPDATE cc SET u = -1 WHERE id = 1")).getSQLState());
      assertEquals("23502", assertThrows(SQLException.class,
          () -> st.executeUpdate("UPDATE cc SET name = NULL WHERE id = 1")).getSQLState());
    }
    try (Connection other = DriverManager.getConnection(SharedCluster.url(""));
        Statement st = other.createStatement()) { // read back from the catalog by another
      assertEquals(1, st.executeUpdate("INSERT INTO cc (id, name) VALUES (3, 'c')"));
      // an UPSERT's new row gets the defaults (a check-and-put), an old one keeps its values
      assertEquals(1, st.executeUpdate("UPDATE cc SET qty = 7 WHERE id = 3"));
      assertEquals(1, st.executeUpdate("UPSERT INTO cc (id, name) VALUES (3, 'cc')"));
      assertEquals(1, st.executeUpdate("UPSERT INTO cc (id, name) VALUES (4, 'd')"));
      assertEquals(List.of("1|1|a|null", "3|7|cc|null", "4|1|d|null"), rows(other,
          "SELECT * FROM cc ORDER BY id"));
      st.execute("DROP TABLE cc");
    }
  }

  /**
   * ON DUPLICATE KEY over HBase: a compare-and-set on the one column the assignments read,
   * exact under concurrent writers; assignments reading two columns refused.
   */
  @Test
  void onDuplicateKeyIsACompareAndSet() throws Exception {
    try (Connection c = DriverManager.getConnection(SharedCluster.url(""));
        Statement st = c.createStatement()) {
      st.execute("CREATE TABLE odk (id INTEGER PRIMARY KEY, n BIGINT, s VARCHAR)");
      String bump = "UPSERT INTO odk VALUES (1, 0, 'new') ON DUPLICATE KEY UPDATE n = n + 1";
      assertEquals(1, st.executeUpdate(bump));
      assertEquals(1, st.executeUpdate(bump));
      assertEquals(0, st.executeUpdate("UPSERT INTO odk VALUES (1, 9, 'x') "
          + "ON DUPLICATE KEY IGNORE"));
      assertEquals(0, st.executeUpdate("UPSERT INTO odk VALUES (2, 9, 'x') "
          + "ON DUPLICATE KEY UPDATE_ONLY s = 'y'"));
      assertEquals(1, st.executeUpdate("UPSERT INTO odk VALUES (1, 9, 'x') "
          + "ON DUPLICATE KEY UPDATE s = 'seen'"));
      assertEquals(List.of("1|1|seen"), rows(c, "SELECT * FROM odk"));
      assertEquals("0A000", assertThrows(SQLException.class, () -> st.executeUpdate(
          "UPSERT INTO odk VALUES (1, 0, 'x') ON DUPLICATE KEY UPDATE n = n + CHAR_LENGTH(s)"))
          .getSQLState());
      List<Thread> threads = new ArrayList<>();
      List<Throwable> failures = java.util.Collections.synchronizedList(new ArrayList<>());
      for (int t = 0; t < 4; t++) {
        threads.add(new Thread(() -> {
          try (Connection own = DriverManager.getConnection(SharedCluster.url(""));
              PreparedStatement ps = own.prepareStatement("UPSERT INTO odk (id, n) VALUES "
                  + "(?, 1) ON DUPLICATE KEY UPDATE n = n + 1")) {
            for (int i = 0; i < 50; i++) {
              ps.setInt(1, 10 + i % 2);
              ps.executeUpdate();
            }
          } catch (Throwable e) {
            failures.add(e);
          }
        }));
      }
      threads.forEach(Thread::start);
      for (Thread t : threads) {
        t.join();
      }
      assertEquals(List.of(), failures);
      assertEquals(List.of("10|100", "11|100"), rows(c, "SELECT id, n FROM odk WHERE id >= 10 "
          + "ORDER BY id"));
      st.execute("DROP TABLE odk");
    }
  }

  @Test
  void createTableAsSelectOverHBase() throws Exception {
    try (Connection c = DriverManager.getConnection(SharedCluster.url(""));
        Statement st = c.createStatement()) {
      st.execute("CREATE TABLE ctsrc (id INTEGER PRIMARY KEY, v VARCHAR(5))");
      st.executeUpdate("UPSERT INTO ctsrc VALUES (1, 'a'), (2, 'bb'), (3, NULL)");
      st.execute("CREATE TABLE ctcopy (k INTEGER PRIMARY KEY, w VARCHAR(5)) SALT_BUCKETS = 2 "
          + "AS SELECT id * 10, v FROM ctsrc WHERE id < 3");
      st.execute("CREATE TABLE ctplain AS SELECT v, id FROM ctsrc");
      assertEquals(List.of("10|a", "20|bb"), rows(c, "SELECT * FROM ctcopy ORDER BY k"));
      assertEquals(List.of("a|1", "bb|2", "null|3"), rows(c, "SELECT * FROM ctplain ORDER BY id"));
      assertEquals("22001", assertThrows(SQLException.class, () -> st.execute(
          "CREATE TABLE ctbad (k INTEGER PRIMARY KEY, w VARCHAR(1)) AS SELECT id, v FROM ctsrc"))
          .getSQLState());
      assertEquals("42000", assertThrows(SQLException.class,
          () -> rows(c, "SELECT * FROM ctbad")).getSQLState());
      for (String t : List.of("ctsrc", "ctcopy", "ctplain")) {
        st.execute("DROP TABLE " + t);
      }
    }
  }

  /** ARRAY columns and dynamic columns are cells like any other over HBase. */
  @Test
  void arraysAndDynamicColumnsOverHBase() throws Exception {
    try (Connection c = DriverManager.getConnection(SharedCluster.url(""));
        Statement st = c.createStatement()) {
      st.execute("CREATE TABLE arr (id INTEGER PRIMARY KEY, tags VARCHAR(5) ARRAY, n INT[])");
      st.executeUpdate("UPSERT INTO arr VALUES (1, ARRAY['a', 'bb'], ARRAY[1, 2]), "
          + "(2, NULL, ARRAY[3])");
      st.executeUpdate("UPSERT INTO arr (id, seen BIGINT) VALUES (2, 42)");
      assertEquals(List.of("1|bb|2"), rows(c, "SELECT id, tags[2], CARDINALITY(n) FROM arr "
          + "WHERE 'a' = ANY(tags)"));
      assertEquals(List.of("1|null", "2|42"), rows(c, "SELECT id, seen FROM arr (seen BIGINT) "
          + "ORDER BY id"));
      assertEquals("22001", assertThrows(SQLException.class, () -> st.executeUpdate(
          "UPSERT INTO arr (id, tags) VALUES (3, ARRAY['toolong'])")).getSQLState());
      // EXPLAIN ANALYZE over HBase: what the client saw; the region servers' reads unknown
      String plan = String.join("\n", rows(c, "EXPLAIN ANALYZE SELECT id FROM arr "
          + "WHERE CARDINALITY(n) > 0"));
      assertTrue(plan.contains("regions=1 rows=2 cells="), plan);
      assertTrue(plan.contains("are not counted"), plan);
      st.execute("DROP TABLE arr");
    }
  }

  /**
   * A foreign key over HBase: enforced, refused (HBase writes one row atomically), nothing
   * made; NOT ENFORCED, declared (listed by JDBC) and not checked.
   */
  @Test
  void foreignKeysAreDeclaredOnly() throws Exception {
    try (Connection c = DriverManager.getConnection(SharedCluster.url(""));
        Statement st = c.createStatement()) {
      st.execute("CREATE TABLE fkp (id INTEGER PRIMARY KEY)");
      SQLException e = assertThrows(SQLException.class, () -> st.execute(
          "CREATE TABLE fkc (id INTEGER PRIMARY KEY, p INTEGER REFERENCES fkp)"));
      assertEquals("0A000", e.getSQLState());
      assertTrue(e.getMessage().contains("NOT ENFORCED"), e.getMessage());
      assertEquals("42000", assertThrows(SQLException.class,
          () -> rows(c, "SELECT * FROM fkc")).getSQLState());
      st.execute("CREATE TABLE fkc (id INTEGER PRIMARY KEY, p INTEGER,"
          + " CONSTRAINT fkc_p FOREIGN KEY (p) REFERENCES fkp NOT ENFORCED)");
      assertEquals(1, st.executeUpdate("INSERT INTO fkc VALUES (1, 42)"));
      try (java.sql.ResultSet r = c.getMetaData().getImportedKeys(null, null, "FKC")) {
        assertTrue(r.next());
        assertEquals("FKC_P", r.getString("FK_NAME"));
        assertEquals("FKP", r.getString("PKTABLE_NAME"));
      }
      st.execute("DROP TABLE fkc");
      st.execute("DROP TABLE fkp");
    }
  }

  /**
   * ROW_TIMESTAMP over HBase, as embedded (RowTimestampTest): every cell at the row's time,
   * ranges read by time, a deleted row written again at its older time shows (the table's
   * families have NEW_VERSION_BEHAVIOR; with HBase's default rule the delete marker, at the
   * statement's time, would hide it), also when one transaction deletes and writes it again.
   */
  @Test
  void rowTimestampTablesOverHBase() throws Exception {
    long t0 = java.sql.Timestamp.valueOf("2026-01-01 00:00:00").getTime();
    java.util.function.IntFunction<String> ts = h -> "TIMESTAMP '"
        + new java.sql.Timestamp(t0 + h * 3_600_000L).toString().replace(".0", "") + "'";
    try (Connection c = DriverManager.getConnection(SharedCluster.url(""));
        Statement st = c.createStatement()) {
      st.execute("CREATE TABLE rts (created TIMESTAMP NOT NULL, id INT NOT NULL, v VARCHAR,"
          + " n BIGINT, CONSTRAINT pk PRIMARY KEY (created ROW_TIMESTAMP, id))");
      for (int h = 0; h < 10; h++) {
        st.executeUpdate("UPSERT INTO rts VALUES (" + ts.apply(h) + ", " + h + ", 'v" + h + "', "
            + h + ")");
      }
      try (org.apache.hadoop.hbase.client.Connection raw =
              org.apache.hadoop.hbase.client.ConnectionFactory.createConnection(
                  SharedCluster.get().configuration());
          org.apache.hadoop.hbase.client.Table t = raw.getTable(
              org.apache.hadoop.hbase.TableName.valueOf("default", "RTS"))) {
        for (var f : t.getDescriptor().getColumnFamilies()) {
          assertTrue(f.isNewVersionBehavior(), f.getNameAsString());
        }
        try (var scanner = t.getScanner(new org.apache.hadoop.hbase.client.Scan())) {
          int cells = 0;
          for (var r : scanner) {
            long rowTime = -1;
            for (var cell : r.rawCells()) {
              rowTime = rowTime < 0 ? cell.getTimestamp() : rowTime;
              assertEquals(rowTime, cell.getTimestamp(), "every cell of a row at one time");
              cells++;
            }
            assertTrue(rowTime >= t0 && rowTime < t0 + 10 * 3_600_000L, "the row's time");
          }
          assertTrue(cells >= 30, "cells: " + cells);
        }
      }
      assertEquals(List.of("5|v5", "6|v6"), rows(c, "SELECT id, v FROM rts WHERE created >= "
          + ts.apply(5) + " AND created < " + ts.apply(7) + " ORDER BY id"));
      assertEquals(1, st.executeUpdate("UPDATE rts SET n = n + 10, v = 'x' WHERE created = "
          + ts.apply(2) + " AND id = 2"));
      assertEquals(List.of("2|x|12"), rows(c, "SELECT id, v, n FROM rts WHERE created = "
          + ts.apply(2)));
      assertEquals(1, st.executeUpdate("DELETE FROM rts WHERE created = " + ts.apply(3)
          + " AND id = 3"));
      assertEquals(List.of(), rows(c, "SELECT id FROM rts WHERE created = " + ts.apply(3)));
      st.executeUpdate("UPSERT INTO rts VALUES (" + ts.apply(3) + ", 3, 'back', 33)");
      assertEquals(List.of("3|back|33"), rows(c, "SELECT id, v, n FROM rts WHERE created >= "
          + ts.apply(3) + " AND created < " + ts.apply(4)));
      c.setAutoCommit(false); // one transaction deletes the row and writes it again
      st.executeUpdate("DELETE FROM rts WHERE created = " + ts.apply(4) + " AND id = 4");
      st.executeUpdate("INSERT INTO rts VALUES (" + ts.apply(4) + ", 4, 'again', 44)");
      c.commit();
      c.setAutoCommit(true);
      assertEquals(List.of("4|again|44"), rows(c, "SELECT id, v, n FROM rts WHERE created >= "
          + ts.apply(4) + " AND created < " + ts.apply(5)));
      assertEquals(List.of("10"), rows(c, "SELECT COUNT(*) FROM rts"));
      st.execute("DROP TABLE rts");
    }
  }

  @Test
  void aClusterThatIsNotThereIsAClearError() {
    long t0 = System.nanoTime();
    SQLException e = assertThrows(SQLException.class, () -> DriverManager.getConnection(
        "jdbc:basalt:hbase:127.0.0.1:1:/nothing;hbase.client.retries.number=1"));
    assertEquals("08001", e.getSQLState());
    System.out.printf("no cluster: refused in %.1f s: %s%n", (System.nanoTime() - t0) / 1e9,
        e.getMessage());
  }
}
