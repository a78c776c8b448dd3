package io.basaltdb.sql.ddl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basaltdb.engine.Database;
import io.basaltdb.engine.EngineOptions;
import io.basaltdb.sql.jdbc.BasaltConnections;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Foreign keys (doc/foreign-keys.md) through SQL, compared with H2 running the same script:
 * declared in CREATE TABLE (column and table level, composite, self-referencing) and by ALTER
 * TABLE; child rows without a parent refused; NO ACTION, CASCADE (through a chain) and SET
 * NULL on delete; a failing statement leaving nothing, in and out of transactions; DROP and
 * TRUNCATE of a referenced table; the metadata (JDBC and INFORMATION_SCHEMA); and writers
 * racing a parent's delete never leaving an orphan.
 */
class ForeignKeysTest {
  private static final String[] SCRIPT = {
      "CREATE TABLE dept (id INT PRIMARY KEY, name VARCHAR(20))",
      "CREATE TABLE emp (id INT PRIMARY KEY, dept INT REFERENCES dept (id), boss INT,"
          + " CONSTRAINT emp_boss FOREIGN KEY (boss) REFERENCES emp (id) ON DELETE SET NULL)",
      "CREATE TABLE task (emp INT, n INT, what VARCHAR(20), PRIMARY KEY (emp, n),"
          + " CONSTRAINT task_emp FOREIGN KEY (emp) REFERENCES emp ON DELETE CASCADE)",
      "CREATE TABLE note (id INT PRIMARY KEY, emp INT, n INT, text VARCHAR(20),"
          + " CONSTRAINT note_task FOREIGN KEY (emp, n) REFERENCES task (emp, n)"
          + " ON DELETE CASCADE)",
      "CREATE INDEX note_by_task ON note (emp, n)",
      "INSERT INTO dept VALUES (1, 'ops'), (2, 'dev'), (3, 'empty')",
      "INSERT INTO emp VALUES (10, 1, NULL), (11, 1, 10), (12, 2, 10), (13, 2, 13)",
      "INSERT INTO emp VALUES (14, 9, NULL)",
      "INSERT INTO emp VALUES (15, 2, NULL), (16, 7, NULL)",
      "INSERT INTO emp VALUES (17, NULL, 99)",
      "INSERT INTO emp VALUES (18, NULL, NULL)",
      "UPDATE emp SET dept = 5 WHERE id = 18",
      "UPDATE emp SET dept = 3 WHERE id = 18",
      "UPSERT INTO emp (id, dept) VALUES (19, 8)",
      "INSERT INTO task VALUES (11, 1, 'a'), (11, 2, 'b'), (12, 1, 'c')",
      "INSERT INTO task VALUES (99, 1, 'orphan')",
      "INSERT INTO note VALUES (100, 11, 1, 'x'), (101, 11, 2, 'y'), (102, 12, 1, 'z')",
      "INSERT INTO note VALUES (103, 12, 9, 'no task')",
      "INSERT INTO note VALUES (104, NULL, 9, 'half null')",
      "DELETE FROM dept WHERE id = 3",
      "DELETE FROM dept WHERE id = 3 OR id = 1",
      "SELECT id FROM dept ORDER BY id",
      "DELETE FROM emp WHERE id = 11",
      "SELECT emp, n FROM task ORDER BY emp, n",
      "SELECT id FROM note ORDER BY id",
      "DELETE FROM emp WHERE id = 10",
      "SELECT id, boss FROM emp ORDER BY id",
      "DELETE FROM emp WHERE id = 13",
      "SELECT id, dept, boss FROM emp ORDER BY id",
      "DELETE FROM dept WHERE id = 1",
      "ALTER TABLE emp ADD CONSTRAINT emp_self2 FOREIGN KEY (boss) REFERENCES emp (id)",
      "INSERT INTO emp VALUES (20, NULL, 77)",
      "ALTER TABLE emp DROP CONSTRAINT emp_boss",
      "INSERT INTO emp VALUES (21, NULL, 77)",
      "ALTER TABLE note ADD CONSTRAINT note_emp FOREIGN KEY (emp) REFERENCES emp (id)",
      "DELETE FROM note WHERE id = 104",
      "ALTER TABLE note ADD CONSTRAINT note_emp FOREIGN KEY (emp) REFERENCES emp (id)",
      "ALTER TABLE emp ADD COLUMN extra INT",
      "INSERT INTO emp (id, dept) VALUES (23, 99)",
      "DROP TABLE dept",
      "TRUNCATE TABLE dept",
      "SELECT COUNT(*) FROM emp",
      "DROP TABLE dept CASCADE",
      "INSERT INTO emp VALUES (22, 123, NULL)",
      "SELECT id, dept FROM emp ORDER BY id",
  };

