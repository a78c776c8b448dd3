package io.basaltdb.sql.tx;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basaltdb.sql.SqlTestBase;
import io.basaltdb.sql.SqlTestSupport;
import io.basaltdb.sql.jdbc.BasaltConnections;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Transactions as Java frameworks drive them through plain JDBC: the call sequences of Spring's
 * TransactionTemplate, Hibernate's flush and versioned update, Jdbi's and MyBatis' prepared DDL;
 * own writes on every read path, errors raised by the statement that causes them, commits all
 * or nothing, first committer wins, savepoints, isolation levels and what the metadata says.
 */
class TransactionJdbcTest extends SqlTestBase {
  @BeforeEach
  void schema() throws SQLException {
    update("CREATE TABLE person (id BIGINT PRIMARY KEY, email VARCHAR(50), name VARCHAR(20),"
        + " version INT, dept INT)");
    update("CREATE UNIQUE INDEX person_email ON person (email)");
    update("CREATE INDEX person_dept ON person (dept) INCLUDE (name)");
    update("CREATE TABLE dept (id INT PRIMARY KEY, title VARCHAR(20))");
    update("INSERT INTO person VALUES (1, 'ann@x', 'Ann', 0, 10), (2, 'bob@x', 'Bob', 0, 20)");
    update("INSERT INTO dept VALUES (10, 'sales'), (20, 'ops'), (30, 'lab')");
  }

  private Connection other() throws SQLException {
    return BasaltConnections.open(db);
  }

  private static List<String> rows(Connection conn, String sql) throws SQLException {
    return SqlTestSupport.rows(conn, sql);
  }

  private static int run(Connection conn, String sql, Object... args) throws SQLException {
    try (PreparedStatement p = conn.prepareStatement(sql)) {
      for (int i = 0; i < args.length; i++) {
        p.setObject(i + 1, args[i]);
      }
      return p.executeUpdate();
    }
  }

  @Test
  void insertThenUpdateInOneTransaction() throws SQLException {
    c.setAutoCommit(false);
    assertEquals(1, run(c, "INSERT INTO person (id, email, name, version) VALUES (?, ?, ?, 0)",
        3, "cy@x", "Cy"));
    assertEquals(1, run(c, "UPDATE person SET name = ? WHERE id = ?", "Cyd", 3),
        "the update finds the row its transaction inserted");
    try (Connection o = other()) {
      assertEquals(List.of(), rows(o, "SELECT name FROM person WHERE id = 3"));
    }
    c.commit();
    try (Connection o = other()) {
      assertEquals(List.of("Cyd"), rows(o, "SELECT name FROM person WHERE id = 3"));
    }
  }

  @Test
  void ownRowsOnEveryReadPath() throws SQLException {
    c.setAutoCommit(false);
    run(c, "INSERT INTO person VALUES (3, 'cy@x', 'Cy', 0, 30)");
    run(c, "DELETE FROM person WHERE id = 1");
    run(c, "UPDATE person SET dept = 30 WHERE id = 2");
    assertEquals(List.of("2"), rows(c, "SELECT COUNT(*) FROM person"), "an aggregate");
    assertEquals(List.of("3"), rows(c, "SELECT id FROM person WHERE email = 'cy@x'"),
        "a unique index lookup");
    assertEquals(List.of(), rows(c, "SELECT id FROM person WHERE email = 'ann@x'"),
        "a deleted row's entry");
    assertEquals(List.of("Bob", "Cy"), rows(c, "SELECT name FROM person WHERE dept = 30 ORDER BY name"),
        "a covering index read of an updated and an inserted row");
    assertEquals(List.of("Bob|lab", "Cy|lab"), rows(c, "SELECT p.name, d.title FROM person p"
        + " JOIN dept d ON d.id = p.dept ORDER BY p.name"), "a join");
    assertEquals(List.of("2|Bob", "3|Cy"), rows(c, "SELECT id, name FROM person WHERE id >= 2"
        + " AND id < 10 ORDER BY id"), "a key range");
    assertEquals(List.of("3|Cy"), rows(c, "SELECT id, name FROM person WHERE name LIKE 'C%'"),
        "a pushed filter");
    assertEquals(1, run(c, "UPSERT INTO person (id, version) VALUES (3, 0)"
        + " ON DUPLICATE KEY UPDATE version = version + 1"));
    assertEquals(List.of("1"), rows(c, "SELECT version FROM person WHERE id = 3"));
    assertEquals(2, run(c, "INSERT INTO person (id, name) SELECT id + 100, name FROM person"));
    assertEquals(List.of("102|Bob", "103|Cy"), rows(c, "SELECT id, name FROM person WHERE id > 100"
        + " ORDER BY id"), "INSERT ... SELECT read the transaction's rows");
    try (Connection o = other()) {
      assertEquals(List.of("1|Ann|10", "2|Bob|20"), rows(o, "SELECT id, name, dept FROM person"
          + " ORDER BY id"), "others see none of it");
      assertEquals(List.of("1"), rows(o, "SELECT id FROM person WHERE email = 'ann@x'"));
    }
    c.commit();
    assertEquals(List.of("2|Bob|30", "3|Cy|30", "102|Bob|null", "103|Cy|null"),
        rows(c, "SELECT id, name, dept FROM person ORDER BY id"));
    assertEquals(List.of("3"), rows(c, "SELECT id FROM person WHERE email = 'cy@x'"));
  }

