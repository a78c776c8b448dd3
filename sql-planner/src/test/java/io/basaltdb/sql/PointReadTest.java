package io.basaltdb.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.basaltdb.sql.catalog.SqlCatalog;
import io.basaltdb.sql.catalog.SqlTableDef;
import io.basaltdb.sql.exec.read.PointRead;
import io.basaltdb.sql.jdbc.BasaltConnections;
import io.basaltdb.sql.pushdown.KeyConditions;
import io.basaltdb.sql.pushdown.Operand;
import io.basaltdb.sql.pushdown.ScanSpec;
import io.basaltdb.storage.TableName;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A statement that is one row read by its full key runs as one get ({@link PointRead}),
 * without a statement snapshot of its own: it must read what the scan it replaces reads, in
 * auto-commit and in transactions at each isolation level (own writes, the transaction's
 * cut), as of the connection's read timestamp, and nothing for a NULL key.
 */
class PointReadTest extends TemporaryDatabaseTest {
  @BeforeEach
  void table() throws SQLException {
    createSampleTable(st);
  }

  private static List<String> byKey(Connection conn, Object id) throws SQLException {
    return byKey(conn, "t", id);
  }

  private static List<String> byKey(Connection conn, String table, Object id)
      throws SQLException {
    try (PreparedStatement p = conn.prepareStatement("SELECT v, n FROM " + table
        + " WHERE id = ?")) {
      p.setObject(1, id);
      List<String> out = new ArrayList<>();
      try (ResultSet rs = p.executeQuery()) {
        while (rs.next()) {
          out.add(rs.getString(1) + "|" + rs.getObject(2));
        }
      }
      return out;
    }
  }

  @Test
  void onlyAStatementThatIsOneFullKeyPointIsRunAsAGet() {
    SqlTableDef def = new SqlCatalog(db).get(TableName.of("T"));
    Operand one = Operand.constant(io.basaltdb.sql.type.ColumnType.INTEGER, 1);
    ScanSpec point = ScanSpec.all(def)
        .withFilter(new KeyConditions(List.of(List.of(one)), List.of()), List.of());
    assertNotNull(PointRead.of(def, point));
    assertNull(PointRead.of(def, ScanSpec.all(def)), "a full scan");
    assertNull(PointRead.of(def, point.withFilter(new KeyConditions(
        List.of(List.of(one, Operand.constant(io.basaltdb.sql.type.ColumnType.INTEGER, 2))), List.of()), List.of())), "two points");
    assertNull(PointRead.of(def, point.withLimit(Operand.constant(io.basaltdb.sql.type.ColumnType.BIGINT, 1L), null, false)), "an offset");
    assertNull(PointRead.of(def, point.withAsOf(Operand.constant(io.basaltdb.sql.type.ColumnType.TIMESTAMP, 0L))), "AS OF");
  }

  @Test
  void readsAsTheTransactionSeesAtEachIsolationLevel() throws SQLException {
    for (int level : new int[] {Connection.TRANSACTION_READ_COMMITTED,
        Connection.TRANSACTION_REPEATABLE_READ, Connection.TRANSACTION_SERIALIZABLE}) {
      try (Connection tx = BasaltConnections.open(db); Connection other = BasaltConnections.open(db)) {
        tx.setTransactionIsolation(level);
        tx.setAutoCommit(false);
        assertEquals(List.of("v3|30"), byKey(tx, 3), "level " + level);
        tx.createStatement().executeUpdate("UPSERT INTO t (id, v, n) VALUES (50, 'own', 5)");
        tx.createStatement().executeUpdate("UPDATE t SET n = 31 WHERE id = 3");
        assertEquals(List.of("own|5"), byKey(tx, 50), "own insert, level " + level);
        assertEquals(List.of("v3|31"), byKey(tx, 3), "own update, level " + level);
        assertEquals(List.of(), byKey(other, 50), "uncommitted, level " + level);
        other.createStatement().executeUpdate("UPSERT INTO t (id, v, n) VALUES (4, 'new', 44)");
        List<String> four = byKey(tx, 4);
        assertEquals(level == Connection.TRANSACTION_READ_COMMITTED ? List.of("new|44")
            : List.of("v4|40"), four, "another's commit, level " + level);
        tx.rollback();
        assertEquals(List.of("v3|30"), byKey(tx, 3), "rolled back, level " + level);
        assertEquals(List.of(), byKey(tx, 50), "rolled back, level " + level);
        tx.setAutoCommit(true);
        other.createStatement().executeUpdate("UPSERT INTO t (id, v, n) VALUES (4, 'v4', 40)");
      }
    }
  }

  @Test
  void readsAsOfTheConnectionsReadTimestampAndNothingForANullKey() throws Exception {
    st.executeUpdate("CREATE TABLE h (id INTEGER NOT NULL PRIMARY KEY, v VARCHAR, n BIGINT)"
        + " VERSIONS=5");
    st.executeUpdate("UPSERT INTO h VALUES (7, 'v7', 70)");
    long before = System.currentTimeMillis();
    Thread.sleep(5);
    st.executeUpdate("UPSERT INTO h VALUES (7, 'later', 77)");
    st.executeUpdate("UPSERT INTO h VALUES (60, 'born', 6)");
    Properties p = new Properties();
    p.setProperty("readTimestamp", Long.toString(before));
    p.setProperty("planCacheSize", "0");
    for (boolean direct : new boolean[] {true, false}) { // the get, and the scan it replaces
      System.setProperty(Switches.DIRECT_EXECUTION.property(), Boolean.toString(direct));
      try (Connection now = connectionWithoutPlanCache();
          Connection past = BasaltConnections.open(db, p)) {
        assertEquals(List.of("later|77"), byKey(now, "h", 7), "direct " + direct);
        assertEquals(List.of("v7|70"), byKey(past, "h", 7), "direct " + direct);
        assertEquals(List.of(), byKey(past, "h", 60), "direct " + direct);
        assertEquals(List.of(), byKey(now, "h", null), "direct " + direct);
        assertEquals(List.of(), byKey(now, "h", 999), "direct " + direct);
      } finally {
        System.clearProperty(Switches.DIRECT_EXECUTION.property());
      }
    }
  }

  @Test
  void findsEachRowOfASaltedTableByItsBucket() throws SQLException {
    st.executeUpdate("CREATE TABLE s (id INTEGER NOT NULL PRIMARY KEY, v VARCHAR, n BIGINT)"
        + " SALT_BUCKETS=4");
    for (int i = 0; i < 40; i++) {
      st.executeUpdate("UPSERT INTO s VALUES (" + i + ", 's" + i + "', " + i + ")");
    }
    for (int i = 0; i < 41; i++) {
      assertEquals(i < 40 ? List.of("s" + i + "|" + i) : List.of(), byKey(c, "s", i));
    }
  }
}
