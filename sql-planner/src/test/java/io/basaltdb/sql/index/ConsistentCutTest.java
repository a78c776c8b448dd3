package io.basaltdb.sql.index;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basaltdb.sql.SqlTestBase;
import io.basaltdb.sql.SqlTestSupport;
import io.basaltdb.sql.catalog.SqlIndexDef;
import io.basaltdb.sql.jdbc.BasaltConnections;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * A statement reads one cut of the database: while writers move rows from one indexed value to
 * another (so their entries move between the index's salt buckets, each its own region), a
 * query through a covering index, one through an index that fetches the rows, and a join of
 * the table with itself through both see every row exactly once, with the values of one
 * instant; and {@link IndexVerifier} finds no difference between table and indexes mid-writes. Without the cut (each region at its own read point) rows go missing or appear
 * twice within a second here.
 */
class ConsistentCutTest extends SqlTestBase {
  private static final long SEED = Long.getLong("basalt.seed", System.nanoTime());
  private static final int ROWS = 200;

  @Test
  void queriesThroughIndexesSeeEachRowOnceWhileRowsMove() throws Exception {
    System.out.println("ConsistentCutTest seed=" + SEED + " (replay: -Dbasalt.seed=" + SEED + ")");
    update("CREATE TABLE t (id INTEGER PRIMARY KEY, k INTEGER, pad VARCHAR(12)) "
        + "SPLIT ON (50, 100, 150)");
    update("CREATE INDEX covering ON t (k) INCLUDE (pad) SALT_BUCKETS = 4");
    update("CREATE INDEX keys_only ON t (k) SALT_BUCKETS = 4");
    List<Object[]> rows = new ArrayList<>();
    for (int i = 0; i < ROWS; i++) {
      rows.add(new Object[] {i, i % 1000, "p" + (i % 1000)});
    }
    SqlTestSupport.insert(c, "t", rows);
    AtomicBoolean stop = new AtomicBoolean();
    AtomicReference<Throwable> failed = new AtomicReference<>();
    List<Thread> writers = new ArrayList<>();
    for (int w = 0; w < 2; w++) {
      Random random = new Random(SEED + w);
      Thread t = new Thread(() -> {
        try (Connection wc = BasaltConnections.open(db);
             PreparedStatement up = wc.prepareStatement(
                 "UPDATE t SET k = ?, pad = ? WHERE id = ?")) {
          while (!stop.get()) {
            int k = random.nextInt(1000);
            up.setInt(1, k);
            up.setString(2, "p" + k);
            up.setInt(3, random.nextInt(ROWS));
            assertEquals(1, up.executeUpdate());
          }
        } catch (Throwable e) {
          failed.set(e);
        }
      });
      t.start();
      writers.add(t);
    }
    int queries = 0;
    try {
      long end = System.nanoTime() + 3_000_000_000L;
      while (System.nanoTime() < end && failed.get() == null) {
        check("SELECT /*+ INDEX(t covering) */ id, k, pad FROM t WHERE k >= 0");
        check("SELECT /*+ INDEX(t keys_only) */ id, k, pad FROM t WHERE k >= 0");
        checkJoin();
        queries += 3;
        if (queries % 30 == 0) {
          verifyIndexes();
        }
      }
    } finally {
      stop.set(true);
      for (Thread t : writers) {
        t.join();
      }
    }
    assertNull(failed.get(), () -> "writer failed: " + failed.get());
    assertTrue(queries >= 30, "queries run: " + queries);
  }

  /**
   * A statement's snapshot is released when its rows are read to the end, when its result set
   * or its connection closes, when it fails, and when a connection left open is garbage
   * collected: none stays pinned (a pin keeps compactions from dropping old versions).
   */
  @Test
  void snapshotsAreReleasedHoweverAStatementEnds() throws Exception {
    update("CREATE TABLE t (id INTEGER PRIMARY KEY, k INTEGER, pad VARCHAR(12))");
    List<Object[]> rows = new ArrayList<>();
    for (int i = 0; i < 50; i++) {
      rows.add(new Object[] {i, i, "p" + i});
    }
    SqlTestSupport.insert(c, "t", rows);
    assertEquals(50, rows("SELECT id FROM t WHERE k >= 0").size());
    assertEquals(0, db.openSnapshots(), "read to the end");
    try (PreparedStatement q = c.prepareStatement("SELECT id FROM t")) {
      ResultSet r = q.executeQuery();
      assertTrue(r.next());
      assertEquals(1, db.openSnapshots(), "a result set being read holds its snapshot");
      r.close();
      assertEquals(0, db.openSnapshots(), "closed");
    }
    assertThrows(SQLException.class, () -> rows("SELECT CAST(pad AS INTEGER) FROM t"));
    assertEquals(0, db.openSnapshots(), "failed");
    leaveOpen();
    long deadline = System.nanoTime() + 10_000_000_000L;
    while (db.openSnapshots() > 0 && System.nanoTime() < deadline) {
      System.gc();
      Thread.sleep(20);
    }
    assertEquals(0, db.openSnapshots(), "collected");
  }

  private void leaveOpen() throws SQLException {
    try (Connection other = BasaltConnections.open(db)) {
      ResultSet r = other.createStatement().executeQuery("SELECT id FROM t");
      assertTrue(r.next());
      assertEquals(1, db.openSnapshots());
    } // closing the connection closes its statements and their result sets
    assertEquals(0, db.openSnapshots(), "its connection closed");
    Connection dropped = BasaltConnections.open(db); // dropped without closing anything
    ResultSet r = dropped.createStatement().executeQuery("SELECT id FROM t");
    assertTrue(r.next());
    assertEquals(1, db.openSnapshots());
  }

  /** {@link IndexVerifier} reads table and index at one snapshot: no difference mid-writes. */
  private void verifyIndexes() {
    io.basaltdb.sql.catalog.SqlCatalog catalog = new io.basaltdb.sql.catalog.SqlCatalog(db);
    io.basaltdb.storage.TableName t = new io.basaltdb.storage.TableName("default", "T");
    for (SqlIndexDef i : catalog.indexes(t)) {
      IndexVerifier.Report r = IndexVerifier.verify(db, catalog.get(t), i);
      assertTrue(r.consistent(), i.name() + ": " + r + " (seed " + SEED + ")");
      assertEquals(ROWS, r.rows());
    }
  }

  /** Every row once, its pad the one written with its k. */
  private void check(String sql) throws SQLException {
    Set<Integer> ids = new HashSet<>();
    int n = 0;
    try (PreparedStatement q = c.prepareStatement(sql); ResultSet r = q.executeQuery()) {
      while (r.next()) {
        n++;
        ids.add(r.getInt(1));
        assertEquals("p" + r.getInt(2), r.getString(3), sql + " (seed " + SEED + ")");
      }
    }
    assertEquals(ROWS, n, "rows of " + sql + " (seed " + SEED + ")");
    assertEquals(ROWS, ids.size(), "distinct ids of " + sql + " (seed " + SEED + ")");
  }

  /** The table's k per id, as the covering index saw it and as the rows say: equal. */
  private void checkJoin() throws SQLException {
    String sql = "SELECT /*+ INDEX(a covering) */ COUNT(*), "
        + "SUM(CASE WHEN a.k = b.k THEN 1 ELSE 0 END) FROM t a JOIN t b ON a.id = b.id "
        + "WHERE a.k >= 0";
    try (PreparedStatement q = c.prepareStatement(sql); ResultSet r = q.executeQuery()) {
      assertTrue(r.next());
      assertEquals(ROWS, r.getInt(1), sql + " (seed " + SEED + ")");
      assertEquals(ROWS, r.getInt(2), "rows whose entry and row differ (seed " + SEED + ")");
    }
  }
}
