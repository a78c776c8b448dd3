package io.basaltdb.sql.tx;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.basaltdb.engine.Database;
import io.basaltdb.engine.EngineOptions;
import io.basaltdb.sql.SqlTestSupport;
import io.basaltdb.sql.jdbc.BasaltConnections;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The anomaly catalogue of Hermitage (Martin Kleppmann's tests of isolation levels), each as its
 * interleaving of two or three connections, at READ COMMITTED, REPEATABLE READ and SERIALIZABLE, with the
 * outcome each level gives here (the table in doc/transactions.md). Writers never wait for
 * each other: a row written by two overlapping transactions fails the second commit (40001),
 * at both levels.
 */
class IsolationAnomaliesTest {
  private static final int RC = Connection.TRANSACTION_READ_COMMITTED;
  private static final int RR = Connection.TRANSACTION_REPEATABLE_READ;
  private static final int SER = Connection.TRANSACTION_SERIALIZABLE;

  private Database db;
  private Connection t1;
  private Connection t2;
  private Connection t3;

  @BeforeEach
  void open() throws SQLException {
    db = Database.openTemporary(EngineOptions.defaults());
    t1 = BasaltConnections.open(db);
    t2 = BasaltConnections.open(db);
    t3 = BasaltConnections.open(db);
    run(t1, "CREATE TABLE test (id INT PRIMARY KEY, v INT)");
    run(t1, "INSERT INTO test VALUES (1, 10), (2, 20)");
  }

  private void begin(int level) throws SQLException {
    for (Connection c : List.of(t1, t2, t3)) {
      c.setTransactionIsolation(level);
      c.setAutoCommit(false);
    }
  }

  @AfterEach
  void close() throws SQLException {
    t1.close();
    t2.close();
    t3.close();
    db.close();
  }

  private static void run(Connection c, String sql) throws SQLException {
    try (Statement st = c.createStatement()) {
      st.execute(sql);
    }
  }

  private static List<String> q(Connection c, String sql) throws SQLException {
    return SqlTestSupport.rows(c, sql);
  }

  private static void conflict(Connection c) {
    SQLException e = assertThrows(SQLException.class, c::commit);
    assertEquals("40001", e.getSQLState(), e.getMessage());
  }

  private List<String> committed() throws SQLException {
    try (Connection c = BasaltConnections.open(db)) {
      return q(c, "SELECT id, v FROM test ORDER BY id");
    }
  }

  /** G0, write cycles: two transactions writing the same rows; prevented. */
  @ParameterizedTest
  @ValueSource(ints = {RC, RR, SER})
  void g0WriteCycles(int level) throws SQLException {
    begin(level);
    run(t1, "UPDATE test SET v = 11 WHERE id = 1");
    run(t2, "UPDATE test SET v = 12 WHERE id = 1");
    run(t1, "UPDATE test SET v = 21 WHERE id = 2");
    run(t2, "UPDATE test SET v = 22 WHERE id = 2");
    t1.commit();
    conflict(t2);
    assertEquals(List.of("1|11", "2|21"), committed());
  }

  /** G1a, aborted reads: a rolled-back write is never read; prevented. */
  @ParameterizedTest
  @ValueSource(ints = {RC, RR, SER})
  void g1aAbortedReads(int level) throws SQLException {
    begin(level);
    run(t1, "UPDATE test SET v = 101 WHERE id = 1");
    assertEquals(List.of("1|10", "2|20"), q(t2, "SELECT id, v FROM test ORDER BY id"));
    t1.rollback();
    assertEquals(List.of("1|10", "2|20"), q(t2, "SELECT id, v FROM test ORDER BY id"));
    t2.commit();
  }

  /** G1b, intermediate reads: a value a transaction overwrote before committing is never read. */
  @ParameterizedTest
  @ValueSource(ints = {RC, RR, SER})
  void g1bIntermediateReads(int level) throws SQLException {
    begin(level);
    run(t1, "UPDATE test SET v = 101 WHERE id = 1");
    assertEquals(List.of("1|10", "2|20"), q(t2, "SELECT id, v FROM test ORDER BY id"));
    run(t1, "UPDATE test SET v = 11 WHERE id = 1");
    t1.commit();
    assertEquals(level == RC ? List.of("1|11", "2|20") : List.of("1|10", "2|20"),
        q(t2, "SELECT id, v FROM test ORDER BY id"));
    t2.commit();
  }

  /**
   * G1c, circular information flow: neither sees the other's uncommitted write; prevented (and
   * SERIALIZABLE refuses the second commit: each read a row the other wrote).
   */
  @ParameterizedTest
  @ValueSource(ints = {RC, RR, SER})
  void g1cCircularInformationFlow(int level) throws SQLException {
    begin(level);
    run(t1, "UPDATE test SET v = 11 WHERE id = 1");
    run(t2, "UPDATE test SET v = 22 WHERE id = 2");
    assertEquals(List.of("20"), q(t1, "SELECT v FROM test WHERE id = 2"));
    assertEquals(List.of("10"), q(t2, "SELECT v FROM test WHERE id = 1"));
    t1.commit();
    if (level == SER) { // each read what the other wrote: no serial order has both
      conflict(t2);
      assertEquals(List.of("1|11", "2|20"), committed());
      return;
    }
    t2.commit();
    assertEquals(List.of("1|11", "2|22"), committed());
  }

  /** OTV, observed transaction vanishes: a reader sees T1's writes whole, T2's never; prevented. */
  @ParameterizedTest
  @ValueSource(ints = {RC, RR, SER})
  void otvObservedTransactionVanishes(int level) throws SQLException {
    begin(level);
    run(t1, "UPDATE test SET v = 11 WHERE id = 1");
    run(t1, "UPDATE test SET v = 19 WHERE id = 2");
    run(t2, "UPDATE test SET v = 12 WHERE id = 1");
    t1.commit();
    assertEquals(List.of("11"), q(t3, "SELECT v FROM test WHERE id = 1"));
    run(t2, "UPDATE test SET v = 18 WHERE id = 2");
    assertEquals(List.of("19"), q(t3, "SELECT v FROM test WHERE id = 2"));
    conflict(t2);
    assertEquals(List.of("11"), q(t3, "SELECT v FROM test WHERE id = 1"));
    assertEquals(List.of("19"), q(t3, "SELECT v FROM test WHERE id = 2"));
    t3.commit();
  }

  /** PMP, predicate-many-preceders: REPEATABLE READ prevents it, READ COMMITTED allows it. */
  @ParameterizedTest
  @ValueSource(ints = {RC, RR, SER})
  void pmpPredicateManyPreceders(int level) throws SQLException {
    begin(level);
    assertEquals(List.of(), q(t1, "SELECT id FROM test WHERE v = 30"));
    run(t2, "INSERT INTO test VALUES (3, 30)");
    t2.commit();
    assertEquals(level == RC ? List.of("3|30") : List.of(),
        q(t1, "SELECT id, v FROM test WHERE MOD(v, 3) = 0"));
    t1.commit();
  }

  /** P4, lost update: the second writer of a row read by both fails; prevented at both levels. */
  @ParameterizedTest
  @ValueSource(ints = {RC, RR, SER})
  void p4LostUpdate(int level) throws SQLException {
    begin(level);
    assertEquals(List.of("10"), q(t1, "SELECT v FROM test WHERE id = 1"));
    assertEquals(List.of("10"), q(t2, "SELECT v FROM test WHERE id = 1"));
    run(t1, "UPDATE test SET v = 11 WHERE id = 1");
    run(t2, "UPDATE test SET v = 11 WHERE id = 1");
    t1.commit();
    conflict(t2);
    // the same with increments, which read the row as they write it
    run(t1, "UPDATE test SET v = v + 1 WHERE id = 2");
    run(t2, "UPDATE test SET v = v + 1 WHERE id = 2");
    t2.commit();
    conflict(t1);
    assertEquals(List.of("1|11", "2|21"), committed());
  }

  /** G-single, read skew: REPEATABLE READ prevents it, READ COMMITTED allows it. */
  @ParameterizedTest
  @ValueSource(ints = {RC, RR, SER})
  void gSingleReadSkew(int level) throws SQLException {
    begin(level);
    assertEquals(List.of("10"), q(t1, "SELECT v FROM test WHERE id = 1"));
    assertEquals(List.of("10"), q(t2, "SELECT v FROM test WHERE id = 1"));
    assertEquals(List.of("20"), q(t2, "SELECT v FROM test WHERE id = 2"));
    run(t2, "UPDATE test SET v = 12 WHERE id = 1");
    run(t2, "UPDATE test SET v = 18 WHERE id = 2");
    t2.commit();
    assertEquals(level == RC ? List.of("18") : List.of("20"),
        q(t1, "SELECT v FROM test WHERE id = 2"));
    t1.commit();
  }

  /**
   * G2-item, write skew: allowed under snapshot isolation (each writes a row the other only
   * read); SERIALIZABLE refuses the second commit.
   */
  @ParameterizedTest
  @ValueSource(ints = {RC, RR, SER})
  void g2ItemWriteSkew(int level) throws SQLException {
    begin(level);
    assertEquals(List.of("1|10", "2|20"), q(t1, "SELECT id, v FROM test WHERE id IN (1, 2) ORDER BY id"));
    assertEquals(List.of("1|10", "2|20"), q(t2, "SELECT id, v FROM test WHERE id IN (1, 2) ORDER BY id"));
    run(t1, "UPDATE test SET v = 11 WHERE id = 1");
    run(t2, "UPDATE test SET v = 21 WHERE id = 2");
    t1.commit();
    if (level == SER) {
      conflict(t2);
      assertEquals(List.of("1|11", "2|20"), committed());
      return;
    }
    t2.commit();
    assertEquals(List.of("1|11", "2|21"), committed());
  }

  /** G2, anti-dependency cycles (phantoms): allowed under snapshot isolation, not SERIALIZABLE. */
  @ParameterizedTest
  @ValueSource(ints = {RC, RR, SER})
  void g2AntiDependencyCycles(int level) throws SQLException {
    begin(level);
    assertEquals(List.of(), q(t1, "SELECT id FROM test WHERE MOD(v, 3) = 0"));
    assertEquals(List.of(), q(t2, "SELECT id FROM test WHERE MOD(v, 3) = 0"));
    run(t1, "INSERT INTO test VALUES (3, 30)");
    run(t2, "INSERT INTO test VALUES (4, 42)");
    t1.commit();
    if (level == SER) {
      conflict(t2);
      assertEquals(List.of("1|10", "2|20", "3|30"), committed());
      return;
    }
    t2.commit();
    assertEquals(List.of("1|10", "2|20", "3|30", "4|42"), committed());
  }
}