  @Test
  void sameAsH2() throws Exception {
    List<String> basalt;
    try (Database db = Database.openTemporary(EngineOptions.defaults())) {
      basalt = run(BasaltConnections.open(db));
    }
    List<String> h2 = run(DriverManager.getConnection("jdbc:h2:mem:fk;MODE=PostgreSQL"));
    for (int i = 0; i < SCRIPT.length; i++) {
      assertEquals(h2.get(i), basalt.get(i), "step " + i);
    }
  }

  /** Each step's outcome: rows, an update count, or the class of its SQLState (H2: 23506). */
  private static List<String> run(Connection connection) throws SQLException {
    List<String> out = new ArrayList<>();
    try (Connection c = connection; Statement s = c.createStatement()) {
      for (String sql : SCRIPT) {
        String h2 = sql.replace("UPSERT INTO emp (id, dept) VALUES (19, 8)",
            "MERGE INTO emp (id, dept) KEY (id) VALUES (19, 8)");
        String sqlText = c.getMetaData().getDatabaseProductName().startsWith("H2") ? h2 : sql;
        try {
          out.add(sql + ": " + (s.execute(sqlText) ? rows(s.getResultSet())
              : String.valueOf(s.getUpdateCount())));
        } catch (SQLException e) {
          String state = e.getSQLState();
          out.add(sql + ": " + (state.startsWith("23") ? "23" : "refused"));
        }
      }
    }
    return out;
  }

  private static String rows(ResultSet r) throws SQLException {
    StringBuilder b = new StringBuilder();
    try (r) {
      int n = r.getMetaData().getColumnCount();
      while (r.next()) {
        b.append('[');
        for (int i = 1; i <= n; i++) {
          Object v = r.getObject(i);
          b.append(i > 1 ? "," : "").append(v instanceof Number x ? x.longValue() : v);
        }
        b.append(']');
      }
    }
    return b.toString();
  }

  private static final String[] METADATA = {
      "CREATE TABLE p (a INT, b VARCHAR(5), PRIMARY KEY (a, b))",
      "CREATE TABLE c (id INT PRIMARY KEY, pa INT, pb VARCHAR(5),"
          + " CONSTRAINT c_p FOREIGN KEY (pb, pa) REFERENCES p (b, a) ON DELETE CASCADE)",
      "CREATE TABLE d (id INT PRIMARY KEY, c INT, CONSTRAINT d_c FOREIGN KEY (c)"
          + " REFERENCES c (id) ON DELETE SET NULL)",
  };

  /** getImportedKeys, getExportedKeys, getCrossReference and REFERENTIAL_CONSTRAINTS as H2's. */
  @Test
  void metadataAsH2() throws Exception {
    List<String> basalt;
    try (Database db = Database.openTemporary(EngineOptions.defaults())) {
      basalt = metadata(BasaltConnections.open(db), "DEFAULT");
    }
    List<String> h2 = metadata(DriverManager.getConnection("jdbc:h2:mem:fkmeta"), "PUBLIC");
    assertEquals(h2, basalt);
    assertTrue(basalt.toString().contains("C_P"), basalt.toString());
  }

