package io.basaltdb.sql.index;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basaltdb.sql.catalog.SqlCatalog;
import io.basaltdb.sql.catalog.SqlIndexDef;
import io.basaltdb.sql.catalog.SqlTableDef;
import io.basaltdb.sql.jdbc.BasaltConnection;
import io.basaltdb.storage.Storage;
import io.basaltdb.storage.TableName;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Scenarios for indexes kept by the client-side protocol (hbase-storage/doc/indexes-over-hbase.md),
 * run over any {@link Fixture}: the embedded engine seen as rows alone ({@code ClientIndexesTest})
 * and an HBase mini cluster ({@code HBaseIndexesTest}). Tables are named after the fixture's
 * suffix, so runs can share a cluster. Each scenario checks what the protocol promises: queries
 * through an index answer as the table does (no row the table does not hold with those values,
 * none missed), whatever call of a write its client died at or another writer cut in at, and
 * verify-index then finds the index consistent.
 */
public final class ClientIndexScenarios {
  /** Where scenarios run: connections on one storage whose tables go through {@link #death}. */
  public interface Fixture {
    Connection connect() throws SQLException;

    ClientDeath death();

    /** Appended to the scenario's table names. */
    String suffix();
  }

  static final String[] TABLES = {
    "CREATE TABLE %t (id INTEGER PRIMARY KEY, v VARCHAR(10), w INTEGER, x VARCHAR(10))",
    "CREATE TABLE %u (k INTEGER PRIMARY KEY, v VARCHAR(10))",
    "INSERT INTO %u VALUES (1, 'a'), (2, 'b'), (3, 'z')",
  };

  static final String ROWS = "INSERT INTO %t VALUES (1, 'a', 10, 'p'), (2, 'b', 20, 'q'),"
      + " (3, 'a', 30, 'r'), (4, NULL, 40, 's'), (5, 'c', 50, 't')";

  static final String[] INDEXES = {
    "CREATE INDEX t_v ON %t (v) INCLUDE (w)",
    "CREATE INDEX t_w ON %t (w DESC)",
    "CREATE INDEX t_x ON %t (UPPER(x))",
  };

  /** Writes, each followed in the comparisons by every query below. */
  static final String[] WRITES = {
    "UPDATE %t SET v = 'c' WHERE id = 1",
    "UPDATE %t SET w = w + 1 WHERE v = 'a'",
    "DELETE FROM %t WHERE id = 2",
    "INSERT INTO %t VALUES (6, 'a', 60, 'u')",
    "UPSERT INTO %t VALUES (3, 'b', 31, 'r2')",
    "UPDATE %t SET v = NULL WHERE id = 3",
    "UPDATE %t SET x = 'zz' WHERE id = 6",
    "INSERT INTO %t VALUES (2, 'b', 21, 'q2')",
    "DELETE FROM %t WHERE w > 45",
  };

  /**
   * Queries through the indexes (covering, fetching, ordered, a lookup join, NULLs, a
   * functional index), hinted: the plans compared do not then hang on row estimates (HBase's
   * lag its writes by seconds).
   */
  static final String[] QUERIES = {
    "SELECT /*+ INDEX(%t t_v) */ id, w FROM %t t WHERE v = 'a'",
    "SELECT /*+ INDEX(%t t_v) */ id, x FROM %t t WHERE v IN ('a', 'b')",
    "SELECT /*+ INDEX(%t t_w) */ id, v FROM %t t WHERE w BETWEEN 15 AND 45",
    "SELECT /*+ INDEX(%t t_w) */ id FROM %t t WHERE w > 0 ORDER BY w DESC",
    "SELECT /*+ INDEX(%t t_v) */ u.k, t.id FROM %u u JOIN %t t ON t.v = u.v",
    "SELECT /*+ INDEX(%t t_v) */ COUNT(*) FROM %t t WHERE v IS NULL",
    "SELECT /*+ INDEX(%t t_x) */ id, x FROM %t t WHERE UPPER(x) IN ('P', 'R2', 'ZZ')",
  };

  /** Pairs of writes of one row: the second cuts in at every call of the first. */
  static final String[][] RACES = {
    {"UPDATE %t SET v = 'x', w = 11 WHERE id = 1", "UPDATE %t SET v = 'y', w = 12 WHERE id = 1"},
    {"UPDATE %t SET v = 'x' WHERE id = 1", "UPDATE %t SET v = 'a' WHERE id = 1"},
    {"UPDATE %t SET w = w + 1 WHERE id = 3", "DELETE FROM %t WHERE id = 3"},
    {"DELETE FROM %t WHERE id = 3", "UPDATE %t SET v = 'q', w = 99 WHERE id = 3"},
    {"INSERT INTO %t VALUES (7, 'n', 70, 'n')", "UPSERT INTO %t VALUES (7, 'm', 71, 'm')"},
  };

