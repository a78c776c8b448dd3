package io.basaltdb.sql.rel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basaltdb.sql.SqlTestBase;
import io.basaltdb.sql.SqlTestSupport;
import io.basaltdb.storage.TableName;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A plan's scans read the columns their plan worked out once ({@code ScanColumns}, kept by the
 * plan's {@code TableRuns} for its last spec): the spec's columns and those its filters test,
 * for every execution; two specs of one table in one plan (a self-join) each read their own;
 * a plan made again after the table changed reads the new definition's; and a scan of a table
 * of several regions reads them all whether it runs them in parallel or not.
 */
class ScanColumnsTest extends SqlTestBase {
  private static final int ROWS = 300;

  @BeforeEach
  void load() throws SQLException {
    update("CREATE TABLE sc (id INT PRIMARY KEY, a INT, b VARCHAR(10), c BIGINT)");
    StringBuilder rows = new StringBuilder();
    for (int i = 0; i < ROWS; i++) {
      rows.append(i > 0 ? ", " : "").append('(').append(i).append(", ").append(i % 7)
          .append(", 'b").append(i).append("', ").append(i * 10L).append(')');
    }
    update("UPSERT INTO sc VALUES " + rows);
  }

  private static List<String> rows(PreparedStatement p, Object... params) throws SQLException {
    for (int i = 0; i < params.length; i++) {
      p.setObject(i + 1, params[i]);
    }
    return SqlTestSupport.rows(p.executeQuery());
  }

  @Test
  void everyExecutionReadsTheColumnsItsFilterTests() throws SQLException {
    try (PreparedStatement p = c.prepareStatement(
        "SELECT id, b FROM sc WHERE id >= ? AND id < ? AND a = ? AND c > ?")) {
      for (int run = 0; run < 20; run++) {
        int from = run * 13;
        int a = run % 7;
        List<String> expected = new ArrayList<>();
        for (int i = from; i < from + 40 && i < ROWS; i++) {
          if (i % 7 == a && i * 10L > 50) {
            expected.add(i + "|b" + i);
          }
        }
        assertEquals(expected, rows(p, from, from + 40, a, 50L), "run " + run);
      }
    }
  }

  @Test
  void aSelfJoinsTwoScansEachReadTheirOwnColumns() throws SQLException {
    try (PreparedStatement p = c.prepareStatement("SELECT x.id, x.b, y.c FROM sc x JOIN sc y"
        + " ON y.id = x.a WHERE x.id >= ? AND x.id < ? ORDER BY x.id")) {
      for (int run = 0; run < 10; run++) {
        int from = run * 29;
        List<String> expected = new ArrayList<>();
        for (int i = from; i < from + 5; i++) {
          expected.add(i + "|b" + i + "|" + (i % 7) * 10L);
        }
        assertEquals(expected, rows(p, from, from + 5), "run " + run);
      }
    }
  }

  @Test
  void aPlanMadeAgainAfterTheTableChangedReadsItsNewColumns() throws SQLException {
    try (PreparedStatement p = c.prepareStatement("SELECT id, c FROM sc WHERE id >= ?"
        + " AND id < ? AND c > ?")) {
      assertEquals(List.of("5|50", "6|60"), rows(p, 4, 7, 40L));
      update("ALTER TABLE sc DROP COLUMN a"); // c moves to a's place among the columns
      update("ALTER TABLE sc ADD d VARCHAR(5)");
      update("UPSERT INTO sc (id, c, d) VALUES (6, 61, 'six')");
      assertEquals(List.of("5|50", "6|61"), rows(p, 4, 7, 40L));
    }
  }

  @Test
  void aScanOfSeveralRegionsReadsThemAll() throws SQLException {
    TableName t = TableName.of("SC");
    db.admin().flush(t);
    db.admin().split(t);
    db.admin().split(t);
    assertTrue(db.admin().regionCount(t) >= 3, "regions: " + db.admin().regions(t));
    assertEquals(db.admin().regions(t).size(), db.admin().regionCount(t));
    long sum = 0;
    for (int i = 0; i < ROWS; i++) {
      sum += i * 10L;
    }
    try (PreparedStatement all = c.prepareStatement("SELECT COUNT(*), SUM(c) FROM sc"
        + " WHERE b <> ?");
        PreparedStatement ordered = c.prepareStatement("SELECT id FROM sc WHERE a = ?"
            + " ORDER BY id")) {
      for (int run = 0; run < 3; run++) {
        assertEquals(List.of(ROWS + "|" + sum), rows(all, "none"));
        List<String> sixes = new ArrayList<>();
        for (int i = 6; i < ROWS; i += 7) {
          sixes.add(String.valueOf(i));
        }
        assertEquals(sixes, rows(ordered, 6));
      }
    }
  }
}
