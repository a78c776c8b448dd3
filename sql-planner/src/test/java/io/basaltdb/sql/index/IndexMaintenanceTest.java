package io.basaltdb.sql.index;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basaltdb.sql.SqlTestBase;
import io.basaltdb.sql.Switches;
import io.basaltdb.sql.catalog.SqlCatalog;
import io.basaltdb.sql.catalog.SqlIndexDef;
import io.basaltdb.sql.catalog.SqlTableDef;
import io.basaltdb.storage.Result;
import io.basaltdb.storage.ResultScanner;
import io.basaltdb.storage.Scan;
import io.basaltdb.storage.TableName;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Secondary indexes kept with their rows: DDL, every kind of write, UNIQUE, builds, and
 * transactions; each index checked both ways against its table ({@link IndexVerifier}) and
 * its entries' order against the table's rows sorted by SQL.
 */
class IndexMaintenanceTest extends SqlTestBase {
  private static final TableName T = new TableName("default", "T");

  private SqlIndexDef index(String name) {
    return new SqlCatalog(db).indexes(T).stream().filter(i -> i.name().equals(name))
        .findFirst().orElseThrow();
  }

  private IndexVerifier.Report verify(String name) {
    SqlTableDef def = new SqlCatalog(db).get(T);
    IndexVerifier.Report r = IndexVerifier.verify(db, def, index(name));
    assertTrue(r.consistent(), r.toString());
    return r;
  }

  /** The base rows' ids in the order of index {@code name}'s entries. */
  private List<String> idsInIndexOrder(String name) {
    SqlTableDef def = new SqlCatalog(db).get(T);
    IndexLayout layout = new IndexLayout(def, index(name));
    List<String> ids = new ArrayList<>();
    try (ResultScanner s = db.table(index(name).engineTable()).getScanner(new Scan())) {
      for (Result r : s) {
        byte[] base = layout.baseKey(r.row(), r.getValue(IndexLayout.FAMILY,
            IndexLayout.QUALIFIER));
        ids.add(String.valueOf(def.keyCodec().decode(base)[0]));
      }
    }
    return ids;
  }

  private void createTable() throws SQLException {
    update("CREATE TABLE t (id INTEGER PRIMARY KEY, a VARCHAR(20), b INTEGER, c DOUBLE, "
        + "f2.d BIGINT)");
  }

  @Test
  void everyWriteKindKeepsTheIndex() throws SQLException {
    createTable();
    update("CREATE INDEX ia ON t (a, b DESC) INCLUDE (c)");
    update("CREATE INDEX ib ON t (b)");
    update("INSERT INTO t VALUES (1, 'x', 10, 1.5, 100), (2, 'y', 20, 2.5, 200), "
        + "(3, NULL, NULL, NULL, NULL), (4, 'x', 5, 0.5, 1)");
    verify("IA");
    verify("IB");
    update("UPSERT INTO t (id, a) VALUES (1, 'z')");
    update("UPSERT INTO t (id, b) VALUES (2, NULL)");
    update("UPSERT INTO t (id, a, b) VALUES (5, 'w', 7)");
    update("UPDATE t SET b = b + 100 WHERE id = 4");
    update("UPDATE t SET c = 9.5 WHERE a = 'x'");
    update("UPDATE t SET d = d + 1 WHERE id < 3");
    assertEquals(1, update("DELETE FROM t WHERE id = 3"));
    assertEquals(5 - 1, rows("SELECT id FROM t").size());
    IndexVerifier.Report r = verify("IA");
    assertEquals(4, r.entries());
    verify("IB");
    assertEquals(List.of("5|w|7", "4|x|105", "2|y|null", "1|z|10"),
        rows("SELECT id, a, b FROM t ORDER BY a NULLS LAST, b DESC NULLS FIRST"));
    assertEquals(rows("SELECT id FROM t ORDER BY a NULLS LAST, b DESC NULLS FIRST, id"),
        idsInIndexOrder("IA"));
  }

