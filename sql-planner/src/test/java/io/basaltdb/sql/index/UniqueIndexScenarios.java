package io.basaltdb.sql.index;

import static io.basaltdb.sql.index.ClientIndexScenarios.assertClean;
import static io.basaltdb.sql.index.ClientIndexScenarios.rows;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * UNIQUE indexes and constraints kept by the client-side protocol (doc "UNIQUE": an entry row
 * per value, claimed by check-and-mutate, a possibly stale holder's row fenced), over a {@link
 * ClientIndexScenarios.Fixture}: the same refusals as embedded indexes, two writers of one
 * value racing at every call, a client killed at every call of a claim, concurrent writers.
 */
public final class UniqueIndexScenarios {
  private final ClientIndexScenarios.Fixture fixture;
  private final String q;

  public UniqueIndexScenarios(ClientIndexScenarios.Fixture fixture) {
    this.fixture = fixture;
    this.q = "CIX_Q" + fixture.suffix();
  }

  private String sql(String template) {
    return template.replace("%q", q);
  }

  static final String[] SETUP = {
    "CREATE TABLE %q (id INTEGER PRIMARY KEY, email VARCHAR(20), name VARCHAR(10),"
        + " code VARCHAR(5) UNIQUE)",
    "CREATE UNIQUE INDEX q_e ON %q (email) INCLUDE (name)",
  };

  static final String[] STATEMENTS = {
    "INSERT INTO %q VALUES (1, 'a@x', 'ann', 'A')",
    "INSERT INTO %q VALUES (2, 'a@x', 'bob', 'B')",
    "INSERT INTO %q VALUES (2, 'b@x', 'bob', 'B')",
    "INSERT INTO %q VALUES (9, 'i@x', 'ida', 'A')",
    "UPDATE %q SET email = 'a@x' WHERE id = 2",
    "UPDATE %q SET email = 'c@x' WHERE id = 1",
    "INSERT INTO %q VALUES (3, 'a@x', 'cy', 'C')",
    "INSERT INTO %q VALUES (4, NULL, 'dan', NULL), (5, NULL, 'eve', NULL)",
    "UPSERT INTO %q VALUES (2, 'c@x', 'bo', 'B')",
    "UPSERT INTO %q VALUES (2, 'b@x', 'bo', 'B')",
    "DELETE FROM %q WHERE id = 1",
    "INSERT INTO %q VALUES (6, 'c@x', 'fay', 'F')",
    "UPDATE %q SET email = 'e@x', code = 'C' WHERE id = 6",
    "UPDATE %q SET email = UPPER(email) WHERE id < 4",
  };

  static final String[] QUERIES = {
    "SELECT id, name FROM %q WHERE email = 'a@x'",
    "SELECT /*+ INDEX(%q q_e) */ id, email, name, code FROM %q WHERE email >= 'A'",
    "SELECT id, code FROM %q WHERE code IN ('A', 'B', 'C', 'F')",
  };

  public void create(Statement st) throws SQLException {
    for (String s : SETUP) {
      st.execute(sql(s));
    }
  }

  public void drop(Statement st) throws SQLException {
    st.execute(sql("DROP TABLE %q"));
  }

  /**
   * Each statement's outcome (count, or SQLState) and then the rows and the queries through
   * the unique indexes, as on {@code reference} (embedded indexes, the table as {@link #create}
   * made it); a UNIQUE index created over duplicates fails with 23505 and leaves no index.
   */
  public void sameRefusalsAsEmbedded(Connection reference) throws SQLException {
    try (Connection kept = fixture.connect();
        Statement a = kept.createStatement();
        Statement b = reference.createStatement()) {
      for (String s : STATEMENTS) {
        assertEquals(outcome(b, sql(s)), outcome(a, sql(s)), s);
        for (String query : QUERIES) {
          assertEquals(ClientIndexScenarios.sorted(rows(b, sql(query))),
              ClientIndexScenarios.sorted(rows(a, sql(query))), "after " + s + ": " + query);
        }
      }
      assertEquals(rows(b, sql("SELECT * FROM %q ORDER BY id")),
          rows(a, sql("SELECT * FROM %q ORDER BY id")));
      assertClean(kept, q, "Q_E", false);
      for (String s : new String[] {"UPDATE %q SET name = 'same' WHERE id IN (2, 3)",
          "CREATE UNIQUE INDEX q_n ON %q (name)", "DROP INDEX q_n ON %q",
          "UPDATE %q SET name = 'x' WHERE id = 2", "CREATE UNIQUE INDEX q_n ON %q (name)"}) {
        assertEquals(outcome(b, sql(s)), outcome(a, sql(s)), s);
      }
      assertEquals(rows(b, sql("SELECT id, name FROM %q WHERE name = 'x'")),
          rows(a, sql("SELECT id, name FROM %q WHERE name = 'x'")));
      assertClean(kept, q, "Q_N", false);
    }
  }

