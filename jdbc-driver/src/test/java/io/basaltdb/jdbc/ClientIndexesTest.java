package io.basaltdb.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basaltdb.sql.catalog.SqlCatalog;
import io.basaltdb.sql.catalog.SqlIndexDef;
import io.basaltdb.sql.catalog.SqlTableDef;
import io.basaltdb.sql.index.IndexVerifier;
import io.basaltdb.storage.TableName;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Secondary indexes on a storage that writes one row atomically (the {@code rowsalone}
 * storage of {@link StorageProviderTest}: the embedded engine seen through the seam as HBase is,
 * no write of several rows, no snapshot), kept by the client-side protocol
 * (hbase-storage/doc/indexes-over-hbase.md): the same answers and plans as embedded indexes;
 * a client killed at any call of a write leaves no query through the index wrong and
 * verify-index clean once readers repaired what it left.
 */
class ClientIndexesTest {
  static final String[] SETUP = {
    "CREATE TABLE t (id INTEGER PRIMARY KEY, v VARCHAR(10), w INTEGER, x VARCHAR(10))",
    "INSERT INTO t VALUES (1, 'a', 10, 'p'), (2, 'b', 20, 'q'), (3, 'a', 30, 'r'),"
        + " (4, NULL, 40, 's'), (5, 'c', 50, 't')",
    "CREATE INDEX t_v ON t (v) INCLUDE (w)",
    "CREATE INDEX t_w ON t (w DESC)",
    "CREATE TABLE u (k INTEGER PRIMARY KEY, v VARCHAR(10))",
    "INSERT INTO u VALUES (1, 'a'), (2, 'b'), (3, 'z')",
  };

  /** Writes, each followed in the comparison by every query below. */
  static final String[] WRITES = {
    "UPDATE t SET v = 'c' WHERE id = 1",
    "UPDATE t SET w = w + 1 WHERE v = 'a'",
    "DELETE FROM t WHERE id = 2",
    "INSERT INTO t VALUES (6, 'a', 60, 'u')",
    "UPSERT INTO t VALUES (3, 'b', 31, 'r2')",
    "UPDATE t SET v = NULL WHERE id = 3",
    "UPDATE t SET x = 'zz' WHERE id = 6",
    "INSERT INTO t VALUES (2, 'b', 21, 'q2')",
    "DELETE FROM t WHERE w > 45",
  };

  /** Queries through the indexes (covering, fetching, ordered, a lookup join). */
  static final String[] QUERIES = {
    "SELECT id, w FROM t WHERE v = 'a'",
    "SELECT /*+ INDEX(t t_v) */ id, x FROM t WHERE v IN ('a', 'b')",
    "SELECT /*+ INDEX(t t_w) */ id, v FROM t WHERE w BETWEEN 15 AND 45",
    "SELECT /*+ INDEX(t t_w) */ id FROM t WHERE w > 0 ORDER BY w DESC",
    "SELECT /*+ INDEX(t t_v) */ u.k, t.id FROM u JOIN t ON t.v = u.v",
    "SELECT /*+ INDEX(t t_v) */ COUNT(*) FROM t WHERE v IS NULL",
  };

  @Test
  void sameAnswersAndPlansAsEmbeddedIndexes() throws Exception {
    try (Connection kept = DriverManager.getConnection("jdbc:basalt:fwd:rowsalone-same");
        Connection embedded = DriverManager.getConnection("jdbc:basalt:mem:clientidx");
        Statement a = kept.createStatement();
        Statement b = embedded.createStatement()) {
      for (String s : SETUP) {
        a.execute(s);
        b.execute(s);
      }
      for (String q : QUERIES) {
        String plan = rows(a, "EXPLAIN PLAN FOR " + q).toString();
        assertEquals(rows(b, "EXPLAIN PLAN FOR " + q).toString(), plan, q);
        System.out.println(plan);
        assertTrue(plan.contains("index=") || plan.contains("lookup=[index"), plan);
      }
      for (String w : WRITES) {
        assertEquals(b.executeUpdate(w), a.executeUpdate(w), w);
        for (String q : QUERIES) {
          assertEquals(sorted(rows(b, q)), sorted(rows(a, q)), "after " + w + ": " + q);
        }
      }
      assertClean(kept, "T", "T_V");
      assertClean(kept, "T", "T_W");
      assertEquals(rows(b, "SELECT * FROM t ORDER BY id"), rows(a, "SELECT * FROM t ORDER BY id"));
    }
  }

