package io.basaltdb.torture;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

/**
 * The tables a torture round writes, each {@code (k BIGINT key, value, string)} where the string
 * is {@code 'v' || value} (a row whose two disagree is torn): {@code KV} plain, {@code SALTED}
 * salted in 4 buckets and pre-split, {@code FAM} two families with 3 versions, {@code CNT}
 * counters (no string); each with a secondary index (on the value, the string or the counter),
 * which after every kill must match its table both ways; and {@link #CHURNED}, created and
 * dropped over and over while the rows change.
 */
final class TortureTables {
  private TortureTables() {}

  static final int KEYS = 400;
  static final String[] NAMES = {"KV", "SALTED", "FAM", "CNT"};

  static void create(Connection c) throws SQLException {
    try (Statement st = c.createStatement()) {
      st.executeUpdate("CREATE TABLE IF NOT EXISTS kv (k BIGINT NOT NULL PRIMARY KEY, v BIGINT,"
          + " s VARCHAR(20))");
      st.executeUpdate("CREATE TABLE IF NOT EXISTS salted (k BIGINT NOT NULL PRIMARY KEY,"
          + " v BIGINT, s VARCHAR(20)) SALT_BUCKETS=4");
      st.executeUpdate("CREATE TABLE IF NOT EXISTS fam (k BIGINT NOT NULL PRIMARY KEY,"
          + " a.v BIGINT, b.s VARCHAR(20)) VERSIONS=3 SPLIT ON (100, 200, 300)");
      st.executeUpdate("CREATE TABLE IF NOT EXISTS cnt (k BIGINT NOT NULL PRIMARY KEY,"
          + " c BIGINT)");
      // secondary indexes, kept with every write (checked both ways after each kill)
      st.executeUpdate("CREATE INDEX IF NOT EXISTS kv_v ON kv (v) INCLUDE (s)");
      st.executeUpdate("CREATE INDEX IF NOT EXISTS salted_s ON salted (s DESC) SALT_BUCKETS=2");
      st.executeUpdate("CREATE INDEX IF NOT EXISTS fam_v ON fam (v, s)");
      st.executeUpdate("CREATE INDEX IF NOT EXISTS cnt_c ON cnt (c)");
      // the bank: transfers between accounts in transactions keep its total (checked after kills)
      st.executeUpdate("CREATE TABLE IF NOT EXISTS bank (k BIGINT NOT NULL PRIMARY KEY,"
          + " bal BIGINT NOT NULL) SPLIT ON (" + ACCOUNTS / 2 + ")");
      long rows;
      try (java.sql.ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM bank")) {
        rs.next();
        rows = rs.getLong(1);
      }
      if (rows == 0) { // opened in one transaction: all accounts or none
        c.setAutoCommit(false);
        try {
          for (int i = 0; i < ACCOUNTS; i++) {
            st.executeUpdate("UPSERT INTO bank VALUES (" + i + ", " + START + ")");
          }
          c.commit();
        } finally {
          c.setAutoCommit(true);
        }
      }
    }
  }

  /** The bank's accounts and what each holds at first. */
  static final int ACCOUNTS = 16;
  static final long START = 1000;

  /** What the bank's total must be: "" if it is, else what is wrong. */
  static String bankProblem(Connection c) throws SQLException {
    try (Statement st = c.createStatement();
        java.sql.ResultSet rs = st.executeQuery("SELECT COUNT(*), SUM(bal) FROM bank")) {
      rs.next();
      long n = rs.getLong(1);
      long total = rs.getLong(2);
      if (n == 0 || n == ACCOUNTS && total == ACCOUNTS * START) {
        return "";
      }
      return "bank: " + n + " accounts holding " + total + ", not " + ACCOUNTS + " holding "
          + ACCOUNTS * START + " (a transfer applied in part)";
    }
  }

  /**
   * An index of {@code KV} on its string that one writer thread creates and drops again and
   * again while the others write, so that kills land in its builds and drops.
   */
  static final String CHURNED = "KV_S";

