package io.basaltdb.sql.index;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basaltdb.engine.Database;
import io.basaltdb.engine.EngineOptions;
import io.basaltdb.sql.SqlTestSupport;
import io.basaltdb.sql.catalog.SqlCatalog;
import io.basaltdb.sql.catalog.SqlIndexDef;
import io.basaltdb.sql.jdbc.BasaltConnections;
import io.basaltdb.storage.FamilyOptions;
import io.basaltdb.storage.TableDescriptor;
import io.basaltdb.storage.TableName;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a kill between an index DDL's two steps leaves (an index's engine table that no index
 * record names: CREATE INDEX killed after making it, DROP INDEX killed after removing the
 * record) is deleted at the database's first index use after a reopen, so CREATE INDEX of the
 * same name works and the table is not listed; engine tables that only look alike stay.
 */
class InterruptedIndexDdlTest {
  @TempDir
  Path tmp;

  @Test
  void theStorageOfAnInterruptedIndexDdlIsCleared() throws Exception {
    Path dir = tmp.resolve("db");
    try (Database db = Database.open(dir, EngineOptions.defaults());
        Connection c = BasaltConnections.open(db);
        Statement st = c.createStatement()) {
      st.executeUpdate("CREATE TABLE t (id INTEGER PRIMARY KEY, v VARCHAR(10))");
      st.executeUpdate("UPSERT INTO t VALUES (1, 'a'), (2, 'b'), (3, NULL)");
      // as a kill leaves them: index storage without a record, and two look-alikes
      db.admin().createTable(new TableDescriptor(new TableName("default", "T.I"),
          Map.of("0", FamilyOptions.DEFAULT)), new byte[0][]);
      db.admin().createTable(new TableDescriptor(new TableName("default", "T.RAW"),
          Map.of("f", FamilyOptions.DEFAULT)), new byte[0][]);
      db.admin().createTable(new TableDescriptor(new TableName("default", "U.I"),
          Map.of("0", FamilyOptions.DEFAULT)), new byte[0][]);
    }
    try (Database db = Database.open(dir, EngineOptions.defaults());
        Connection c = BasaltConnections.open(db);
        Statement st = c.createStatement()) {
      st.executeUpdate("CREATE INDEX i ON t (v)");
      SqlCatalog catalog = new SqlCatalog(db);
      TableName t = new TableName("default", "T");
      SqlIndexDef index = catalog.indexes(t).get(0);
      assertEquals(SqlIndexDef.State.ACTIVE, index.state());
      assertTrue(IndexVerifier.verify(db, catalog.get(t), index).consistent());
      assertEquals(List.of("2"), SqlTestSupport.rows(c, "SELECT id FROM t WHERE v = 'b'"));
      assertTrue(db.admin().tableExists(new TableName("default", "T.RAW")), "not index storage");
      assertTrue(db.admin().tableExists(new TableName("default", "U.I")), "no table U");
      List<String> tables = new java.util.ArrayList<>();
      try (var rs = c.getMetaData().getTables(null, "DEFAULT", "%", null)) {
        while (rs.next()) {
          tables.add(rs.getString("TABLE_NAME"));
        }
      }
      assertTrue(tables.contains("T") && tables.contains("T.RAW"), tables.toString());
      assertFalse(tables.contains("T.I"), tables.toString());
    }
  }
}