  @Test
  void aClientKilledAtAnyCallLeavesNoWrongAnswer() throws Exception {
    int cuts = 0;
    for (int w = 0; w < WRITES.length; w++) {
      long calls = callsOf(w);
      assertTrue(calls >= 3, WRITES[w] + " made " + calls + " calls");
      for (long at = 1; at <= calls; at++) {
        String location = "rowsalone-cut-" + w + "-" + at;
        try (Connection c = DriverManager.getConnection("jdbc:basalt:fwd:" + location);
            Statement st = c.createStatement()) {
          ClientDeath death = setUp(st, location, w);
          death.reset(at);
          boolean failed = false;
          try {
            st.executeUpdate(WRITES[w]);
          } catch (SQLException e) {
            failed = true;
          }
          assertTrue(failed, WRITES[w] + " should have died at call " + at);
          death.reset(0); // another client, on the same storage
          try (Connection other = DriverManager.getConnection("jdbc:basalt:fwd:" + location);
              Statement o = other.createStatement()) {
            for (String q : QUERIES) {
              assertEquals(sorted(rows(o, withoutIndexes(q))), sorted(rows(o, q)),
                  WRITES[w] + " killed at call " + at + " of " + calls + ": " + q);
            }
            assertClean(other, "T", "T_V");
            assertClean(other, "T", "T_W");
          }
          cuts++;
        }
      }
    }
    assertTrue(cuts > 40, cuts + " cut points");
  }

  /** One UPDATE of a row in the concurrent test: what it wrote, when it ran (end 0: running). */
  private static final class Write {
    final long w;
    final String v;
    final long start;
    volatile long end;

    Write(long w, String v, long start) {
      this.w = w;
      this.v = v;
      this.start = start;
    }
  }