  private static List<String> metadata(Connection connection, String schema)
      throws SQLException {
    List<String> out = new ArrayList<>();
    try (Connection c = connection; Statement s = c.createStatement()) {
      for (String sql : METADATA) {
        s.execute(sql);
      }
      var md = c.getMetaData();
      out.add("imported C: " + keys(md.getImportedKeys(null, schema, "C")));
      out.add("imported D: " + keys(md.getImportedKeys(null, schema, "D")));
      out.add("exported P: " + keys(md.getExportedKeys(null, schema, "P")));
      out.add("exported C: " + keys(md.getExportedKeys(null, schema, "C")));
      out.add("cross P-C: " + keys(md.getCrossReference(null, schema, "P", null, schema, "C")));
      out.add("cross P-D: " + keys(md.getCrossReference(null, schema, "P", null, schema, "D")));
      out.add("referential: " + rows(s.executeQuery("SELECT CONSTRAINT_NAME, UPDATE_RULE,"
          + " DELETE_RULE FROM INFORMATION_SCHEMA.REFERENTIAL_CONSTRAINTS ORDER BY 1")));
      out.add("table constraints: " + rows(s.executeQuery("SELECT TABLE_NAME, CONSTRAINT_NAME"
          + " FROM INFORMATION_SCHEMA.TABLE_CONSTRAINTS WHERE CONSTRAINT_TYPE = 'FOREIGN KEY'"
          + " ORDER BY 2")));
    }
    return out;
  }

  private static String keys(ResultSet r) throws SQLException {
    StringBuilder b = new StringBuilder();
    try (r) {
      while (r.next()) {
        b.append('[').append(r.getString("PKTABLE_NAME")).append('.')
            .append(r.getString("PKCOLUMN_NAME")).append(" <- ")
            .append(r.getString("FKTABLE_NAME")).append('.').append(r.getString("FKCOLUMN_NAME"))
            .append(" #").append(r.getShort("KEY_SEQ")).append(" upd ")
            .append(r.getShort("UPDATE_RULE")).append(" del ").append(r.getShort("DELETE_RULE"))
            .append(' ').append(r.getString("FK_NAME")).append(']');
      }
    }
    return b.toString();
  }

  /**
   * In a transaction: a parent and its child written together; a refused child leaves the
   * transaction going; a delete whose CASCADE reaches a NO ACTION child deletes nothing; a
   * rollback takes everything back.
   */
  @Test
  void transactionsAndAtomicCascades() throws Exception {
    try (Database db = Database.openTemporary(EngineOptions.defaults());
        Connection c = BasaltConnections.open(db); Statement s = c.createStatement()) {
      s.execute("CREATE TABLE a (id INT PRIMARY KEY)");
      s.execute("CREATE TABLE b (id INT PRIMARY KEY, a INT REFERENCES a ON DELETE CASCADE)");
      s.execute("CREATE TABLE x (id INT PRIMARY KEY, b INT REFERENCES b)");
      c.setAutoCommit(false);
      s.execute("INSERT INTO a VALUES (1), (2)");
      s.execute("INSERT INTO b VALUES (10, 1), (11, 1), (20, 2)");
      SQLException orphan = assertThrows(SQLException.class,
          () -> s.execute("INSERT INTO b VALUES (30, 3)"));
      assertEquals("23503", orphan.getSQLState());
      assertTrue(orphan.getMessage().contains("(A)=(3)"), orphan.getMessage());
      s.execute("INSERT INTO x VALUES (100, 11)");
      c.commit();
      SQLException blocked = assertThrows(SQLException.class,
          () -> s.execute("DELETE FROM a WHERE id = 1"));
      assertEquals("23503", blocked.getSQLState(), blocked.getMessage());
      assertEquals("[1][2]", rows(s.executeQuery("SELECT id FROM a ORDER BY id")));
      assertEquals("[10][11][20]", rows(s.executeQuery("SELECT id FROM b ORDER BY id")));
      assertEquals(1, s.executeUpdate("DELETE FROM a WHERE id = 2"));
      assertEquals("[10][11]", rows(s.executeQuery("SELECT id FROM b ORDER BY id")));
      c.rollback();
      assertEquals("[10][11][20]", rows(s.executeQuery("SELECT id FROM b ORDER BY id")));
      c.setAutoCommit(true);
      s.execute("DELETE FROM x");
      assertEquals(2, s.executeUpdate("DELETE FROM a"));
      assertEquals("", rows(s.executeQuery("SELECT id FROM b")));
    }
  }

