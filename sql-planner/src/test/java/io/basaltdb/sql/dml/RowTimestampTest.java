package io.basaltdb.sql.dml;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basaltdb.storage.Cell;
import io.basaltdb.storage.Get;
import io.basaltdb.storage.Result;
import io.basaltdb.storage.TableName;
import io.basaltdb.sql.SqlTestBase;
import io.basaltdb.sql.catalog.SqlCatalog;
import io.basaltdb.sql.catalog.SqlTableDef;
import io.basaltdb.sql.jdbc.SqlErrors;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Phoenix's ROW_TIMESTAMP: the key column's value is every cell's timestamp, so a range on it
 * reads only cells of that time (files wholly older are skipped), and writes, updates, deletes
 * and a delete followed by the same row again behave as in any table.
 */
class RowTimestampTest extends SqlTestBase {
  private static final long T0 = Timestamp.valueOf("2026-01-01 00:00:00").getTime();

  private static String ts(int hours) {
    return "TIMESTAMP '" + new Timestamp(T0 + hours * 3_600_000L).toString()
        .replace(".0", "") + "'";
  }

  @Test
  void cellsAreWrittenAtTheRowsTimeAndRangesReadByTime() throws Exception {
    update("CREATE TABLE ev (created TIMESTAMP NOT NULL, id INT NOT NULL, v VARCHAR, n BIGINT, "
        + "CONSTRAINT pk PRIMARY KEY (created ROW_TIMESTAMP, id))");
    SqlTableDef def = new SqlCatalog(db).get(TableName.of("EV"));
    assertEquals("CREATED", def.rowTimestamp());
    assertEquals(def, SqlTableDef.decode(def.table(), def.encode()));
    for (int h = 0; h < 10; h++) {
      update("UPSERT INTO ev VALUES (" + ts(h) + ", " + h + ", 'v" + h + "', " + h + ")");
      if (h == 4) {
        db.admin().flush(TableName.of("EV")); // hours 0-4 in a file, 5-9 in memory
      }
    }
    Result r = db.table("EV").get(new Get(def.keyCodec().encode(new Object[] {T0 + 3 * 3_600_000L,
        3})));
    for (Cell c : r.cells()) {
      assertEquals(T0 + 3 * 3_600_000L, c.timestamp(), "every cell at the row's time");
    }
    assertEquals(List.of("5|v5", "6|v6"), rows("SELECT id, v FROM ev WHERE created >= " + ts(5)
        + " AND created < " + ts(7) + " ORDER BY id"));
    String plan = String.join("\n", rows("EXPLAIN ANALYZE SELECT id FROM ev WHERE created >= "
        + ts(5)));
    assertEquals(1, number(plan, "skippedByTime"), "the file of older rows: " + plan);
    // updates (counters too) and deletes keep to the row's time; a deleted row can come back
    assertEquals(1, update("UPDATE ev SET n = n + 10, v = 'x' WHERE created = " + ts(2)
        + " AND id = 2"));
    assertEquals(List.of("2|x|12"), rows("SELECT id, v, n FROM ev WHERE created = " + ts(2)));
    assertEquals(1, update("DELETE FROM ev WHERE created = " + ts(3) + " AND id = 3"));
    assertEquals(List.of(), rows("SELECT id FROM ev WHERE created = " + ts(3)));
    update("UPSERT INTO ev VALUES (" + ts(3) + ", 3, 'back', 33)");
    assertEquals(List.of("3|back|33"), rows("SELECT id, v, n FROM ev WHERE created = " + ts(3)));
    update("UPSERT INTO ev (created, id, v) VALUES (" + ts(3) + ", 3, NULL)");
    assertEquals(List.of("3|null|33"), rows("SELECT id, v, n FROM ev WHERE created = " + ts(3)));
    assertEquals(List.of("10"), rows("SELECT COUNT(*) FROM ev"));
    // left out, the row timestamp is the statement's time, as Phoenix's server time
    long before = System.currentTimeMillis() - 1000;
    update("UPSERT INTO ev (id, v) VALUES (100, 'now')");
    update("INSERT INTO ev (id, v) VALUES (101, 'now too')");
    assertEquals(List.of("100", "101"), rows("SELECT id FROM ev WHERE created >= TIMESTAMP '"
        + new Timestamp(before) + "' ORDER BY id"));
  }

  @Test
  void bigintAndDateRowTimestamps() throws Exception {
    update("CREATE TABLE b (ms BIGINT NOT NULL PRIMARY KEY ROW_TIMESTAMP, v INT)");
    update("UPSERT INTO b VALUES (1000, 1), (2000, 2), (3000, 3)");
    assertEquals(List.of("2"), rows("SELECT v FROM b WHERE ms > 1000 AND ms <= 2000"));
    assertEquals("22023", state("UPSERT INTO b VALUES (-5, 0)"));
    assertEquals("23502", state("UPSERT INTO b (v) VALUES (9)")); // BIGINT: must be given
    update("CREATE TABLE d (dt DATE NOT NULL, k INT NOT NULL, v INT, "
        + "PRIMARY KEY (dt ROW_TIMESTAMP, k))");
    update("UPSERT INTO d VALUES (DATE '2026-11-26', 1, 1), (DATE '2026-11-27', 1, 2)");
    assertEquals(List.of("2"), rows("SELECT v FROM d WHERE dt > DATE '2026-11-26'"));
    assertEquals(List.of("1"), rows("SELECT v FROM d WHERE dt = DATE '2026-11-26'"));
  }

  @Test
  void badDeclarationsAreRefused() throws Exception {
    assertEquals("22023", state("CREATE TABLE x1 (a INT PRIMARY KEY ROW_TIMESTAMP)"));
    assertEquals("22023", state("CREATE TABLE x2 (a TIMESTAMP NOT NULL, b TIMESTAMP NOT NULL, "
        + "PRIMARY KEY (a ROW_TIMESTAMP, b ROW_TIMESTAMP))"));
    assertFalse(db.admin().tableExists(TableName.of("X1")));
    update("CREATE TABLE x3 (a BIGINT PRIMARY KEY ROW_TIMESTAMP, v INT)");
    assertEquals("0A000", state("CREATE INDEX x3_v ON x3 (v)"));
    assertTrue(db.admin().tableExists(TableName.of("X3")));
  }

  private static long number(String text, String name) {
    Matcher m = Pattern.compile("\\b" + name + "=(\\d+)").matcher(text);
    assertTrue(m.find(), name + " in " + text);
    return Long.parseLong(m.group(1));
  }

  private String state(String sql) {
    SQLException e = assertThrows(SQLException.class, () -> update(sql), sql);
    return SqlErrors.sqlState(e);
  }
}