  @Test
  void indexOrderIsSqlOrder() throws SQLException {
    createTable();
    update("CREATE INDEX ia ON t (a DESC, b)");
    java.util.Random rnd = new java.util.Random(7);
    try (Statement st = c.createStatement()) {
      for (int i = 0; i < 300; i++) {
        String a = rnd.nextInt(8) == 0 ? "NULL" : "'" + "abc".substring(rnd.nextInt(3))
            + (char) ('a' + rnd.nextInt(5)) + "'";
        String b = rnd.nextInt(8) == 0 ? "NULL" : String.valueOf(rnd.nextInt(40) - 20);
        st.executeUpdate("UPSERT INTO t (id, a, b) VALUES (" + rnd.nextInt(200) + ", " + a
            + ", " + b + ")");
      }
    }
    List<String> sql = rows("SELECT id FROM t ORDER BY a DESC NULLS FIRST, b NULLS LAST, id");
    assertEquals(sql, idsInIndexOrder("IA"));
    verify("IA");
  }

  @Test
  void uniqueIndexRefusesADuplicateAndWritesNothing() throws SQLException {
    createTable();
    update("INSERT INTO t (id, a, b) VALUES (1, 'x', 1), (2, 'y', 2), (3, NULL, 3)");
    update("CREATE UNIQUE INDEX ua ON t (a)");
    SQLException dup = assertThrows(SQLException.class,
        () -> update("INSERT INTO t (id, a, b) VALUES (4, 'x', 4)"));
    assertEquals("23505", dup.getSQLState(), dup.getMessage());
    assertTrue(dup.getMessage().contains("UA"), dup.getMessage());
    assertEquals(List.of(), rows("SELECT id FROM t WHERE id = 4"), "nothing written");
    dup = assertThrows(SQLException.class, () -> update("UPDATE t SET a = 'y' WHERE id = 1"));
    assertEquals("23505", dup.getSQLState());
    assertEquals(List.of("x"), rows("SELECT a FROM t WHERE id = 1"), "row unchanged");
    update("INSERT INTO t (id, a) VALUES (5, NULL)"); // NULLs are never equal
    update("UPDATE t SET a = 'x2' WHERE id = 1");
    update("INSERT INTO t (id, a) VALUES (6, 'x')"); // freed by the update
    update("UPSERT INTO t (id, a, b) VALUES (6, 'x', 60)"); // its own value: no conflict
    verify("UA");
    update("CREATE UNIQUE INDEX ub ON t (b)"); // 1, 2, 3, NULL, NULL, 60: no two equal
    verify("UB");
  }

  @Test
  void aUniqueBuildOverDuplicatesFailsAndLeavesNoIndex() throws SQLException {
    createTable();
    update("INSERT INTO t (id, a) VALUES (1, 'x'), (2, 'x')");
    SQLException e = assertThrows(SQLException.class,
        () -> update("CREATE UNIQUE INDEX ua ON t (a)"));
    assertEquals("23505", e.getSQLState(), e.getMessage());
    assertTrue(new SqlCatalog(db).indexes(T).isEmpty());
    assertFalse(db.admin().tableExists(SqlIndexDef.engineTable(T, "UA")));
    update("INSERT INTO t (id, a) VALUES (3, 'x')"); // no index left to refuse it
  }