  /**
   * {@link #STATEMENTS} again, from an empty table, inside one transaction here and on {@code
   * reference} (auto-commit off): each outcome (a duplicate of a committed or an own row: 23505,
   * the transaction goes on) and the queries through the unique indexes inside it, as
   * embedded; then committed, the same rows, and the index consistent.
   */
  public void sameRefusalsInTransactions(Connection reference) throws SQLException {
    try (Connection kept = fixture.connect();
        Statement a = kept.createStatement();
        Statement b = reference.createStatement()) {
      a.executeUpdate(sql("DELETE FROM %q"));
      b.executeUpdate(sql("DELETE FROM %q"));
      kept.setAutoCommit(false);
      reference.setAutoCommit(false);
      for (String s : STATEMENTS) {
        assertEquals(outcome(b, sql(s)), outcome(a, sql(s)), "in a transaction: " + s);
        for (String query : QUERIES) {
          assertEquals(ClientIndexScenarios.sorted(rows(b, sql(query))),
              ClientIndexScenarios.sorted(rows(a, sql(query))),
              "in a transaction, after " + s + ": " + query);
        }
      }
      kept.commit();
      reference.commit();
      kept.setAutoCommit(true);
      reference.setAutoCommit(true);
      assertEquals(rows(b, sql("SELECT * FROM %q ORDER BY id")),
          rows(a, sql("SELECT * FROM %q ORDER BY id")));
      assertClean(kept, q, "Q_E", false);
    }
  }

  /**
   * Two transactions each inserting a row of one new value, neither seeing the other's: the
   * first to commit keeps it, the second's commit fails with 23505 (its earlier row, of
   * another value, committed: a commit here is row by row), and the index is consistent.
   */
  public void twoTransactionsOfOneValue() throws SQLException {
    try (Connection a = fixture.connect();
        Connection b = fixture.connect();
        Statement sa = a.createStatement();
        Statement sb = b.createStatement()) {
      a.setAutoCommit(false);
      b.setAutoCommit(false);
      sa.executeUpdate(sql("INSERT INTO %q VALUES (70, 'race@x', 'ra', NULL)"));
      sb.executeUpdate(sql("INSERT INTO %q VALUES (71, 'other@x', 'rb', NULL)"));
      sb.executeUpdate(sql("INSERT INTO %q VALUES (72, 'race@x', 'rc', NULL)"));
      a.commit();
      SQLException e = org.junit.jupiter.api.Assertions.assertThrows(SQLException.class,
          b::commit);
      assertEquals("23505", e.getSQLState(), e.toString());
      a.setAutoCommit(true);
      b.setAutoCommit(true);
      assertEquals("[[70, ra], [71, rb]]",
          rows(sa, sql("SELECT id, name FROM %q WHERE id >= 70 ORDER BY id")).toString());
      assertEquals("[[70]]", rows(sa, sql("SELECT id FROM %q WHERE email = 'race@x'"))
          .toString());
      assertClean(a, q, "Q_E", false);
    }
  }

  /**
   * Two writers of one value from different rows: at every call of the first, the second runs
   * whole. Exactly one of them holds the value afterwards, the other got 23505, and the index is
   * consistent with no fence needed. Pairs: two INSERTs; an UPDATE taking a value another
   * UPDATE releases; an INSERT against an UPDATE taking the same value.
   */
  public int racesAtEveryCall() throws SQLException {
    String[][] races = {
      {"INSERT INTO %q VALUES (10, 'z@x', 'p', NULL)", "INSERT INTO %q VALUES (11, 'z@x', 'q', NULL)"},
      {"UPDATE %q SET email = 'y@x' WHERE id = 20", "UPDATE %q SET email = 'y@x' WHERE id = 21"},
      {"INSERT INTO %q VALUES (12, 'w@x', 'p', NULL)", "UPDATE %q SET email = 'w@x' WHERE id = 20"},
    };
    int runs = 0;
    ClientDeath death = fixture.death();
    try (Connection c = fixture.connect();
        Connection o = fixture.connect();
        Statement st = c.createStatement();
        Statement other = o.createStatement()) {
      for (String[] race : races) {
        reset(st);
        death.reset(0);
        st.executeUpdate(sql(race[0]));
        long calls = death.calls();
        for (long at = 1; at <= calls; at++) {
          reset(st);
          String[] second = new String[1];
          death.cutIn(at, () -> second[0] = outcome(other, sql(race[1])));
          String first = outcome(st, sql(race[0]));
          death.reset(0);
          String where = race[0] + " overtaken at call " + at + " by " + race[1] + ": " + first
              + " / " + second[0];
          assertTrue((first.equals("count 1") && "23505".equals(second[0]))
              || (first.equals("23505") && "count 1".equals(second[0])), where);
          assertEquals(List.of(), rows(st, sql("SELECT email FROM %q WHERE email IS NOT NULL"
              + " GROUP BY email HAVING COUNT(*) > 1")), where);
          ClientIndexScenarios.assertSameWithIndex(st, sql("SELECT id, email FROM %q"
              + " WHERE email IN ('z@x', 'y@x', 'w@x', 'v@x')"), where);
          try {
            assertClean(c, q, "Q_E", false);
          } catch (AssertionError e) {
            throw new AssertionError(where + ": " + e.getMessage(), e);
          }
          runs++;
        }
      }
    }
    return runs;
  }