  private final Fixture fixture;
  private final String t;
  private final String u;

  public ClientIndexScenarios(Fixture fixture) {
    this.fixture = fixture;
    this.t = "CIX_T" + fixture.suffix();
    this.u = "CIX_U" + fixture.suffix();
  }

  /** {@code sql} with the fixture's table names. */
  String sql(String template) {
    return template.replace("%t", t).replace("%u", u);
  }

  /** Makes the tables, their rows and indexes. */
  public void create(Statement st) throws SQLException {
    for (String s : TABLES) {
      st.execute(sql(s));
    }
    st.execute(sql(ROWS));
    for (String s : INDEXES) {
      st.execute(sql(s));
    }
  }

  public void drop(Statement st) throws SQLException {
    st.execute("DROP TABLE " + t);
    st.execute("DROP TABLE " + u);
  }

  /**
   * Every write and query run here and on {@code reference} (embedded indexes, the same tables
   * made by {@link #create}): the same update counts, plans (EXPLAIN) and answers.
   */
  public void sameAnswersAndPlans(Connection reference) throws SQLException {
    try (Connection kept = fixture.connect();
        Statement a = kept.createStatement();
        Statement b = reference.createStatement()) {
      for (String q : QUERIES) {
        String plan = rows(a, "EXPLAIN PLAN FOR " + sql(q)).toString();
        assertEquals(rows(b, "EXPLAIN PLAN FOR " + sql(q)).toString(), plan, q);
        assertTrue(plan.contains("index=") || plan.contains("lookup=[index"), plan);
      }
      for (String w : WRITES) {
        assertEquals(b.executeUpdate(sql(w)), a.executeUpdate(sql(w)), w);
        for (String q : QUERIES) {
          assertEquals(sorted(rows(b, sql(q))), sorted(rows(a, sql(q))), "after " + w + ": " + q);
        }
      }
      assertEquals(rows(b, sql("SELECT * FROM %t ORDER BY id")),
          rows(a, sql("SELECT * FROM %t ORDER BY id")));
      assertClean(kept, t, "T_V", false);
      assertClean(kept, t, "T_W", false);
      assertClean(kept, t, "T_X", false);
      for (String ddl : new String[] {"ALTER INDEX t_w ON %t REBUILD",
          "DROP INDEX t_x ON %t; CREATE INDEX t_x ON %t (UPPER(x))"}) {
        for (String one : ddl.split("; ")) {
          a.execute(sql(one));
          b.execute(sql(one));
        }
        for (String q : QUERIES) {
          assertEquals(sorted(rows(b, sql(q))), sorted(rows(a, sql(q))), "after " + ddl + ": " + q);
        }
      }
      assertClean(kept, t, "T_W", false);
      assertClean(kept, t, "T_X", false);
    }
  }