  @Test
  void ddlNamesAndErrors() throws SQLException {
    createTable();
    update("INSERT INTO t (id, a, b) VALUES (1, 'x', 1)");
    update("CREATE INDEX ia ON t (a) INCLUDE (b)");
    assertEquals("42P07", assertThrows(SQLException.class,
        () -> update("CREATE INDEX ia ON t (b)")).getSQLState());
    update("CREATE INDEX IF NOT EXISTS ia ON t (b)");
    assertThrows(SQLException.class, () -> update("CREATE INDEX ix ON t (nope)"));
    assertThrows(SQLException.class, () -> update("CREATE INDEX ix ON t (a, a)"));
    assertThrows(SQLException.class, () -> update("CREATE INDEX ix ON t (a) INCLUDE (a)"));
    assertEquals("42P01", assertThrows(SQLException.class,
        () -> update("CREATE INDEX ix ON nope (a)")).getSQLState());
    assertThrows(SQLException.class, () -> update("CREATE INDEX ix ON t (a) VERSIONS=2"));
    SQLException used = assertThrows(SQLException.class,
        () -> update("ALTER TABLE t DROP COLUMN b"));
    assertTrue(used.getMessage().contains("IA"), used.getMessage());
    assertThrows(SQLException.class, () -> rows("SELECT * FROM \"T.IA\""),
        "an index is not a table");
    update("CREATE INDEX ib ON t (b DESC, a) SALT_BUCKETS = 4");
    update("INSERT INTO t (id, a, b) VALUES (2, 'y', 2)");
    verify("IB");
    update("ALTER INDEX ib ON t REBUILD");
    verify("IB");
    update("DROP INDEX ib ON t");
    assertFalse(db.admin().tableExists(SqlIndexDef.engineTable(T, "IB")));
    update("DROP INDEX IF EXISTS ib ON t");
    assertEquals("42P01", assertThrows(SQLException.class,
        () -> update("DROP INDEX ib ON t")).getSQLState());
    update("DROP INDEX ia"); // the one index of that name in the default schema
    update("CREATE INDEX ia ON t (a)");
    update("DROP TABLE t");
    assertFalse(db.admin().tableExists(SqlIndexDef.engineTable(T, "IA")));
    createTable();
    update("INSERT INTO t (id, a) VALUES (1, 'x')"); // no index of the old table maintained
    assertTrue(new SqlCatalog(db).indexes(T).isEmpty());
  }

  @Test
  void sqllogictestStyleIndexesAreAccepted() throws SQLException {
    update("CREATE TABLE t1 (a1 INTEGER, b1 INTEGER, c1 INTEGER, d1 INTEGER, e1 INTEGER, "
        + "x1 VARCHAR(30))");
    update("INSERT INTO t1 VALUES (1, 2, 3, 4, 5, 'table t1 row 1'), "
        + "(2, 2, 3, 4, 5, 'table t1 row 2')");
    update("CREATE INDEX t1i0 ON t1(a1,b1,c1,d1,e1,x1)");
    update("CREATE INDEX t1i1 ON t1(b1,c1,d1,e1,x1)");
    update("CREATE INDEX t1i2 ON t1(c1 DESC,d1,e1,x1,a1)");
    update("CREATE INDEX t1i3 ON t1(d1,e1 DESC,x1,a1,b1)");
    update("CREATE INDEX t1i4 ON t1(e1,x1,a1 DESC,b1,c1 DESC)");
    update("CREATE INDEX t1i5 ON t1(x1,a1,b1,c1,d1)");
    update("UPDATE t1 SET c1 = c1 + 1 WHERE a1 = 2");
    update("DELETE FROM t1 WHERE a1 = 1");
    assertEquals(List.of("2|2|4|4|5|table t1 row 2"), rows("SELECT * FROM t1"));
    TableName t1 = new TableName("default", "T1");
    SqlTableDef def = new SqlCatalog(db).get(t1);
    for (SqlIndexDef i : new SqlCatalog(db).indexes(t1)) {
      IndexVerifier.Report r = IndexVerifier.verify(db, def, i);
      assertTrue(r.consistent() && r.entries() == 1, i.name() + ": " + r);
    }
  }

  @Test
  void aTransactionMaintainsIndexesAtCommit() throws SQLException {
    createTable();
    update("CREATE INDEX ib ON t (b)");
    update("INSERT INTO t (id, b) VALUES (1, 10), (2, 20)");
    c.setAutoCommit(false);
    update("UPDATE t SET b = b + 1 WHERE id = 1");
    update("DELETE FROM t WHERE id = 2");
    update("INSERT INTO t (id, b) VALUES (3, 30)");
    assertEquals(2, verifyCount("IB"), "nothing written before the commit");
    c.commit();
    c.setAutoCommit(true);
    assertEquals(2, verify("IB").entries());
    assertEquals(List.of("1|11", "3|30"), rows("SELECT id, b FROM t"));
  }

