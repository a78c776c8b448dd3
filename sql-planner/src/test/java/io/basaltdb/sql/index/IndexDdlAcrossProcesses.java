package io.basaltdb.sql.index;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basaltdb.sql.catalog.SqlCatalog;
import io.basaltdb.storage.TableName;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * Index DDL of one process while a statement of another writes the table (two processes
 * sharing one storage, as HBase clients share a cluster). The writer's statement reads its rows
 * from two tables; just before it opens the second, the other process creates or drops an
 * index, so rows the writer holds in a batch for the old index list are still unsent when the
 * build has read the table. Those rows, and every later one, must be written for the new list
 * ({@link IndexListLease}): sent as they were, they would lack the new index's entries, or write
 * entries into a dropped index's table. Run on the embedded engine seen as two processes
 * ({@code IndexDdlAcrossProcessesTest}) and on the HBase mini cluster ({@code
 * HBaseIndexesTest}).
 */
public final class IndexDdlAcrossProcesses {
  /** Rows per source table: fewer than any batch holds. */
  static final int ROWS = 300;

  /** Two processes of one storage. */
  public interface Processes {
    /** A connection of the writing process, whose table calls {@link #death} can cut. */
    Connection writer() throws SQLException;

    /** A connection of the other process, which runs the DDL. */
    Connection ddl() throws SQLException;

    ClientDeath death();

    /** Appended to the scenarios' table names. */
    String suffix();
  }

  private final Processes p;
  private final String src1;
  private final String src2;

  public IndexDdlAcrossProcesses(Processes p) {
    this.p = p;
    src1 = "SRC1" + p.suffix();
    src2 = "SRC2" + p.suffix();
  }

  /** Makes the source tables, {@value #ROWS} rows each. */
  public void createSources() throws SQLException {
    try (Connection c = p.ddl(); Statement st = c.createStatement()) {
      for (String src : new String[] {src1, src2}) {
        st.execute("CREATE TABLE " + src + " (id INTEGER PRIMARY KEY, v VARCHAR(8), w BIGINT)");
      }
      fill(c, src1, 1);
      fill(c, src2, 1001);
    }
  }

  private static void fill(Connection c, String table, int from) throws SQLException {
    try (var ps = c.prepareStatement("UPSERT INTO " + table + " VALUES (?, ?, ?)")) {
      for (int id = from; id < from + ROWS; id++) {
        ps.setInt(1, id);
        ps.setString(2, "v" + id % 7);
        ps.setLong(3, id * 10L);
        ps.addBatch();
      }
      ps.executeBatch();
    }
  }

  /**
   * Runs every scenario, each on a table of its own, then drops the tables. Each scenario
   * returns the rows its table holds at its end (its own checks done).
   */
  public void runAll() throws SQLException {
    createSources();
    anIndexCreatedDuringAWriteHasTheRowsItHeld("T1" + p.suffix(), "INSERT");
    anIndexCreatedDuringAWriteHasTheRowsItHeld("T2" + p.suffix(), "UPSERT");
    aSecondIndexCreatedDuringAnIndexedWrite("T3" + p.suffix());
    anIndexDroppedDuringAnIndexedWriteGetsNoMoreEntries("T4" + p.suffix());
    rowsNotSentWhenTheListChangedAsTheyWereBeingWritten("T5" + p.suffix());
    try (Connection c = p.ddl(); Statement st = c.createStatement()) {
      for (String t : new String[] {"T1", "T2", "T3", "T4", "T5", "SRC1", "SRC2"}) {
        st.execute("DROP TABLE " + t + p.suffix());
      }
    }
  }

  private void create(String t, String... indexes) throws SQLException {
    try (Connection c = p.ddl(); Statement st = c.createStatement()) {
      st.execute("CREATE TABLE " + t + " (id INTEGER PRIMARY KEY, v VARCHAR(8), w BIGINT)");
      for (String i : indexes) {
        st.execute(i);
      }
    }
  }

  /** Runs {@code ddlSql} in the other process just before the writer's next {@code read}. */
  private void before(String read, String table, String ddlSql) {
    p.death().cutInBeforeRead(read, TableName.of(table), () -> {
      try (Connection c = p.ddl(); Statement st = c.createStatement()) {
        st.execute(ddlSql);
      } catch (SQLException e) {
        throw new AssertionError(e);
      }
    });
  }

  /** The writer's statement {@code sql} of every source row, with {@code ddlSql} cutting in. */
  private void writeAllDuring(String t, String first, String sql, String ddlSql)
      throws SQLException {
    try (Connection c = p.writer(); Statement st = c.createStatement()) {
      st.executeUpdate(first); // the writer has read the index list
      before("scan", src2, ddlSql);
      assertEquals(2 * ROWS, st.executeUpdate(sql + " INTO " + t + " SELECT id, v, w FROM "
          + src1 + " UNION ALL SELECT id, v, w FROM " + src2));
    }
  }