  /**
   * Multi-row statements and JDBC batches, written in batches of rows: 600 rows (more than one
   * batch) upserted, updated and deleted, answering as on {@code reference} (embedded indexes,
   * the tables as {@link #create} made them); a duplicate key in the middle of an INSERT, a key
   * twice in one INSERT, a duplicate in a JDBC batch: 23505, the rows before it written (a
   * statement over a storage of rows alone is not one atomic write), the rest not, the index
   * consistent.
   */
  public void sameAnswersForManyRowsAndFailures(Connection reference) throws SQLException {
    try (Connection kept = fixture.connect();
        Statement a = kept.createStatement();
        Statement b = reference.createStatement()) {
      StringBuilder many = new StringBuilder("UPSERT INTO %t VALUES ");
      for (int i = 100; i < 700; i++) {
        many.append(i == 100 ? "" : ", ").append("(").append(i).append(", 'm").append(i % 7)
            .append("', ").append(i).append(", 'x')");
      }
      String[] statements = {
        many.toString(),
        "UPDATE %t SET v = 'n', w = w + 1 WHERE id >= 100 AND id < 650",
        "UPSERT INTO %t VALUES (30, 'a', 1, 'x'), (30, 'b', 2, 'y'), (31, NULL, 3, 'z')",
        "DELETE FROM %t WHERE id >= 100 AND MOD(id, 3) = 0",
      };
      for (String w : statements) {
        assertEquals(b.executeUpdate(sql(w)), a.executeUpdate(sql(w)), w);
        for (String q : QUERIES) {
          assertEquals(sorted(rows(b, sql(q))), sorted(rows(a, sql(q))), "after " + w + ": " + q);
        }
      }
      assertEquals("23505", UniqueIndexScenarios.outcome(a, sql("INSERT INTO %t VALUES (10, 'a', 1, 'x'),"
          + " (11, 'b', 2, 'y'), (1, 'd', 3, 'z'), (12, 'c', 4, 'w')")));
      assertEquals("23505", UniqueIndexScenarios.outcome(a, sql("INSERT INTO %t VALUES (20, 'a', 1, 'x'),"
          + " (21, 'a', 1, 'x'), (20, 'b', 2, 'y'), (22, 'a', 1, 'x')")));
      String insert = sql("INSERT INTO %t VALUES (?, ?, ?, ?)");
      try (java.sql.PreparedStatement p = kept.prepareStatement(insert)) {
        for (int i = 40; i < 46; i++) {
          p.setInt(1, i == 43 ? 1 : i); // a stored key at the fourth row
          p.setString(2, "a");
          p.setInt(3, i);
          p.setString(4, "j");
          p.addBatch();
        }
        java.sql.BatchUpdateException e = org.junit.jupiter.api.Assertions.assertThrows(
            java.sql.BatchUpdateException.class, p::executeBatch);
        assertEquals("23505", e.getSQLState());
        assertEquals("[1, 1, 1]", java.util.Arrays.toString(e.getUpdateCounts()));
      }
      // what the failing statements wrote: the rows before their failing row
      b.executeUpdate(sql("INSERT INTO %t VALUES (10, 'a', 1, 'x'), (11, 'b', 2, 'y'),"
          + " (20, 'a', 1, 'x'), (21, 'a', 1, 'x'), (40, 'a', 40, 'j'), (41, 'a', 41, 'j'),"
          + " (42, 'a', 42, 'j')"));
      for (String q : QUERIES) {
        assertEquals(sorted(rows(b, sql(q))), sorted(rows(a, sql(q))), q);
      }
      assertEquals(rows(b, sql("SELECT * FROM %t ORDER BY id")),
          rows(a, sql("SELECT * FROM %t ORDER BY id")));
      assertClean(kept, t, "T_V", false);
      assertClean(kept, t, "T_W", false);
    }
  }

  /**
   * {@link #WRITES} inside transactions (auto-commit off) here and on {@code reference}
   * (embedded indexes, its tables as this storage's): each write's outcome, then every query
   * through the indexes inside the transaction (its own rows seen through them) and their
   * plans, as embedded. The first transaction is rolled back; the second rolls back to a
   * savepoint set halfway, then commits. After each, the same answers and rows, and
   * verify-index finds every index consistent.
   */
  public void sameAnswersInTransactions(Connection reference) throws SQLException {
    try (Connection kept = fixture.connect();
        Statement a = kept.createStatement();
        Statement b = reference.createStatement()) {
      for (boolean commit : new boolean[] {false, true}) {
        kept.setAutoCommit(false);
        reference.setAutoCommit(false);
        java.sql.Savepoint[] marks = null;
        for (int i = 0; i < WRITES.length; i++) {
          if (commit && i == WRITES.length / 2) {
            marks = new java.sql.Savepoint[] {kept.setSavepoint(), reference.setSavepoint()};
          }
          String w = sql(WRITES[i]);
          assertEquals(UniqueIndexScenarios.outcome(b, w), UniqueIndexScenarios.outcome(a, w), w);
          for (String q : QUERIES) {
            assertEquals(sorted(rows(b, sql(q))), sorted(rows(a, sql(q))),
                "in a transaction, after " + w + ": " + q);
            if (i == 0) {
              assertEquals(rows(b, "EXPLAIN PLAN FOR " + sql(q)).toString(),
                  rows(a, "EXPLAIN PLAN FOR " + sql(q)).toString(), q);
            }
          }
        }
        if (commit) {
          kept.rollback(marks[0]);
          reference.rollback(marks[1]);
          kept.commit();
          reference.commit();
        } else {
          kept.rollback();
          reference.rollback();
        }
        kept.setAutoCommit(true);
        reference.setAutoCommit(true);
        for (String q : QUERIES) {
          assertEquals(sorted(rows(b, sql(q))), sorted(rows(a, sql(q))),
              (commit ? "committed: " : "rolled back: ") + q);
        }
        assertEquals(rows(b, sql("SELECT * FROM %t ORDER BY id")),
            rows(a, sql("SELECT * FROM %t ORDER BY id")));
        assertClean(kept, t, "T_V", false);
        assertClean(kept, t, "T_W", false);
        assertClean(kept, t, "T_X", false);
      }
    }
  }