  @Test
  void aVersionedUpdateAfterAFlushFindsItsRow() throws SQLException {
    // Hibernate: persist + flush (INSERT), change the entity, commit (versioned UPDATE)
    c.setAutoCommit(false);
    run(c, "INSERT INTO person (id, email, name, version) VALUES (?, ?, ?, ?)", 5, "e@x", "E", 0);
    assertEquals(List.of("3"), rows(c, "SELECT COUNT(*) FROM person"), "auto-flush, then a count");
    assertEquals(List.of("5"), rows(c, "SELECT id FROM person WHERE email = 'e@x'"));
    assertEquals(1, run(c, "UPDATE person SET name = ?, version = ? WHERE id = ? AND version = ?",
        "Eve", 1, 5, 0));
    c.commit();
    assertEquals(List.of("Eve|1"), rows(c, "SELECT name, version FROM person WHERE id = 5"));
  }

  @Test
  void aFailingStatementIsUndoneAloneAndReportedAtOnce() throws SQLException {
    c.setAutoCommit(false);
    run(c, "INSERT INTO person (id, email) VALUES (3, 'c@x')");
    SQLException dup = assertThrows(SQLException.class,
        () -> run(c, "INSERT INTO person (id, email) VALUES (4, 'd@x'), (1, 'dup@x')"));
    assertEquals("23505", dup.getSQLState());
    SQLException unique = assertThrows(SQLException.class,
        () -> run(c, "INSERT INTO person (id, email) VALUES (6, 'c@x')"));
    assertEquals("23505", unique.getSQLState(), "the unique index holds the transaction's own");
    SQLException tooLong = assertThrows(SQLException.class,
        () -> run(c, "UPDATE person SET name = 'a name far too long for it' WHERE id = 3"));
    assertEquals("22001", tooLong.getSQLState());
    assertEquals(List.of("1", "2", "3"), rows(c, "SELECT id FROM person ORDER BY id"),
        "row 4 of the failed statement is gone");
    c.commit();
    assertEquals(List.of("1|ann@x", "2|bob@x", "3|c@x"),
        rows(c, "SELECT id, email FROM person ORDER BY id"));
  }

  @Test
  void theFirstCommitterWinsAndTheOtherAppliesNothing() throws SQLException {
    try (Connection o = other()) {
      c.setAutoCommit(false);
      o.setAutoCommit(false);
      run(c, "UPDATE person SET version = version + 1 WHERE id = 1");
      run(o, "UPDATE person SET version = version + 1 WHERE id = 1");
      run(o, "INSERT INTO dept VALUES (40, 'new')");
      c.commit();
      SQLException e = assertThrows(SQLException.class, o::commit);
      assertEquals("40001", e.getSQLState(), e.getMessage());
      assertEquals(List.of("1"), rows(c, "SELECT version FROM person WHERE id = 1"),
          "no lost update");
      assertEquals(List.of(), rows(c, "SELECT id FROM dept WHERE id = 40"),
          "nothing of the failed commit");
      // after a failed commit the connection goes on with a new transaction
      run(o, "UPDATE person SET version = version + 1 WHERE id = 1");
      o.commit();
      assertEquals(List.of("1"), rows(c, "SELECT version FROM person WHERE id = 1"),
          "c's transaction (begun by its last query) reads its snapshot");
      c.commit();
      assertEquals(List.of("2"), rows(c, "SELECT version FROM person WHERE id = 1"));
    }
  }

