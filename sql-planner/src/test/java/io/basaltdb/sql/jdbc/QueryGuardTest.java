package io.basaltdb.sql.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basaltdb.sql.SqlTestSupport;
import io.basaltdb.sql.TemporaryDatabaseTest;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLTimeoutException;
import java.sql.Statement;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Runaway statements stop: {@code cancel()} and a query timeout end a join that would run for
 * hours, though its inputs were read long ago (57014); a sort or a hash join's build side past
 * the connection's {@code queryMemory} fails that statement with 53200 naming the operator,
 * while another connection runs the same statement, and the first connection the next one.
 */
class QueryGuardTest extends TemporaryDatabaseTest {
  private static final int ROWS = 3000;

  @BeforeEach
  void load() throws SQLException {
    st.executeUpdate("CREATE TABLE big (id INTEGER PRIMARY KEY, g INTEGER, pad VARCHAR(200))");
    try (PreparedStatement ps = c.prepareStatement("UPSERT INTO big VALUES (?, ?, ?)")) {
      for (int i = 0; i < ROWS; i++) {
        ps.setInt(1, i);
        ps.setInt(2, i % 7);
        ps.setString(3, "p".repeat(100) + i);
        ps.addBatch();
      }
      ps.executeBatch();
    }
  }

  /**
   * 550 million joined rows from inputs read in a moment: minutes, unless stopped (the scans'
   * own checks come only between the rows they give).
   */
  private static final String RUNAWAY =
      "SELECT COUNT(*) FROM big a JOIN big b ON a.g = b.g JOIN big c ON b.g = c.g";

  @Test
  void cancelStopsAJoinRunningOnRowsAlreadyRead() throws Exception {
    ExecutorService pool = Executors.newSingleThreadExecutor();
    try (Statement runaway = c.createStatement()) {
      Future<?> run = pool.submit(() -> {
        try (ResultSet rs = runaway.executeQuery(RUNAWAY)) {
          rs.next();
        }
        return null;
      });
      Thread.sleep(500); // well into the join
      long t0 = System.nanoTime();
      runaway.cancel();
      java.util.concurrent.ExecutionException e = assertThrows(
          java.util.concurrent.ExecutionException.class, () -> run.get(30, TimeUnit.SECONDS));
      long ms = (System.nanoTime() - t0) / 1_000_000;
      System.out.println("cancel() to the statement's end: " + ms + " ms");
      assertTrue(e.getCause() instanceof SQLException s && "57014".equals(s.getSQLState()),
          String.valueOf(e.getCause()));
      assertTrue(ms < 2000, "stopped " + ms + " ms after cancel()");
    } finally {
      pool.shutdownNow();
    }
    assertEquals(List.of(Integer.toString(ROWS)), SqlTestSupport.rows(c,
        "SELECT COUNT(*) FROM big"), "the connection goes on");
  }

  @Test
  void aQueryTimeoutStopsTheSameJoin() throws SQLException {
    try (Statement runaway = c.createStatement()) {
      runaway.setQueryTimeout(1);
      long t0 = System.nanoTime();
      SQLTimeoutException e = assertThrows(SQLTimeoutException.class, () -> {
        try (ResultSet rs = runaway.executeQuery(RUNAWAY)) {
          rs.next();
        }
      });
      long ms = (System.nanoTime() - t0) / 1_000_000;
      System.out.println("query timeout of 1 s: the statement ended after " + ms + " ms");
      assertEquals("57014", e.getSQLState());
      assertTrue(ms < 3000, "ended after " + ms + " ms");
    }
  }

  private Connection withBudget(String bytes) throws SQLException {
    Properties p = new Properties();
    p.setProperty("queryMemory", bytes);
    return io.basaltdb.sql.jdbc.BasaltConnections.open(db, p);
  }

  @Test
  void aStatementPastItsMemoryBudgetFailsAloneNamingTheOperator() throws SQLException {
    String sort = "SELECT id, pad FROM big ORDER BY pad DESC";
    String join = "SELECT COUNT(*) FROM big a JOIN big b ON a.pad = b.pad";
    try (Connection small = withBudget("256k"); Statement s = small.createStatement()) {
      SQLException e = assertThrows(SQLException.class, () -> SqlTestSupport.rows(small, sort));
      assertEquals("53200", e.getSQLState(), e.getMessage());
      assertTrue(e.getMessage().contains("Sort") && e.getMessage().contains("queryMemory"),
          e.getMessage());
      e = assertThrows(SQLException.class, () -> SqlTestSupport.rows(small, join));
      assertEquals("53200", e.getSQLState(), e.getMessage());
      // the planner's choice: a hash join's build side, or the sorts under a merge join
      assertTrue(e.getMessage().contains("HashJoin (build side)")
          || e.getMessage().contains("in Sort"), e.getMessage());
      assertTrue(e.getMessage().contains("256 KiB"), e.getMessage());
      // a hash aggregate keeps a group per distinct key (not pushed: grouped by an expression)
      e = assertThrows(SQLException.class, () -> SqlTestSupport.rows(small,
          "SELECT UPPER(pad), COUNT(*) FROM big GROUP BY UPPER(pad)"));
      assertEquals("53200", e.getSQLState(), e.getMessage());
      assertTrue(e.getMessage().contains("Aggregate"), e.getMessage());
      assertEquals(7, SqlTestSupport.rows(small,
          "SELECT MOD(id, 7), MAX(pad) FROM big GROUP BY MOD(id, 7)").size(),
          "many rows into few groups keep little");
      // what keeps little runs: an aggregate, a scan, a sort of few rows
      assertEquals(3, SqlTestSupport.rows(small,
          "SELECT id FROM big WHERE id < 3 ORDER BY pad DESC").size());
      assertEquals(7, SqlTestSupport.rows(small, "SELECT g, COUNT(*) FROM big GROUP BY g")
          .size());
      assertEquals(ROWS, SqlTestSupport.rows(small, "SELECT id, pad FROM big").size());
    }
    // the default budget (a quarter of the heap) takes them
    assertEquals(ROWS, SqlTestSupport.rows(c, sort).size());
    assertEquals(List.of(Integer.toString(ROWS)), SqlTestSupport.rows(c, join));
  }

  @Test
  void aBadBudgetIsRefused() {
    SQLException e = assertThrows(SQLException.class, () -> withBudget("lots"));
    assertEquals("22023", e.getSQLState());
    assertTrue(e.getMessage().contains("queryMemory"), e.getMessage());
  }
}