  private static long count(Connection c, String sql) throws SQLException {
    try (Statement st = c.createStatement(); var rs = st.executeQuery(sql)) {
      assertTrue(rs.next());
      return rs.getLong(1);
    }
  }

  private long count(String sql) throws SQLException {
    try (Connection c = p.ddl()) {
      return count(c, sql);
    }
  }

  private void assertClean(String t, String index) throws SQLException {
    try (Connection c = p.ddl()) {
      ClientIndexScenarios.assertClean(c, t, index, false);
    }
  }

  /**
   * An index created while the writer's {@code kind} (INSERT: batched check-and-puts; UPSERT:
   * batched puts) of a table without one runs.
   */
  long anIndexCreatedDuringAWriteHasTheRowsItHeld(String t, String kind) throws SQLException {
    create(t);
    writeAllDuring(t, kind + " INTO " + t + " VALUES (0, 'v0', 0)", kind,
        "CREATE INDEX " + t + "_v ON " + t + " (v) INCLUDE (w)");
    assertClean(t, t + "_V");
    assertEquals(2 * ROWS + 1, count("SELECT /*+ INDEX(" + t + " " + t + "_v) */ COUNT(w) FROM "
        + t + " WHERE v >= 'v'"));
    return count("SELECT COUNT(*) FROM " + t);
  }

  long aSecondIndexCreatedDuringAnIndexedWrite(String t) throws SQLException {
    create(t, "CREATE INDEX " + t + "_v ON " + t + " (v)");
    writeAllDuring(t, "INSERT INTO " + t + " VALUES (0, 'v0', 0)", "INSERT",
        "CREATE INDEX " + t + "_w ON " + t + " (w) INCLUDE (v)");
    assertClean(t, t + "_V");
    assertClean(t, t + "_W");
    assertEquals(2 * ROWS + 1, count("SELECT /*+ INDEX(" + t + " " + t + "_w) */ COUNT(v) FROM "
        + t + " WHERE w >= 0"));
    return count("SELECT COUNT(*) FROM " + t);
  }

  long anIndexDroppedDuringAnIndexedWriteGetsNoMoreEntries(String t) throws SQLException {
    create(t, "CREATE INDEX " + t + "_v ON " + t + " (v)");
    TableName entries;
    try (Connection c = p.ddl()) {
      SqlCatalog catalog = new SqlCatalog(c.unwrap(io.basaltdb.sql.jdbc.BasaltConnection.class)
          .storage());
      entries = catalog.indexes(TableName.of(t)).get(0).engineTable();
    }
    writeAllDuring(t, "UPSERT INTO " + t + " VALUES (0, 'v0', 0)", "UPSERT",
        "DROP INDEX " + t + "_v ON " + t);
    try (Connection c = p.ddl()) {
      assertFalse(c.unwrap(io.basaltdb.sql.jdbc.BasaltConnection.class).storage().admin()
          .tableExists(entries), "the dropped index's table came back");
    }
    assertEquals(2 * ROWS + 1, count("SELECT COUNT(*) FROM " + t));
    try (Connection c = p.writer()) {
      assertEquals(2 * ROWS + 1, count(c, "SELECT COUNT(*) FROM " + t + " WHERE v >= 'v'"));
    }
    return count("SELECT COUNT(*) FROM " + t);
  }

  /**
   * The other process's DDL cuts in after the writer's last row, as its batch is being read
   * (phase 0): the lease ran out meanwhile and the list changed, so the rows are not sent
   * (40001) rather than sent without the new index's entries; run again, they are written for
   * both indexes.
   */
  long rowsNotSentWhenTheListChangedAsTheyWereBeingWritten(String t) throws SQLException {
    create(t, "CREATE INDEX " + t + "_v ON " + t + " (v)");
    String write = "UPSERT INTO " + t + " SELECT id, v, w FROM " + src1;
    try (Connection c = p.writer(); Statement st = c.createStatement()) {
      st.executeUpdate("UPSERT INTO " + t + " VALUES (0, 'v0', 0)");
      before("get", t, "CREATE INDEX " + t + "_w ON " + t + " (w)");
      SQLException e = assertThrows(SQLException.class, () -> st.executeUpdate(write));
      assertEquals("40001", e.getSQLState(), e.toString());
      assertTrue(e.getMessage().contains(t), e.getMessage());
    }
    assertEquals(1, count("SELECT COUNT(*) FROM " + t));
    assertClean(t, t + "_V");
    assertClean(t, t + "_W");
    try (Connection c = p.writer(); Statement st = c.createStatement()) {
      assertEquals(ROWS, st.executeUpdate(write));
    }
    assertClean(t, t + "_W");
    assertEquals(ROWS + 1, count("SELECT /*+ INDEX(" + t + " " + t + "_w) */ COUNT(*) FROM "
        + t + " WHERE w >= 0"));
    return count("SELECT COUNT(*) FROM " + t);
  }
}