  /**
   * A transaction's rows committed over what another writer wrote of them after its
   * statements: each row ends with the transaction's columns over the other's, and its entries
   * are those of the values it ends with, not those the statements saw (the transaction's own
   * entries are not what its commit writes).
   */
  public void commitOverAnotherWriter() throws SQLException {
    try (Connection c = fixture.connect();
        Connection o = fixture.connect();
        Statement st = c.createStatement();
        Statement other = o.createStatement()) {
      reset(st, 0);
      c.setAutoCommit(false);
      st.executeUpdate(sql("UPDATE %t SET w = 77 WHERE id = 1"));
      st.executeUpdate(sql("UPDATE %t SET v = 'k' WHERE id = 2"));
      other.executeUpdate(sql("UPDATE %t SET v = 'z' WHERE id = 1"));
      other.executeUpdate(sql("UPDATE %t SET v = 'y', w = 99 WHERE id = 2"));
      c.commit();
      c.setAutoCommit(true);
      assertEquals("[[1, z, 77, p], [2, k, 99, q]]",
          rows(st, sql("SELECT * FROM %t WHERE id < 3 ORDER BY id")).toString());
      sameAsTable(st, "a commit over another writer's rows");
      assertClean(c, t, "T_V", false);
      assertClean(c, t, "T_W", false);
      assertClean(c, t, "T_X", false);
    }
  }

  /** One transaction's writes, committed at once: a kill cuts its commit. */
  static final String[] TRANSACTION = {
    "UPDATE %t SET v = 'k', w = 77 WHERE id = 1",
    "DELETE FROM %t WHERE id = 3",
    "INSERT INTO %t VALUES (8, 'a', 80, 'v')",
    "UPDATE %t SET x = 'y' WHERE id = 5",
    "DELETE FROM %t WHERE id = 8",
    "INSERT INTO %t VALUES (8, 'b', 81, 'w')",
  };

  /**
   * The commit of {@link #TRANSACTION} killed at each of its storage calls: queries through
   * the indexes answer as the table does, and verify-index (repairing) finds them consistent.
   * Returns the number of cut points.
   */
  public int killCommitAtEveryCall() throws SQLException {
    int cuts = 0;
    ClientDeath death = fixture.death();
    try (Connection c = fixture.connect(); Statement st = c.createStatement()) {
      long calls = -1;
      for (long at = 0; at <= calls || calls < 0; at++) {
        reset(st, 0);
        c.setAutoCommit(false);
        for (String w : TRANSACTION) {
          st.executeUpdate(sql(w));
        }
        death.reset(at);
        boolean failed = false;
        try {
          c.commit();
        } catch (SQLException e) {
          failed = true;
        }
        long made = death.calls();
        death.reset(0); // another client, on the same storage
        c.setAutoCommit(true);
        if (at == 0) {
          calls = made;
          assertTrue(!failed && calls >= 6, "the commit made " + calls + " calls");
          assertEquals("[[1, k, 77, p], [2, b, 20, q], [4, null, 40, s], [5, c, 50, y],"
              + " [8, b, 81, w]]", rows(st, sql("SELECT * FROM %t ORDER BY id")).toString());
        } else {
          assertTrue(failed, "the commit should have died at call " + at + " (made " + made
              + " calls, " + calls + " when counted)");
          cuts++;
        }
        String where = "the commit killed at call " + at + " of " + calls;
        sameAsTable(st, where);
        assertClean(c, t, "T_V", true);
        assertClean(c, t, "T_W", true);
        assertClean(c, t, "T_X", true);
      }
    }
    return cuts;
  }

  /**
   * For each write and each of its storage calls: the table's rows as {@link #ROWS} and the
   * writes before it, then the write's client killed at that call; queries through the indexes
   * must answer as the table does, and verify-index (repairing) find them consistent. Returns the
   * number of cut points.
   */
  public int killAtEveryCall() throws SQLException {
    int cuts = 0;
    ClientDeath death = fixture.death();
    try (Connection c = fixture.connect(); Statement st = c.createStatement()) {
      for (int w = 0; w < WRITES.length; w++) {
        reset(st, w);
        death.reset(0);
        st.executeUpdate(sql(WRITES[w]));
        long calls = death.calls();
        assertTrue(calls >= 3, WRITES[w] + " made " + calls + " calls");
        for (long at = 1; at <= calls; at++) {
          reset(st, w);
          death.reset(at);
          boolean failed = false;
          try {
            st.executeUpdate(sql(WRITES[w]));
          } catch (SQLException e) {
            failed = true;
          }
          long made = death.calls();
          death.reset(0); // another client, on the same storage
          assertTrue(failed, WRITES[w] + " should have died at call " + at + " (made " + made
              + " calls, " + calls + " when counted)");
          String where = WRITES[w] + " killed at call " + at + " of " + calls;
          sameAsTable(st, where);
          assertClean(c, t, "T_V", true);
          assertClean(c, t, "T_W", true);
          assertClean(c, t, "T_X", true);
          cuts++;
        }
      }
    }
    return cuts;
  }