  @Test
  void repeatableReadAndReadCommitted() throws SQLException {
    assertEquals(Connection.TRANSACTION_REPEATABLE_READ, c.getTransactionIsolation());
    try (Connection o = other()) {
      c.setAutoCommit(false);
      assertEquals(List.of("Ann"), rows(c, "SELECT name FROM person WHERE id = 1"));
      run(o, "UPDATE person SET name = 'Anne' WHERE id = 1");
      assertEquals(List.of("Ann"), rows(c, "SELECT name FROM person WHERE id = 1"),
          "one snapshot for the transaction");
      c.commit();
      c.setTransactionIsolation(Connection.TRANSACTION_READ_COMMITTED); // for the next one
      assertEquals(Connection.TRANSACTION_READ_COMMITTED, c.getTransactionIsolation());
      assertEquals(List.of("Anne"), rows(c, "SELECT name FROM person WHERE id = 1"));
      run(o, "UPDATE person SET name = 'Annie' WHERE id = 1");
      assertEquals(List.of("Annie"), rows(c, "SELECT name FROM person WHERE id = 1"),
          "a snapshot per statement");
      c.rollback();
      c.setTransactionIsolation(Connection.TRANSACTION_READ_UNCOMMITTED);
      assertEquals(Connection.TRANSACTION_READ_COMMITTED, c.getTransactionIsolation(),
          "raised to the next level offered");
    }
    assertEquals("0A000", assertThrows(SQLException.class,
        () -> c.setTransactionIsolation(Connection.TRANSACTION_NONE)).getSQLState());
    c.setTransactionIsolation(Connection.TRANSACTION_SERIALIZABLE);
    assertEquals(Connection.TRANSACTION_SERIALIZABLE, c.getTransactionIsolation());
    DatabaseMetaData md = c.getMetaData();
    assertTrue(md.supportsTransactions());
    assertTrue(md.supportsSavepoints());
    assertEquals(Connection.TRANSACTION_REPEATABLE_READ, md.getDefaultTransactionIsolation());
    assertTrue(md.supportsTransactionIsolationLevel(Connection.TRANSACTION_REPEATABLE_READ));
    assertTrue(md.supportsTransactionIsolationLevel(Connection.TRANSACTION_READ_COMMITTED));
    assertFalse(md.supportsTransactionIsolationLevel(Connection.TRANSACTION_NONE));
    assertTrue(md.supportsTransactionIsolationLevel(Connection.TRANSACTION_SERIALIZABLE));
  }

  @Test
  void savepointsThroughJdbcAndSql() throws SQLException {
    c.setAutoCommit(false);
    run(c, "INSERT INTO dept VALUES (40, 'a')");
    Savepoint s1 = c.setSavepoint("s1");
    run(c, "INSERT INTO dept VALUES (41, 'b')");
    Savepoint unnamed = c.setSavepoint();
    run(c, "INSERT INTO dept VALUES (42, 'c')");
    c.rollback(unnamed);
    assertEquals(List.of("40", "41"), rows(c, "SELECT id FROM dept WHERE id >= 40 ORDER BY id"));
    c.rollback(s1);
    assertEquals(List.of("40"), rows(c, "SELECT id FROM dept WHERE id >= 40 ORDER BY id"));
    try (Statement st = c.createStatement()) {
      st.execute("SAVEPOINT sp");
      st.executeUpdate("INSERT INTO dept VALUES (43, 'd')");
      st.execute("ROLLBACK TO SAVEPOINT sp");
      st.executeUpdate("INSERT INTO dept VALUES (44, 'e')");
      st.execute("RELEASE SAVEPOINT sp");
      SQLException gone = assertThrows(SQLException.class, () -> st.execute("ROLLBACK TO sp"));
      assertEquals("3B001", gone.getSQLState());
      st.execute("COMMIT");
    }
    assertEquals(List.of("40", "44"), rows(c, "SELECT id FROM dept WHERE id >= 40 ORDER BY id"));
    try (Statement st = c.createStatement()) {
      st.executeUpdate("INSERT INTO dept VALUES (45, 'f')");
      st.execute("ROLLBACK");
    }
    assertEquals(List.of("40", "44"), rows(c, "SELECT id FROM dept WHERE id >= 40 ORDER BY id"));
    c.setAutoCommit(true);
    assertEquals("3B001", assertThrows(SQLException.class, () -> c.setSavepoint("x"))
        .getSQLState());
  }