  /**
   * UPSERTs buffered before an index exists and committed after another connection made it
   * write their entries (they are not applied as one list of plain puts then).
   */
  @Test
  void aCommitAfterAnIndexAppearedOnItsTableIsRefusedAndRunAgainWritesTheEntries() throws SQLException {
    createTable();
    update("UPSERT INTO t (id, b) VALUES (1, 10)");
    c.setAutoCommit(false);
    try (java.sql.PreparedStatement p = c.prepareStatement("UPSERT INTO t (id, b) VALUES (?, ?)")) {
      for (int i = 2; i <= 50; i++) {
        p.setInt(1, i);
        p.setInt(2, i * 10);
        p.addBatch();
      }
      p.executeBatch();
    }
    try (java.sql.Connection other = io.basaltdb.sql.jdbc.BasaltConnections.open(db);
        java.sql.Statement st = other.createStatement()) {
      st.execute("CREATE INDEX ib ON t (b)");
    }
    assertEquals(1, verifyCount("IB"), "the committed row only");
    java.sql.SQLException e = assertThrows(java.sql.SQLException.class, c::commit);
    assertEquals("40001", e.getSQLState(), "rows written before the index have no entries");
    c.setAutoCommit(true);
    assertEquals(1, verify("IB").entries(), "nothing of the refused commit");
    assertEquals(List.of(), rows("SELECT id, b FROM t WHERE b = 250"));
    try (java.sql.PreparedStatement p = c.prepareStatement("UPSERT INTO t (id, b) VALUES (?, ?)")) {
      c.setAutoCommit(false); // run again: now with the index's entries
      for (int i = 2; i <= 50; i++) {
        p.setInt(1, i);
        p.setInt(2, i * 10);
        p.addBatch();
      }
      p.executeBatch();
      c.commit();
      c.setAutoCommit(true);
    }
    assertEquals(50, verify("IB").entries());
    assertEquals(List.of("25|250"), rows("SELECT id, b FROM t WHERE b = 250"));
  }

  private long verifyCount(String name) {
    return verify(name).entries();
  }

  /**
   * Four writers (upserts, updates of indexed columns, increments of one, deletes, inserts
   * that may collide with the UNIQUE index) race while a second index is built online; then
   * every index matches its table both ways.
   */
  @Test
  void concurrentWritersAndAnOnlineBuildLeaveIndexesConsistent() throws Exception {
    long seed = Long.getLong("seed", System.nanoTime());
    System.out.println("IndexMaintenanceTest.concurrent seed " + seed
        + " (replay with -Dseed=" + seed + ")");
    createTable();
    update("CREATE UNIQUE INDEX ua ON t (a)");
    update("CREATE INDEX ib ON t (b DESC) INCLUDE (d)");
    try (Statement st = c.createStatement()) {
      for (int i = 0; i < 2000; i++) {
        st.executeUpdate("UPSERT INTO t (id, b, c, d) VALUES (" + i + ", " + (i % 37) + ", "
            + i + ".5, " + i + ")");
      }
    }
    java.util.concurrent.atomic.AtomicReference<Throwable> failure =
        new java.util.concurrent.atomic.AtomicReference<>();
    java.util.concurrent.atomic.AtomicInteger uniqueRefusals =
        new java.util.concurrent.atomic.AtomicInteger();
    List<Thread> writers = new ArrayList<>();
    long end = System.nanoTime() + 3_000_000_000L;
    for (int w = 0; w < 4; w++) {
      java.util.Random rnd = new java.util.Random(seed + w);
      writers.add(new Thread(() -> {
        try (java.sql.Connection conn = io.basaltdb.sql.jdbc.BasaltConnections.open(db);
            Statement st = conn.createStatement()) {
          while (System.nanoTime() < end) {
            int id = rnd.nextInt(2500);
            String sql = switch (rnd.nextInt(6)) {
              case 0 -> "UPSERT INTO t (id, a, b) VALUES (" + id + ", 'k" + rnd.nextInt(300)
                  + "', " + rnd.nextInt(50) + ")";
              case 1 -> "UPDATE t SET b = " + rnd.nextInt(50) + " WHERE id = " + id;
              case 2 -> "UPDATE t SET d = d + 1, b = b + 1 WHERE id BETWEEN " + id + " AND "
                  + (id + 3);
              case 3 -> "DELETE FROM t WHERE id = " + id;
              case 4 -> "UPDATE t SET a = NULL, c = c + 1 WHERE id = " + id;
              default -> "INSERT INTO t (id, a, c) VALUES (" + (3000 + rnd.nextInt(100_000))
                  + ", 'k" + rnd.nextInt(300) + "', 1.0)";
            };
            try {
              st.executeUpdate(sql);
            } catch (SQLException e) {
              if (!"23505".equals(e.getSQLState())) {
                throw e;
              }
              uniqueRefusals.incrementAndGet();
            }
          }
        } catch (Throwable t) {
          failure.compareAndSet(null, t);
        }
      }));
    }
    writers.forEach(Thread::start);
    Thread.sleep(300);
    update("CREATE INDEX ic ON t (c, b) INCLUDE (a)"); // built while the writers go on
    for (Thread t : writers) {
      t.join();
    }
    if (failure.get() != null) {
      throw new AssertionError("seed " + seed, failure.get());
    }
    assertTrue(uniqueRefusals.get() > 0, "the unique index refused something");
    for (String i : List.of("UA", "IB", "IC")) {
      verify(i);
    }
    assertEquals(rows("SELECT COUNT(*) FROM t WHERE a IS NOT NULL"),
        List.of(String.valueOf(rows("SELECT DISTINCT a FROM t WHERE a IS NOT NULL").size())),
        "a unique column holds no value twice");
  }