  /**
   * Tables made while another connection's transaction is open (its snapshot older than them):
   * that transaction's checks do not leave a view of the keys without them for later
   * statements (what Flyway met: its history connection keeps a transaction open).
   */
  @Test
  void keysMadeDuringAnOpenTransactionAreSeenAfterIt() throws Exception {
    try (Database db = Database.openTemporary(EngineOptions.defaults());
        Connection c = BasaltConnections.open(db); Statement s = c.createStatement();
        Connection other = BasaltConnections.open(db); Statement o = other.createStatement()) {
      s.execute("CREATE TABLE x (id INT PRIMARY KEY)");
      c.setAutoCommit(false);
      rows(s.executeQuery("SELECT COUNT(*) FROM x")); // the transaction's snapshot
      o.execute("CREATE TABLE p (id INT PRIMARY KEY)");
      o.execute("CREATE TABLE ch (id INT PRIMARY KEY, p INT REFERENCES p)");
      o.execute("INSERT INTO p VALUES (1)");
      SQLException e = assertThrows(SQLException.class,
          () -> s.execute("INSERT INTO ch VALUES (1, 1)"));
      assertEquals("23503", e.getSQLState(), e.getMessage()); // p's row is after its snapshot
      c.rollback();
      c.setAutoCommit(true);
      assertEquals(1, s.executeUpdate("INSERT INTO ch VALUES (1, 1)"));
      assertEquals(1, o.executeUpdate("INSERT INTO ch VALUES (2, 1)"));
    }
  }