  @Test
  void rollbackAndCloseDropEverything() throws SQLException {
    c.setAutoCommit(false);
    run(c, "UPDATE person SET name = 'X'");
    c.rollback();
    assertEquals(List.of("Ann", "Bob"), rows(c, "SELECT name FROM person ORDER BY id"));
    try (Connection o = other()) {
      o.setAutoCommit(false);
      run(o, "DELETE FROM person");
    }
    assertEquals(List.of("Ann", "Bob"), rows(c, "SELECT name FROM person ORDER BY id"));
    assertEquals(1, db.openSnapshots(), "the snapshot of c's transaction, begun by its query");
    c.rollback();
    assertEquals(0, db.openSnapshots(), "no pin left behind");
  }

  @Test
  void aTransactionPastItsBoundIsRolledBackWhole() throws SQLException {
    update("CREATE TABLE big (k INT PRIMARY KEY, v VARCHAR)");
    c.setAutoCommit(false);
    run(c, "INSERT INTO dept VALUES (60, 'kept?')");
    String mb = "x".repeat(1 << 20);
    SQLException e = assertThrows(SQLException.class, () -> {
      try (PreparedStatement p = c.prepareStatement("INSERT INTO big VALUES (?, ?)")) {
        for (int i = 0; i < 100; i++) { // 100 MiB of values
          p.setInt(1, i);
          p.setString(2, mb);
          p.executeUpdate();
        }
      }
    });
    assertEquals("53200", e.getSQLState(), e.getMessage());
    assertEquals(List.of(), rows(c, "SELECT id FROM dept WHERE id = 60"), "rolled back whole");
    assertEquals(List.of("0"), rows(c, "SELECT COUNT(*) FROM big"));
    run(c, "INSERT INTO dept VALUES (61, 'next')"); // a new transaction goes on
    c.commit();
    assertEquals(List.of("61"), rows(c, "SELECT id FROM dept WHERE id >= 60"));
  }

  @Test
  void ddlInATransactionCommitsItFirst() throws SQLException {
    c.setAutoCommit(false);
    run(c, "INSERT INTO dept VALUES (50, 'x')");
    update("CREATE TABLE other_t (k INT PRIMARY KEY)");
    c.rollback();
    assertEquals(List.of("50"), rows(c, "SELECT id FROM dept WHERE id = 50"));
  }

  @Test
  void preparedDdlRunsOnlyWhenExecuted() throws SQLException {
    // prepared, never executed: nothing happens
    try (PreparedStatement drop = c.prepareStatement("DROP TABLE dept")) {
      assertEquals(0, drop.getParameterMetaData().getParameterCount());
    }
    assertEquals(List.of("3"), rows(c, "SELECT COUNT(*) FROM dept"));
    PreparedStatement create = c.prepareStatement("CREATE TABLE made (k INT PRIMARY KEY)");
    assertThrows(SQLException.class, () -> rows(c, "SELECT * FROM made"));
    // Jdbi: prepareStatement, execute(), close
    assertFalse(create.execute());
    create.close();
    assertEquals(List.of(), rows(c, "SELECT * FROM made"));
    // MyBatis: prepareStatement, executeUpdate() (update count 0), close; and again
    try (PreparedStatement drop = c.prepareStatement("DROP TABLE made")) {
      assertEquals(0, drop.executeUpdate());
    }
    assertThrows(SQLException.class, () -> rows(c, "SELECT * FROM made"));
    try (PreparedStatement twice = c.prepareStatement("CREATE TABLE IF NOT EXISTS made2 (k INT)")) {
      assertEquals(0, twice.executeUpdate());
      assertEquals(0, twice.executeUpdate());
    }
    SQLException bad = assertThrows(SQLException.class,
        () -> c.prepareStatement("CREATE TABLE (oops"));
    assertEquals("42000", bad.getSQLState(), "a syntax error at preparation");
    SQLException missing = assertThrows(SQLException.class, () -> {
      try (PreparedStatement p = c.prepareStatement("DROP TABLE no_such_table")) {
        p.executeUpdate();
      }
    });
    assertEquals("42P01", missing.getSQLState(), missing.getMessage());
  }
}