  /** An index a crash left BUILDING is finished by CREATE INDEX IF NOT EXISTS. */
  @Test
  void anUnfinishedBuildIsFinishedByCreateIfNotExists() throws SQLException {
    createTable();
    update("INSERT INTO t (id, a) VALUES (1, 'x'), (2, 'y')");
    SqlIndexDef half = new SqlIndexDef("IA", T, List.of("A"), List.of(false), List.of(), false,
        0, SqlIndexDef.State.BUILDING); // as a crash mid-build leaves it: registered, no entries
    db.admin().createTable(io.basaltdb.storage.TableDescriptor.of(half.engineTable().toString(),
        "0"));
    new SqlCatalog(db).putIndex(half);
    IndexRegistry.of(db).set(T, new SqlCatalog(db).indexes(T));
    SQLException e = assertThrows(SQLException.class, () -> update("CREATE INDEX ia ON t (a)"));
    assertTrue(e.getMessage().contains("REBUILD"), e.getMessage());
    update("CREATE INDEX IF NOT EXISTS ia ON t (a)");
    assertEquals(SqlIndexDef.State.ACTIVE, index("IA").state());
    assertEquals(2, verify("IA").entries());
  }

  /**
   * Four connections insert rows with the same value of a UNIQUE column at once, round after
   * round: exactly one wins each round, the others get 23505 and leave nothing behind.
   */
  @Test
  void concurrentInsertsOfOneUniqueValueHaveOneWinner() throws Exception {
    createTable();
    update("CREATE UNIQUE INDEX ua ON t (a)");
    int rounds = 60;
    int writers = 4;
    java.util.concurrent.CyclicBarrier start = new java.util.concurrent.CyclicBarrier(writers);
    java.util.concurrent.atomic.AtomicIntegerArray wins =
        new java.util.concurrent.atomic.AtomicIntegerArray(rounds);
    java.util.concurrent.atomic.AtomicReference<Throwable> failure =
        new java.util.concurrent.atomic.AtomicReference<>();
    List<Thread> threads = new ArrayList<>();
    for (int w = 0; w < writers; w++) {
      int id = w;
      threads.add(new Thread(() -> {
        try (java.sql.Connection conn = io.basaltdb.sql.jdbc.BasaltConnections.open(db);
            Statement st = conn.createStatement()) {
          for (int r = 0; r < rounds; r++) {
            start.await();
            try {
              st.executeUpdate("INSERT INTO t (id, a) VALUES (" + (r * writers + id) + ", 'v"
                  + r + "')");
              wins.incrementAndGet(r);
            } catch (SQLException e) {
              if (!"23505".equals(e.getSQLState())) {
                throw e;
              }
            }
          }
        } catch (Throwable t) {
          failure.compareAndSet(null, t);
          start.reset();
        }
      }));
    }
    threads.forEach(Thread::start);
    for (Thread t : threads) {
      t.join();
    }
    if (failure.get() != null) {
      throw new AssertionError(failure.get());
    }
    for (int r = 0; r < rounds; r++) {
      assertEquals(1, wins.get(r), "round " + r + ": one winner");
    }
    assertEquals(List.of(String.valueOf(rounds)), rows("SELECT COUNT(*) FROM t"),
        "the losers wrote nothing");
    assertEquals(rounds, verify("UA").entries());
  }