  /**
   * Four writers move rows between indexed values (each writer alone on two rows, all of them on
   * eight shared rows, whose writes then race on the row's version), two readers query through
   * the index (covering, and fetching a column it does not hold) meanwhile. Every row returned
   * was written with those values; a row one writer owns is never returned with values its next
   * write replaced before the query began, and never missed when nothing wrote it during the
   * query and its values match. Then verify-index is clean.
   */
  @Test
  void concurrentWritersNeverShowAWrongOrMissedRow() throws Exception {
    long seed = Long.getLong("basalt.seed", System.nanoTime());
    System.out.println("ClientIndexesTest: seed=" + seed + " (replay with -Dbasalt.seed="
        + seed + ")");
    String url = "jdbc:basalt:fwd:rowsalone-concurrent";
    int writers = 4;
    int owned = 2;
    int rowCount = writers * owned + 8;
    String[] values = {"a", "b", "c"};
    java.util.Map<Long, String> written = new java.util.concurrent.ConcurrentHashMap<>();
    List<List<Write>> history = new ArrayList<>();
    try (Connection setup = DriverManager.getConnection(url);
        Statement st = setup.createStatement()) {
      st.execute("CREATE TABLE c (id INTEGER PRIMARY KEY, v VARCHAR(4), w BIGINT, x VARCHAR(24))");
      for (int id = 0; id < rowCount; id++) {
        String v = values[id % values.length];
        st.executeUpdate("INSERT INTO c VALUES (" + id + ", '" + v + "', " + (-id - 1) + ", 'x"
            + (-id - 1) + "')");
        written.put((long) -id - 1, id + "|" + v);
        List<Write> h = java.util.Collections.synchronizedList(new ArrayList<>());
        Write first = new Write(-id - 1, v, 0);
        first.end = 1;
        h.add(first);
        history.add(h);
      }
      st.execute("CREATE INDEX c_v ON c (v) INCLUDE (w)");
      java.util.concurrent.atomic.AtomicLong counter = new java.util.concurrent.atomic.AtomicLong();
      java.util.concurrent.atomic.AtomicBoolean stop = new java.util.concurrent.atomic.AtomicBoolean();
      List<String> failures = java.util.Collections.synchronizedList(new ArrayList<>());
      java.util.concurrent.atomic.AtomicLong answers = new java.util.concurrent.atomic.AtomicLong();
      List<Thread> threads = new ArrayList<>();
      for (int t = 0; t < writers; t++) {
        int me = t;
        java.util.Random random = new java.util.Random(seed + t);
        threads.add(new Thread(() -> {
          try (Connection c = DriverManager.getConnection(url);
              java.sql.PreparedStatement p = c.prepareStatement(
                  "UPDATE c SET v = ?, w = ?, x = ? WHERE id = ?")) {
            while (!stop.get()) {
              int id = random.nextBoolean() ? me * owned + random.nextInt(owned)
                  : writers * owned + random.nextInt(rowCount - writers * owned);
              String v = values[random.nextInt(values.length)];
              long w = counter.incrementAndGet();
              written.put(w, id + "|" + v);
              Write write = new Write(w, v, System.nanoTime());
              history.get(id).add(write);
              p.setString(1, v);
              p.setLong(2, w);
              p.setString(3, "x" + w);
              p.setInt(4, id);
              assertEquals(1, p.executeUpdate());
              write.end = System.nanoTime();
            }
          } catch (Throwable e) {
            failures.add("writer " + me + ": " + e);
          }
        }));
      }
      for (int t = 0; t < 2; t++) {
        java.util.Random random = new java.util.Random(seed - t - 1);
        boolean fetching = t == 1;
        threads.add(new Thread(() -> {
          try (Connection c = DriverManager.getConnection(url)) {
            while (!stop.get()) {
              String v = values[random.nextInt(values.length)];
              String q = fetching
                  ? "SELECT /*+ INDEX(c c_v) */ id, v, w, x FROM c WHERE v = '" + v + "'"
                  : "SELECT id, v, w FROM c WHERE v = '" + v + "'";
              long q0 = System.nanoTime();
              List<List<Object>> got;
              try (Statement s = c.createStatement()) {
                got = rows(s, q);
              }
              long q1 = System.nanoTime();
              answers.incrementAndGet();
              check(got, v, fetching, q0, q1, written, history, writers * owned, failures);
            }
          } catch (Throwable e) {
            failures.add("reader: " + e);
          }
        }));
      }
      threads.forEach(Thread::start);
      Thread.sleep(3000);
      stop.set(true);
      for (Thread t : threads) {
        t.join();
      }
      assertTrue(failures.isEmpty(), "seed " + seed + ": " + failures.subList(0,
          Math.min(5, failures.size())));
      assertTrue(counter.get() > 100 && answers.get() > 100,
          counter.get() + " writes, " + answers.get() + " answers");
      for (String v : values) {
        String q = "SELECT id, v, w FROM c WHERE v = '" + v + "'";
        assertEquals(sorted(rows(st, q.replace("SELECT", "SELECT /*+ NO_INDEX */"))),
            sorted(rows(st, q)));
      }
      assertClean(setup, "C", "C_V");
      System.out.println("ClientIndexesTest: " + counter.get() + " writes, " + answers.get()
          + " answers through the index checked");
    }
  }

