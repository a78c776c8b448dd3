package io.basaltdb.sql.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basaltdb.engine.Database;
import io.basaltdb.engine.EngineOptions;
import io.basaltdb.engine.io.FaultInjectingFileSystem;
import io.basaltdb.engine.io.FaultInjectingFileSystem.Action;
import io.basaltdb.engine.io.FaultInjectingFileSystem.Op;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a SQL user sees when the disk fills: the INSERT that met it fails with 53100 and is not
 * seen; later writes fail with 25006 (read-only until reopened) while queries go on; a
 * compaction that meets it fails alone; after a reopen every acknowledged row is there.
 */
class DiskFullSqlTest {
  @TempDir Path tmp;

  private static long count(Connection c) throws SQLException {
    try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM t")) {
      rs.next();
      return rs.getLong(1);
    }
  }

  @Test
  void aFullDiskFailsTheWriteThatMetItThenLeavesTheDatabaseReadOnlyUntilReopened()
      throws Exception {
    FaultInjectingFileSystem fs = new FaultInjectingFileSystem(tmp.resolve("trash"));
    Path dir = tmp.resolve("db");
    EngineOptions o = EngineOptions.defaults().withFileSystem(fs);
    Database db = Database.open(dir, o);
    try (Connection c = BasaltConnections.open(db); Statement s = c.createStatement()) {
      s.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, v VARCHAR(20))");
      for (int i = 0; i < 20; i++) {
        s.executeUpdate("INSERT INTO t VALUES (" + i + ", 'v" + i + "')");
      }
      fs.setFaults((op, p, n) -> op == Op.WRITE && p.toString().contains("wal")
          ? Action.DISK_FULL : Action.PASS);
      SQLException full = assertThrows(SQLException.class,
          () -> s.executeUpdate("INSERT INTO t VALUES (100, 'lost')"));
      assertEquals("53100", full.getSQLState(), full.getMessage());
      assertTrue(full.getMessage().contains("No space left on device"), full.getMessage());
      fs.setFaults((op, p, n) -> Action.PASS); // space again: still read-only until reopened
      SQLException readOnly = assertThrows(SQLException.class,
          () -> s.executeUpdate("INSERT INTO t VALUES (101, 'refused')"));
      assertEquals("25006", readOnly.getSQLState(), readOnly.getMessage());
      assertTrue(readOnly.getMessage().contains("read-only until it is reopened"),
          readOnly.getMessage());
      assertEquals(20, count(c), "queries go on, and the failed row is not seen");
    } finally {
      try {
        db.close();
      } catch (RuntimeException expected) {
        // the log failed
      }
    }
    try (Database again = Database.open(dir, o);
        Connection c = BasaltConnections.open(again); Statement s = c.createStatement()) {
      assertEquals(20, count(c), "every acknowledged row after the reopen");
      s.executeUpdate("INSERT INTO t VALUES (21, 'after')");
      assertEquals(21, count(c));
    }
  }

  @Test
  void aCompactionOnAFullDiskFailsAloneAndWritesGoOn() throws Exception {
    FaultInjectingFileSystem fs = new FaultInjectingFileSystem(tmp.resolve("trash"));
    EngineOptions o = EngineOptions.defaults().withFileSystem(fs).withCompactionFiles(100, 200);
    try (Database db = Database.open(tmp.resolve("db"), o);
        Connection c = BasaltConnections.open(db); Statement s = c.createStatement()) {
      s.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, v VARCHAR(20))");
      for (int i = 0; i < 30; i++) {
        s.executeUpdate("INSERT INTO t VALUES (" + i + ", 'v" + i + "')");
        if (i % 10 == 9) {
          db.admin().flush(io.basaltdb.storage.TableName.of("T"));
        }
      }
      fs.setFaults((op, p, n) -> op == Op.WRITE && p.toString().endsWith(".blk")
          ? Action.DISK_FULL : Action.PASS);
      RuntimeException e = assertThrows(RuntimeException.class,
          () -> db.admin().majorCompact(io.basaltdb.storage.TableName.of("T")));
      assertEquals("53100", SqlErrors.sqlState(e), e.toString());
      fs.setFaults((op, p, n) -> Action.PASS);
      s.executeUpdate("INSERT INTO t VALUES (30, 'after')");
      assertEquals(31, count(c));
    }
  }
}