  /** Kept in the catalog: enforced after the database is opened again. */
  @Test
  void keptAcrossARestart(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
      throws Exception {
    try (Database db = Database.open(dir.resolve("db"), EngineOptions.defaults());
        Connection c = BasaltConnections.open(db); Statement s = c.createStatement()) {
      s.execute("CREATE TABLE a (id BIGINT PRIMARY KEY)");
      s.execute("CREATE TABLE b (id INT PRIMARY KEY, a SMALLINT,"
          + " CONSTRAINT b_a FOREIGN KEY (a) REFERENCES a ON DELETE CASCADE)");
      s.execute("INSERT INTO a VALUES (1)");
      s.execute("INSERT INTO b VALUES (1, 1)");
    }
    try (Database db = Database.open(dir.resolve("db"), EngineOptions.defaults());
        Connection c = BasaltConnections.open(db); Statement s = c.createStatement()) {
      SQLException e = assertThrows(SQLException.class,
          () -> s.execute("INSERT INTO b VALUES (2, 2)"));
      assertEquals("23503", e.getSQLState(), e.getMessage());
      assertEquals(1, s.executeUpdate("DELETE FROM a"));
      assertEquals("", rows(s.executeQuery("SELECT id FROM b")));
    }
  }

  /** A JDBC batch: the rows before a refused one stay written, as each was its own statement. */
  @Test
  void batchRowsBeforeARefusedOneStay() throws Exception {
    try (Database db = Database.openTemporary(EngineOptions.defaults());
        Connection c = BasaltConnections.open(db); Statement s = c.createStatement()) {
      s.execute("CREATE TABLE a (id INT PRIMARY KEY)");
      s.execute("CREATE TABLE b (id INT PRIMARY KEY, a INT REFERENCES a)");
      s.execute("INSERT INTO a VALUES (1)");
      try (PreparedStatement p = c.prepareStatement("INSERT INTO b VALUES (?, ?)")) {
        for (int[] row : new int[][] {{1, 1}, {2, 1}, {3, 5}, {4, 1}}) {
          p.setInt(1, row[0]);
          p.setInt(2, row[1]);
          p.addBatch();
        }
        java.sql.BatchUpdateException e = assertThrows(java.sql.BatchUpdateException.class,
            p::executeBatch);
        assertEquals("23503", e.getSQLState(), e.getMessage());
        assertEquals("[1, 1]", java.util.Arrays.toString(e.getUpdateCounts()));
      }
      assertEquals("[1][2]", rows(s.executeQuery("SELECT id FROM b ORDER BY id")));
    }
  }

  /** NOT ENFORCED: declared and listed, never checked; bad declarations refused. */
  @Test
  void notEnforcedIsDeclaredOnly() throws Exception {
    try (Database db = Database.openTemporary(EngineOptions.defaults());
        Connection c = BasaltConnections.open(db); Statement s = c.createStatement()) {
      s.execute("CREATE TABLE a (id INT PRIMARY KEY)");
      s.execute("CREATE TABLE b (id INT PRIMARY KEY, a INT,"
          + " CONSTRAINT b_a FOREIGN KEY (a) REFERENCES a NOT ENFORCED)");
      assertEquals(1, s.executeUpdate("INSERT INTO b VALUES (1, 42)"));
      assertEquals("[B_A]", rows(s.executeQuery("SELECT CONSTRAINT_NAME FROM"
          + " INFORMATION_SCHEMA.REFERENTIAL_CONSTRAINTS")));
      SQLException e = assertThrows(SQLException.class, () -> s.execute(
          "CREATE TABLE bad (id INT PRIMARY KEY, a VARCHAR(3) REFERENCES a)"));
      assertEquals("42804", e.getSQLState(), e.getMessage());
      e = assertThrows(SQLException.class, () -> s.execute(
          "CREATE TABLE bad (id INT PRIMARY KEY, a INT REFERENCES nowhere)"));
      assertEquals("42P01", e.getSQLState(), e.getMessage());
      e = assertThrows(SQLException.class, () -> s.execute(
          "CREATE TABLE bad (id INT PRIMARY KEY, a INT REFERENCES b (a))"));
      assertEquals("42830", e.getSQLState(), e.getMessage());
      e = assertThrows(SQLException.class, () -> s.execute(
          "CREATE TABLE bad (id INT PRIMARY KEY, a INT, FOREIGN KEY (nope) REFERENCES a)"));
      assertEquals("42703", e.getSQLState(), e.getMessage());
      e = assertThrows(SQLException.class, () -> s.execute(
          "CREATE TABLE bad (id INT PRIMARY KEY, a INT REFERENCES a ON DELETE SET DEFAULT)"));
      assertEquals("0A000", e.getSQLState(), e.getMessage());
      e = assertThrows(SQLException.class, () -> s.execute("ALTER TABLE b DROP COLUMN a"));
      assertEquals("2BP01", e.getSQLState(), e.getMessage());
    }
  }

  /**
   * The two interleavings that would leave an orphan, made deterministic with a transaction:
   * a child written while its parent is deleted and committed, and a parent deleted while a
   * child is written and committed. The second committer fails with 40001, nothing of it
   * applied.
   */
  @Test
  void theSecondOfTwoRacingWritersFails() throws Exception {
    try (Database db = Database.openTemporary(EngineOptions.defaults());
        Connection c = BasaltConnections.open(db); Statement s = c.createStatement();
        Connection other = BasaltConnections.open(db); Statement o = other.createStatement()) {
      s.execute("CREATE TABLE a (id INT PRIMARY KEY)");
      s.execute("CREATE TABLE b (id INT PRIMARY KEY, a INT REFERENCES a)");
      s.execute("INSERT INTO a VALUES (7), (8)");
      c.setAutoCommit(false);
      s.execute("INSERT INTO b VALUES (1, 7)"); // parent 7 checked
      assertEquals(1, o.executeUpdate("DELETE FROM a WHERE id = 7")); // no child it can see
      SQLException e = assertThrows(SQLException.class, c::commit);
      assertEquals("40001", e.getSQLState(), e.getMessage());
      s.execute("DELETE FROM a WHERE id = 8"); // no child: deleted
      assertEquals(1, o.executeUpdate("INSERT INTO b VALUES (2, 8)")); // parent 8 still there
      e = assertThrows(SQLException.class, c::commit);
      assertEquals("40001", e.getSQLState(), e.getMessage());
      c.setAutoCommit(true);
      assertEquals("[8]", rows(s.executeQuery("SELECT id FROM a ORDER BY id")));
      assertEquals("[2,8]", rows(s.executeQuery("SELECT id, a FROM b ORDER BY id")));
    }
  }

  /**
   * Writers inserting children while another deletes their parents (NO ACTION): whatever
   * interleaving, every child left has its parent. Randomized: prints its seed.
   */
  @Test
  void racingDeletesNeverLeaveOrphans() throws Exception {
    String p = System.getProperty("basalt.seed");
    long seed = p != null && !p.isEmpty() ? Long.parseLong(p) : System.nanoTime();
    System.out.println("ForeignKeysTest: seed=" + seed + " (replay with -Dbasalt.seed=" + seed
        + ")");
    try (Database db = Database.openTemporary(EngineOptions.defaults());
        Connection c = BasaltConnections.open(db); Statement s = c.createStatement()) {
      s.execute("CREATE TABLE a (id INT PRIMARY KEY)");
      s.execute("CREATE TABLE b (id INT PRIMARY KEY, a INT REFERENCES a)");
      StringBuilder parents = new StringBuilder();
      for (int i = 0; i < 200; i++) {
        parents.append(i > 0 ? "," : "").append('(').append(i).append(')');
      }
      s.execute("INSERT INTO a VALUES " + parents);
      AtomicInteger inserted = new AtomicInteger();
      AtomicInteger deleted = new AtomicInteger();
      Thread inserter = new Thread(() -> {
        Random r = new Random(seed);
        try (Connection w = BasaltConnections.open(db);
            PreparedStatement ins = w.prepareStatement("INSERT INTO b VALUES (?, ?)")) {
          for (int i = 0; i < 600; i++) {
            ins.setInt(1, i);
            ins.setInt(2, r.nextInt(200));
            try {
              inserted.addAndGet(ins.executeUpdate());
            } catch (SQLException e) {
              assertTrue(e.getSQLState().equals("23503") || e.getSQLState().equals("40001"),
                  e.getSQLState() + " " + e.getMessage());
            }
          }
        } catch (SQLException e) {
          throw new AssertionError(e);
        }
      });
      inserter.start();
      Random r = new Random(seed + 1);
      try (Connection w = BasaltConnections.open(db);
          PreparedStatement del = w.prepareStatement("DELETE FROM a WHERE id = ?")) {
        for (int i = 0; i < 400; i++) {
          del.setInt(1, r.nextInt(200));
          try {
            deleted.addAndGet(del.executeUpdate());
          } catch (SQLException e) {
            assertTrue(e.getSQLState().equals("23503") || e.getSQLState().equals("40001"),
                e.getSQLState() + " " + e.getMessage());
          }
        }
      }
      inserter.join();
      assertEquals("", rows(s.executeQuery(
          "SELECT b.id, b.a FROM b LEFT JOIN a ON b.a = a.id WHERE a.id IS NULL")));
      assertTrue(inserted.get() > 0 && deleted.get() > 0,
          "inserted " + inserted + ", deleted " + deleted);
      System.out.println("ForeignKeysTest: " + inserted + " children inserted, " + deleted
          + " parents deleted, no orphan");
    }
  }
}