  /**
   * A client killed at every call of an UPDATE that takes a value another row released: the
   * value is then held by its row or free, never blocked by what the dead client left (another
   * row takes it when its row did not), and verify-index (repairing) is clean.
   */
  public int killAtEveryCall() throws SQLException {
    String write = "UPDATE %q SET email = 'v@x' WHERE id = 20";
    ClientDeath death = fixture.death();
    int cuts = 0;
    try (Connection c = fixture.connect(); Statement st = c.createStatement()) {
      reset(st);
      death.reset(0);
      st.executeUpdate(sql(write));
      long calls = death.calls();
      for (long at = 1; at <= calls; at++) {
        reset(st);
        death.reset(at);
        String died = outcome(st, sql(write));
        death.reset(0);
        assertTrue(!died.startsWith("count"), write + " should have died at call " + at);
        boolean held = !rows(st, sql("SELECT /*+ NO_INDEX */ id FROM %q WHERE email = 'v@x'"))
            .isEmpty();
        assertEquals(held ? "23505" : "count 1",
            outcome(st, sql("UPDATE %q SET email = 'v@x' WHERE id = 21")),
            write + " killed at call " + at);
        assertClean(c, q, "Q_E", true);
        cuts++;
      }
    }
    return cuts;
  }

  /** Rows 20 ('v@x' released by 22 first) and 21, nothing else. */
  private void reset(Statement st) throws SQLException {
    st.executeUpdate(sql("DELETE FROM %q"));
    st.executeUpdate(sql("INSERT INTO %q VALUES (20, 't@x', 'r', NULL), (21, 'u@x', 's', NULL),"
        + " (22, 'v@x', 'o', NULL)"));
    st.executeUpdate(sql("UPDATE %q SET email = 'old@x' WHERE id = 22"));
  }

  /**
   * Writers inserting, moving and deleting rows over few values from many rows: no value is ever
   * held by two rows, and the index is consistent afterwards.
   */
  public void concurrentWriters(long seed, int writers, int millis) throws Exception {
    List<String> failures = java.util.Collections.synchronizedList(new ArrayList<>());
    java.util.concurrent.atomic.AtomicBoolean stop = new java.util.concurrent.atomic.AtomicBoolean();
    java.util.concurrent.atomic.AtomicLong refused = new java.util.concurrent.atomic.AtomicLong();
    java.util.concurrent.atomic.AtomicLong written = new java.util.concurrent.atomic.AtomicLong();
    try (Connection c = fixture.connect(); Statement st = c.createStatement()) {
      st.executeUpdate(sql("DELETE FROM %q"));
      List<Thread> threads = new ArrayList<>();
      for (int t = 0; t < writers; t++) {
        java.util.Random random = new java.util.Random(seed + t);
        threads.add(new Thread(() -> {
          try (Connection w = fixture.connect(); Statement s = w.createStatement()) {
            while (!stop.get()) {
              int id = random.nextInt(40);
              String v = "'u" + random.nextInt(12) + "'";
              String statement = switch (random.nextInt(4)) {
                case 0 -> "INSERT INTO %q VALUES (" + id + ", " + v + ", 'n', NULL)";
                case 1 -> "DELETE FROM %q WHERE id = " + id;
                default -> "UPDATE %q SET email = " + v + " WHERE id = " + id;
              };
              String out = outcome(s, sql(statement));
              if (out.equals("23505")) {
                refused.incrementAndGet();
              } else if (out.startsWith("count")) {
                written.incrementAndGet();
              } else {
                failures.add(statement + ": " + out);
              }
            }
          } catch (Throwable e) {
            failures.add(e.toString());
          }
        }));
      }
      threads.forEach(Thread::start);
      Thread.sleep(millis);
      stop.set(true);
      for (Thread t : threads) {
        t.join();
      }
      assertTrue(failures.isEmpty(), "seed " + seed + ": " + failures);
      assertEquals(List.of(), rows(st, sql("SELECT email, COUNT(*) FROM %q WHERE email IS NOT"
          + " NULL GROUP BY email HAVING COUNT(*) > 1")), "seed " + seed);
      assertTrue(refused.get() > 10 && written.get() > 10, refused + " refused, " + written
          + " written");
      assertClean(c, q, "Q_E", true);
      ClientIndexScenarios.assertSameWithIndex(st, sql("SELECT id, email FROM %q WHERE email"
          + " >= 'u'"), "seed " + seed);
      System.out.println("UniqueIndexScenarios: " + written + " writes, " + refused
          + " refused as duplicates");
    }
  }

  static String outcome(Statement st, String sql) {
    try {
      return "count " + st.executeUpdate(sql);
    } catch (SQLException e) {
      return e.getSQLState();
    }
  }
}