  private static void check(List<List<Object>> got, String v, boolean fetching, long q0, long q1,
      java.util.Map<Long, String> written, List<List<Write>> history, int ownedRows,
      List<String> failures) {
    java.util.Set<Integer> found = new java.util.HashSet<>();
    for (List<Object> r : got) {
      int id = ((Number) r.get(0)).intValue();
      long w = ((Number) r.get(2)).longValue();
      found.add(id);
      if (!v.equals(r.get(1)) || !(id + "|" + v).equals(written.get(w))) {
        failures.add("row " + r + " for v = " + v + " was never written so");
      }
      if (fetching && !("x" + w).equals(r.get(3))) {
        failures.add("row " + r + ": x from another write than w");
      }
      if (id < ownedRows) {
        List<Write> h;
        synchronized (history.get(id)) {
          h = new ArrayList<>(history.get(id));
        }
        for (int i = 0; i < h.size(); i++) {
          if (h.get(i).w == w && i + 1 < h.size() && h.get(i + 1).end != 0
              && h.get(i + 1).end < q0) {
            failures.add("row " + r + " for v = " + v + ": replaced by w=" + h.get(i + 1).w
                + " before the query began");
          }
        }
      }
    }
    for (int id = 0; id < ownedRows; id++) {
      List<Write> h;
      synchronized (history.get(id)) {
        h = new ArrayList<>(history.get(id));
      }
      Write last = null;
      boolean quiet = true;
      for (Write x : h) {
        if (x.end != 0 && x.end < q0) {
          last = x;
        } else if (x.start < q1) {
          quiet = false; // written during the query
        }
      }
      if (quiet && last != null && last.v.equals(v) && !found.contains(id)) {
        failures.add("row " + id + " (v = " + v + " since w=" + last.w + ") missed");
      }
    }
  }

  /**
   * Two writers of one row: at every call of the first writer's UPDATE, the second one's UPDATE
   * of the same row runs to its end (the first paused there). Whatever the order, the row ends
   * with one writer's values, queries through the indexes agree with the table, and
   * verify-index finds nothing to repair: the row's version check sends the overtaken writer
   * back to read the row again.
   */
  @Test
  void aWriterOvertakenAtAnyCallLeavesTheIndexRight() throws Exception {
    String[][] pairs = {
      {"UPDATE t SET v = 'x', w = 11 WHERE id = 1", "UPDATE t SET v = 'y', w = 12 WHERE id = 1"},
      {"UPDATE t SET v = 'x' WHERE id = 1", "UPDATE t SET v = 'a' WHERE id = 1"},
      {"UPDATE t SET w = w + 1 WHERE id = 3", "DELETE FROM t WHERE id = 3"},
      {"DELETE FROM t WHERE id = 3", "UPDATE t SET v = 'q', w = 99 WHERE id = 3"},
      {"INSERT INTO t VALUES (7, 'n', 70, 'n')", "UPSERT INTO t VALUES (7, 'm', 71, 'm')"},
    };
    int runs = 0;
    for (int p = 0; p < pairs.length; p++) {
      String first = pairs[p][0];
      String second = pairs[p][1];
      long calls = callsOf(first);
      for (long at = 1; at <= calls; at++) {
        String location = "rowsalone-race-" + p + "-" + at;
        try (Connection c = DriverManager.getConnection("jdbc:basalt:fwd:" + location);
            Connection o = DriverManager.getConnection("jdbc:basalt:fwd:" + location);
            Statement st = c.createStatement();
            Statement other = o.createStatement()) {
          ClientDeath cut = setUp(st, location, 0);
          cut.cutIn(at, () -> {
            try {
              other.executeUpdate(second);
            } catch (SQLException e) {
              throw new IllegalStateException(e);
            }
          });
          try {
            st.executeUpdate(first);
          } catch (SQLException e) {
            assertTrue(first.startsWith("INSERT") && "23505".equals(e.getSQLState()),
                first + " overtaken at call " + at + ": " + e);
          }
          cut.reset(0);
          for (String q : QUERIES) {
            assertEquals(sorted(rows(st, withoutIndexes(q))), sorted(rows(st, q)),
                first + " overtaken at call " + at + " by " + second + ": " + q);
          }
          assertClean(c, "T", "T_V", false);
          assertClean(c, "T", "T_W", false);
          runs++;
        }
      }
    }
    assertTrue(runs > 30, runs + " interleavings");
  }