  /** With -Dbasalt.progress=stderr (bin/basalt sql), a build says how far it got. */
  @Test
  void aBuildReportsItsProgressWhenAsked() throws SQLException {
    createTable();
    update("INSERT INTO t (id, a) VALUES (1, 'x'), (2, 'y'), (3, 'z')");
    java.io.PrintStream saved = System.err;
    java.io.ByteArrayOutputStream err = new java.io.ByteArrayOutputStream();
    System.setProperty(Switches.PROGRESS.property(), "stderr");
    System.setErr(new java.io.PrintStream(err, true, java.nio.charset.StandardCharsets.UTF_8));
    try {
      update("CREATE INDEX ia ON t (a)");
    } finally {
      System.setErr(saved);
      System.clearProperty(Switches.PROGRESS.property());
    }
    String text = err.toString(java.nio.charset.StandardCharsets.UTF_8);
    assertTrue(text.contains("CREATE INDEX IA ON default:T: 3 rows indexed"), text);
    err.reset();
    System.setErr(new java.io.PrintStream(err, true, java.nio.charset.StandardCharsets.UTF_8));
    try {
      update("CREATE INDEX ib ON t (b)");
    } finally {
      System.setErr(saved);
    }
    assertFalse(err.toString(java.nio.charset.StandardCharsets.UTF_8).contains("CREATE INDEX"),
        "an application embedding the driver is not told");
  }

  /**
   * Every entry leads back to its row, whatever the table's key: composite, DESC, variable
   * length, salted; the index on a non-key column (its tail is the whole base key, sliced from
   * the entry) and the one on a key column (the base key re-encoded from decoded fields).
   */
  @Test
  void entriesLeadBackToTheirRowsWhateverTheKey() throws SQLException {
    TableName s = new TableName("default", "S");
    update("CREATE TABLE s (name VARCHAR(10) NOT NULL, n BIGINT NOT NULL, v INTEGER, "
        + "CONSTRAINT pk PRIMARY KEY (name DESC, n)) SALT_BUCKETS = 3");
    for (int i = 0; i < 60; i++) {
      update("UPSERT INTO s VALUES ('k" + (i % 7) + "\u0000x''y', " + (i - 30) + ", "
          + (i % 5) + ")"); // a zero byte and a quote in the key: escaped fields
    }
    update("CREATE INDEX sv ON s (v)");
    update("CREATE INDEX sn ON s (n DESC, v)");
    SqlCatalog catalog = new SqlCatalog(db);
    SqlTableDef def = catalog.get(s);
    List<String> rowKeys = new ArrayList<>();
    try (ResultScanner sc = db.table(s).getScanner(new Scan())) {
      for (Result r : sc) {
        rowKeys.add(io.basaltdb.storage.Cell.printable(r.row()));
      }
    }
    assertEquals(60, rowKeys.size());
    for (SqlIndexDef i : catalog.indexes(s)) {
      IndexLayout layout = new IndexLayout(def, i);
      List<String> fromEntries = new ArrayList<>();
      try (ResultScanner sc = db.table(i.engineTable()).getScanner(new Scan())) {
        for (Result r : sc) {
          fromEntries.add(io.basaltdb.storage.Cell.printable(layout.baseKey(r.row(),
              r.getValue(IndexLayout.FAMILY, IndexLayout.QUALIFIER))));
        }
      }
      java.util.Collections.sort(fromEntries);
      List<String> want = new ArrayList<>(rowKeys);
      java.util.Collections.sort(want);
      assertEquals(want, fromEntries, i.name());
    }
    assertEquals(rows("SELECT /*+ NO_INDEX */ name, n FROM s WHERE v = 3 ORDER BY n"),
        rows("SELECT /*+ INDEX(s sv) */ name, n FROM s WHERE v = 3 ORDER BY n"));
    assertEquals(rows("SELECT /*+ NO_INDEX */ name, v FROM s WHERE n > 10 ORDER BY n"),
        rows("SELECT /*+ INDEX(s sn) */ name, v FROM s WHERE n > 10 ORDER BY n"));
  }
}