  /**
   * For each pair of {@link #RACES}, at each call of the first write, the second runs whole
   * from another connection (the first paused there): the row ends with one writer's values,
   * queries agree with the table, and verify-index needs no fence. Returns the interleavings.
   */
  public int overtakeAtEveryCall() throws SQLException {
    int runs = 0;
    ClientDeath death = fixture.death();
    try (Connection c = fixture.connect();
        Connection o = fixture.connect();
        Statement st = c.createStatement();
        Statement other = o.createStatement()) {
      for (String[] race : RACES) {
        reset(st, 0);
        death.reset(0);
        st.executeUpdate(sql(race[0]));
        long calls = death.calls();
        for (long at = 1; at <= calls; at++) {
          reset(st, 0);
          death.cutIn(at, () -> {
            try {
              other.executeUpdate(sql(race[1]));
            } catch (SQLException e) {
              throw new IllegalStateException(e);
            }
          });
          try {
            st.executeUpdate(sql(race[0]));
          } catch (SQLException e) {
            assertTrue(race[0].startsWith("INSERT") && "23505".equals(e.getSQLState()),
                race[0] + " overtaken at call " + at + ": " + e);
          }
          death.reset(0);
          sameAsTable(st, race[0] + " overtaken at call " + at + " by " + race[1]);
          assertClean(c, t, "T_V", false);
          assertClean(c, t, "T_W", false);
          assertClean(c, t, "T_X", false);
          runs++;
        }
      }
    }
    return runs;
  }

  /** The rows of {@link #ROWS} and the first {@code writes} writes, nothing else. */
  private void reset(Statement st, int writes) throws SQLException {
    st.executeUpdate(sql("DELETE FROM %t"));
    st.executeUpdate(sql(ROWS));
    for (int i = 0; i < writes; i++) {
      st.executeUpdate(sql(WRITES[i]));
    }
  }

  /** Every query answers as the same query reading the table without index. */
  void sameAsTable(Statement st, String where) throws SQLException {
    for (String q : QUERIES) {
      String withIndex = sql(q);
      String without = withIndex.replaceFirst(
          "SELECT (/\\*\\+ INDEX\\([A-Za-z0-9_]+ t_.\\) \\*/ )?", "SELECT /*+ NO_INDEX */ ");
      assertEquals(sorted(rows(st, without)), sorted(rows(st, withIndex)), where + ": " + q);
    }
  }

  /** {@code query} (no hint) answers as the same query reading the table without index. */
  public static void assertSameWithIndex(Statement st, String query, String where)
      throws SQLException {
    assertEquals(sorted(rows(st, query.replaceFirst("SELECT ", "SELECT /*+ NO_INDEX */ "))),
        sorted(rows(st, query)), where + ": " + query);
  }

  /**
   * verify-index finds {@code index} of {@code table} consistent (after fencing, with {@code
   * repair}, what readers cannot settle), and a second run finds nothing left unverified.
   */
  public static void assertClean(Connection c, String table, String index, boolean repair)
      throws SQLException {
    Storage db = c.unwrap(BasaltConnection.class).storage();
    SqlCatalog catalog = new SqlCatalog(db);
    SqlTableDef def = catalog.get(TableName.of(table));
    SqlIndexDef found = catalog.indexes(def.table()).stream()
        .filter(i -> i.name().equals(index)).findFirst().orElseThrow();
    IndexVerifier.Report report = IndexVerifier.verify(db, def, found, repair);
    assertTrue(report.consistent(), report.toString());
    IndexVerifier.Report again = IndexVerifier.verify(db, def, found);
    assertTrue(again.consistent(), again.toString());
    assertEquals(0, again.unverified(), "the first run settled every entry: " + again);
  }

  public static List<List<Object>> rows(Statement st, String sql) throws SQLException {
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

  public static List<String> sorted(List<List<Object>> rows) {
    List<String> out = new ArrayList<>();
    for (List<Object> r : rows) {
      out.add(r.toString());
    }
    Collections.sort(out);
    return out;
  }
}
