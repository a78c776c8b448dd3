package io.basaltdb.sql.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basaltdb.engine.region.Region;
import io.basaltdb.sql.SqlTestBase;
import io.basaltdb.sql.SqlTestSupport;
import io.basaltdb.sql.catalog.SqlCatalog;
import io.basaltdb.storage.TableName;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A prepared statement follows the schema, as in H2 and PostgreSQL: one prepared before
 * {@code CREATE INDEX} reads the index at its next execution (connection pools and ORMs keep
 * statements for hours); one whose columns change is refused with 0A000, not answered with
 * the old columns.
 */
class PlansFollowSchemaTest extends SqlTestBase {
  @Test
  void aStatementPreparedBeforeAnIndexUsesIt() throws Exception {
    update("CREATE TABLE t (id INT PRIMARY KEY, g INT, v VARCHAR(10))");
    for (int i = 0; i < 200; i++) {
      update("INSERT INTO t VALUES (" + i + ", " + (i % 20) + ", 'v" + i + "')");
    }
    try (PreparedStatement p = c.prepareStatement("SELECT id FROM t WHERE g = ? ORDER BY id")) {
      p.setInt(1, 7);
      List<String> before = SqlTestSupport.rows(p.executeQuery());
      update("CREATE INDEX t_g ON t (g)");
      TableName index = new SqlCatalog(db).indexes(new TableName("default", "T")).get(0)
          .engineTable();
      long reads = indexReads(index);
      assertEquals(before, SqlTestSupport.rows(p.executeQuery()));
      assertTrue(indexReads(index) > reads, "the statement read the index made after it");
      update("DROP INDEX t_g ON t");
      assertEquals(before, SqlTestSupport.rows(p.executeQuery()), "and the table once it went");
    }
  }

  private long indexReads(TableName index) {
    long n = 0;
    for (Region r : db.regions(index)) {
      n += r.stats().reads();
    }
    return n;
  }

  @Test
  void aStatementWhoseColumnsChangedIsRefused() throws Exception {
    update("CREATE TABLE t (id INT PRIMARY KEY, v VARCHAR(10))");
    update("INSERT INTO t VALUES (1, 'a')");
    try (PreparedStatement star = c.prepareStatement("SELECT * FROM t");
        PreparedStatement named = c.prepareStatement("SELECT v FROM t WHERE id = ?")) {
      assertEquals(List.of("1|a"), SqlTestSupport.rows(star.executeQuery()));
      update("ALTER TABLE t ADD COLUMN w INT");
      SQLException changed = assertThrows(SQLException.class, star::executeQuery);
      assertEquals("0A000", changed.getSQLState(), changed.getMessage());
      named.setInt(1, 1);
      assertEquals(List.of("a"), SqlTestSupport.rows(named.executeQuery()),
          "a statement whose columns stayed runs on");
    }
  }
}
