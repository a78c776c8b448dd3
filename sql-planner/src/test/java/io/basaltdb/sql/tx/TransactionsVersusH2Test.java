package io.basaltdb.sql.tx;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.basaltdb.engine.Database;
import io.basaltdb.engine.EngineOptions;
import io.basaltdb.sql.SqlTestSupport;
import io.basaltdb.sql.jdbc.BasaltConnections;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Seeded random transactions in one connection, run on Basalt and on H2 alike: reads and writes
 * interleaved (point, range, aggregate and index reads; inserts that may collide, updates of
 * keys, of values and of a unique column, deletes, INSERT ... SELECT, values too long or NULL
 * where not allowed), savepoints set, rolled back to and released, commits and rollbacks. Every
 * answer, update count and error class must be H2's. {@code -Dbasalt.seed=N} replays a run.
 */
class TransactionsVersusH2Test {
  private static final String[] SCHEMA = {
      "CREATE TABLE acct (id INT PRIMARY KEY, bal INT NOT NULL, tag VARCHAR(5))",
      "CREATE UNIQUE INDEX acct_tag ON acct (tag)",
      "CREATE INDEX acct_bal ON acct (bal)"};

  private static final int[] LEVELS = {Connection.TRANSACTION_READ_COMMITTED,
      Connection.TRANSACTION_REPEATABLE_READ, Connection.TRANSACTION_SERIALIZABLE};

  @Test
  void randomTransactionsAnswerAsH2Does() throws Exception {
    String s = System.getProperty("basalt.seed");
    long seed = s != null && !s.isEmpty() ? Long.parseLong(s) : System.nanoTime();
    System.out.println("TransactionsVersusH2Test: seed=" + seed + " (replay with -Dbasalt.seed="
        + seed + ")");
    Random r = new Random(seed);
    try (Database db = Database.openTemporary(EngineOptions.defaults());
        Connection basalt = BasaltConnections.open(db);
        Connection h2 = DriverManager.getConnection("jdbc:h2:mem:txdiff" + seed)) {
      for (String ddl : SCHEMA) {
        for (Connection c : List.of(basalt, h2)) {
          try (Statement st = c.createStatement()) {
            st.execute(ddl);
          }
        }
      }
      for (int i = 0; i < 20; i++) {
        String insert = "INSERT INTO acct VALUES (" + i + ", 100, 't" + i + "')";
        run(basalt, insert);
        run(h2, insert);
      }
      basalt.setAutoCommit(false);
      h2.setAutoCommit(false);
      List<Savepoint[]> savepoints = new ArrayList<>();
      for (int step = 0; step < 1500; step++) {
        String where = "seed " + seed + " step " + step;
        int op = r.nextInt(20);
        if (op == 0 || op == 1) {
          if (op == 0) {
            basalt.commit();
            h2.commit();
          } else {
            basalt.rollback();
            h2.rollback();
          }
          savepoints.clear();
          basalt.setTransactionIsolation(LEVELS[r.nextInt(LEVELS.length)]); // its own code paths
          continue;
        }
        if (op == 2) {
          savepoints.add(new Savepoint[] {basalt.setSavepoint("s" + step),
              h2.setSavepoint("s" + step)});
          continue;
        }
        if (op == 3 && !savepoints.isEmpty()) {
          int i = r.nextInt(savepoints.size());
          Savepoint[] sp = savepoints.get(i);
          if (r.nextBoolean()) {
            basalt.rollback(sp[0]);
            h2.rollback(sp[1]);
            savepoints.subList(i + 1, savepoints.size()).clear();
          } else {
            basalt.releaseSavepoint(sp[0]);
            h2.releaseSavepoint(sp[1]);
            savepoints.subList(i, savepoints.size()).clear();
          }
          continue;
        }
        String sql = statement(r);
        assertEquals(outcome(h2, sql), outcome(basalt, sql), where + ": " + sql);
      }
      basalt.commit();
      h2.commit();
      String all = "SELECT id, bal, tag FROM acct ORDER BY id";
      assertEquals(outcome(h2, all), outcome(basalt, all), "seed " + seed + " at the end");
    }
  }

  private static String statement(Random r) {
    int a = r.nextInt(40);
    int b = a + r.nextInt(8);
    return switch (r.nextInt(16)) {
      case 0, 1 -> "INSERT INTO acct VALUES (" + a + ", " + r.nextInt(200) + ", "
          + (r.nextInt(3) == 0 ? "NULL" : "'t" + r.nextInt(40) + "'") + ")";
      case 2 -> "UPDATE acct SET bal = bal + " + (r.nextInt(21) - 10) + " WHERE id = " + a;
      case 3 -> "UPDATE acct SET bal = bal - 1 WHERE id BETWEEN " + a + " AND " + b;
      case 4 -> "UPDATE acct SET tag = 't" + r.nextInt(40) + "' WHERE id = " + a;
      case 5 -> "DELETE FROM acct WHERE id = " + a;
      case 6 -> "DELETE FROM acct WHERE id BETWEEN " + a + " AND " + b + " AND bal < 100";
      case 7 -> "INSERT INTO acct (id, bal, tag) SELECT id + 40, bal, NULL FROM acct WHERE id"
          + " BETWEEN " + a + " AND " + b;
      case 8 -> "UPDATE acct SET tag = tag || 'long' WHERE id = " + a; // 22001 unless NULL
      case 9 -> "INSERT INTO acct (id, bal) VALUES (" + a + ", NULL)"; // 23502
      case 10 -> "SELECT id, bal, tag FROM acct WHERE id = " + a;
      case 11 -> "SELECT id, bal FROM acct WHERE id BETWEEN " + a + " AND " + b + " ORDER BY id";
      case 12 -> "SELECT COUNT(*), SUM(bal), MIN(bal), MAX(id) FROM acct";
      case 13 -> "SELECT id FROM acct WHERE tag = 't" + a + "'";
      case 14 -> "SELECT id, bal FROM acct WHERE bal > " + (90 + r.nextInt(20)) + " ORDER BY id";
      default -> "SELECT id, tag FROM acct ORDER BY id";
    };
  }

  private static void run(Connection c, String sql) throws SQLException {
    try (Statement st = c.createStatement()) {
      st.execute(sql);
    }
  }

  /** The rows or update count of {@code sql}, or its error's SQLState class and state. */
  private static String outcome(Connection c, String sql) {
    try (PreparedStatement p = c.prepareStatement(sql)) {
      if (p.execute()) {
        try (ResultSet rs = p.getResultSet()) {
          return SqlTestSupport.rows(rs).toString();
        }
      }
      return "count " + p.getUpdateCount();
    } catch (SQLException e) {
      String state = e.getSQLState() == null ? "null" : e.getSQLState();
      // H2 reports a unique index's duplicate as 23505 and a NOT NULL one as 23502, as Basalt
      return "error " + state;
    }
  }
}