  /** Creates and drops {@link #CHURNED} until the process is killed. */
  static void churnIndex(Connection c, Random r) {
    while (true) {
      try (Statement st = c.createStatement()) {
        st.executeUpdate("CREATE INDEX IF NOT EXISTS kv_s ON kv (s)");
        Thread.sleep(r.nextInt(30));
        st.executeUpdate("DROP INDEX IF EXISTS kv_s ON kv");
        Thread.sleep(r.nextInt(30));
      } catch (SQLException | RuntimeException e) {
        // the check after the kill finds what a failure left
      } catch (InterruptedException e) {
        return;
      }
    }
  }

  /** The indexes of the torture tables a kill left BUILDING. */
  static int buildingIndexes(io.basaltdb.engine.Database db) {
    int n = 0;
    io.basaltdb.sql.catalog.SqlCatalog catalog = new io.basaltdb.sql.catalog.SqlCatalog(db);
    for (String t : NAMES) {
      for (io.basaltdb.sql.catalog.SqlIndexDef i : catalog.indexes(
          new io.basaltdb.storage.TableName("default", t))) {
        n += i.state() == io.basaltdb.sql.catalog.SqlIndexDef.State.BUILDING ? 1 : 0;
      }
    }
    return n;
  }

  /**
   * What a user does after a crash interrupted index builds: the tables' indexes created again
   * with IF NOT EXISTS, which finishes a BUILDING one (and makes the churned one anew).
   */
  static void finishBuilds(Connection c) throws SQLException {
    create(c);
    try (Statement st = c.createStatement()) {
      st.executeUpdate("CREATE INDEX IF NOT EXISTS kv_s ON kv (s)");
    }
  }

  /**
   * Every index of the torture tables checked against its table both ways
   * ({@link io.basaltdb.sql.index.IndexVerifier}); a description of each difference, and of
   * each index still BUILDING ({@link #finishBuilds} must have finished them).
   */
  static java.util.List<String> indexProblems(io.basaltdb.engine.Database db) {
    java.util.List<String> problems = new java.util.ArrayList<>();
    io.basaltdb.sql.catalog.SqlCatalog catalog = new io.basaltdb.sql.catalog.SqlCatalog(db);
    for (String t : NAMES) {
      io.basaltdb.storage.TableName name = new io.basaltdb.storage.TableName("default", t);
      io.basaltdb.sql.catalog.SqlTableDef def = catalog.get(name);
      if (def == null) {
        continue;
      }
      for (io.basaltdb.sql.catalog.SqlIndexDef i : catalog.indexes(name)) {
        if (i.state() != io.basaltdb.sql.catalog.SqlIndexDef.State.ACTIVE) {
          problems.add("index " + i.name() + " of " + t + " is still " + i.state()
              + " after CREATE INDEX IF NOT EXISTS");
          continue;
        }
        var report = io.basaltdb.sql.index.IndexVerifier.verify(db, def, i);
        if (!report.consistent()) {
          problems.add("index " + i.name() + " of " + t + ": " + report);
        }
      }
    }
    return problems;
  }

  /** A key owned by {@code thread} of {@code threads}. */
  static long key(Random r, int thread, int threads) {
    long k = r.nextInt(KEYS / threads) * (long) threads + thread;
    return k < KEYS ? k : thread;
  }

  /**
   * Every table's rows, key to value; a torn row (string disagreeing with the value) is
   * reported by {@code torn} and kept out.
   */
  static Map<String, Map<Long, Long>> read(Connection c, java.util.function.Consumer<String> torn)
      throws SQLException {
    Map<String, Map<Long, Long>> all = new LinkedHashMap<>();
    try (Statement st = c.createStatement()) {
      for (String t : NAMES) {
        Map<Long, Long> rows = new TreeMap<>();
        boolean counter = t.equals("CNT");
        try (ResultSet rs = st.executeQuery(counter ? "SELECT k, c FROM cnt"
            : "SELECT k, v, s FROM " + t)) {
          while (rs.next()) {
            long k = rs.getLong(1);
            long v = rs.getLong(2);
            if (!counter && !("v" + v).equals(rs.getString(3))) {
              torn.accept(t + ":" + k + " v=" + v + " s=" + rs.getString(3));
              continue;
            }
            rows.put(k, v);
          }
        }
        all.put(t, rows);
      }
    }
    return all;
  }

  static Map<String, Map<Long, Long>> read(Connection c) throws SQLException {
    return read(c, torn -> { });
  }
}