  /** The storage calls statement {@code sql} makes after the set-up, on a fresh storage. */
  private static long callsOf(String sql) throws Exception {
    String location = "rowsalone-count-" + Integer.toHexString(sql.hashCode());
    try (Connection c = DriverManager.getConnection("jdbc:basalt:fwd:" + location);
        Statement st = c.createStatement()) {
      ClientDeath death = setUp(st, location, 0);
      st.executeUpdate(sql);
      return death.calls();
    }
  }

  /** The storage calls write {@code w} makes after the set-up, counted on a fresh storage. */
  private static long callsOf(int w) throws Exception {
    String location = "rowsalone-count-" + w;
    try (Connection c = DriverManager.getConnection("jdbc:basalt:fwd:" + location);
        Statement st = c.createStatement()) {
      ClientDeath death = setUp(st, location, w);
      st.executeUpdate(WRITES[w]);
      return death.calls();
    }
  }

  /** The set-up and the writes before {@code w}, on a storage whose tables can die. */
  private static ClientDeath setUp(Statement st, String location, int w) throws SQLException {
    for (String s : SETUP) {
      st.execute(s);
    }
    for (int i = 0; i < w; i++) {
      st.executeUpdate(WRITES[i]);
    }
    StorageProviderTest.Forwarding storage = StorageProviderTest.OPENED.stream()
        .filter(f -> f.location.equals(location) && !f.closed).findFirst().orElseThrow();
    ClientDeath death = new ClientDeath();
    storage.tables = death::wrap;
    death.reset(0);
    return death;
  }

  private static String withoutIndexes(String q) {
    return q.replaceFirst("SELECT (/\\*\\+ INDEX\\(t t_.\\) \\*/ )?", "SELECT /*+ NO_INDEX */ ");
  }

  static void assertClean(Connection c, String table, String index) throws SQLException {
    assertClean(c, table, index, true);
  }

  /**
   * verify-index finds {@code index} consistent (after repairing, with {@code repair}, what
   * readers could not), and a second run finds nothing left unverified.
   */
  static void assertClean(Connection c, String table, String index, boolean repair)
      throws SQLException {
    io.basaltdb.storage.Storage db =
        c.unwrap(io.basaltdb.sql.jdbc.BasaltConnection.class).storage();
    SqlCatalog catalog = new SqlCatalog(db);
    SqlTableDef def = catalog.get(TableName.of(table));
    SqlIndexDef found = catalog.indexes(def.table()).stream()
        .filter(i -> i.name().equals(index)).findFirst().orElseThrow();
    IndexVerifier.Report report = IndexVerifier.verify(db, def, found, repair);
    assertTrue(report.consistent(), report.toString());
    IndexVerifier.Report again = IndexVerifier.verify(db, def, found);
    assertTrue(again.consistent(), again.toString());
    assertEquals(0, again.unverified(), "verify-index repaired what it found: " + again);
  }

  static List<List<Object>> rows(Statement st, String sql) throws SQLException {
    List<List<Object>> out = new ArrayList<>();
    try (ResultSet rs = st.executeQuery(sql)) {
      int n = rs.getMetaData().getColumnCount();
      while (rs.next()) {
        List<Object> row = new ArrayList<>();
        for (int i = 1; i <= n; i++) {
          row.add(rs.getObject(i));
        }
        out.add(row);
      }
    }
    return out;
  }

  static List<String> sorted(List<List<Object>> rows) {
    List<String> out = new ArrayList<>();
    for (List<Object> r : rows) {
      out.add(r.toString());
    }
    java.util.Collections.sort(out);
    return out;
  }
}
