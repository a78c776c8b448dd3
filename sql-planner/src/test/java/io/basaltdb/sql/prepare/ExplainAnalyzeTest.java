package io.basaltdb.sql.prepare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basaltdb.sql.SqlTestBase;
import io.basaltdb.sql.jdbc.SqlErrors;
import io.basaltdb.storage.TableName;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * EXPLAIN ANALYZE: the statement runs, and its plan comes back with each operator's rows and
 * each scan's engine counts, which must be what the statement did to this data.
 */
class ExplainAnalyzeTest extends SqlTestBase {
  @BeforeEach
  void load() throws Exception {
    update("CREATE TABLE ea (id INT PRIMARY KEY, g INT, v VARCHAR(20))");
    StringBuilder rows = new StringBuilder();
    for (int i = 0; i < 200; i++) {
      rows.append(i > 0 ? ", " : "").append("(").append(2 * i).append(", ").append(i % 5)
          .append(", 'v").append(i).append("')");
    }
    update("UPSERT INTO ea VALUES " + rows);
    db.admin().flush(TableName.of("EA"));
    update("UPSERT INTO ea VALUES (1000, 1, 'in memory'), (1001, 2, 'in memory')");
  }

  private List<String> analyze(String sql) throws SQLException {
    return rows("EXPLAIN ANALYZE " + sql);
  }

  private static long number(String line, String name) {
    Matcher m = Pattern.compile("\\b" + Pattern.quote(name) + "=(\\d+)").matcher(line);
    assertTrue(m.find(), name + " in " + line);
    return Long.parseLong(m.group(1));
  }

  private static String line(List<String> plan, String operator) {
    return plan.stream().filter(l -> l.trim().startsWith(operator)).findFirst()
        .orElseThrow(() -> new AssertionError(operator + " in " + plan));
  }

  @Test
  void aQueryRunsAndEachOperatorShowsItsRowsAndTheScanItsReads() throws Exception {
    List<String> plan = analyze("SELECT g, COUNT(*) FROM ea WHERE v LIKE 'v1%' GROUP BY g "
        + "ORDER BY g");
    String scan = line(plan, "BasaltScan");
    long matching = Long.parseLong(rows("SELECT COUNT(*) FROM ea WHERE v LIKE 'v1%'").get(0));
    assertEquals(matching, number(scan, "rows"), plan.toString());
    assertEquals(3 * matching, number(scan, "cells"), "ID, G and V of each: " + scan);
    assertEquals(1, number(scan, "regions"));
    assertEquals(1, number(scan, "files"), "one flushed file: " + scan);
    assertTrue(number(scan, "memstoreCells") >= 6, "two rows in memory, 3 cells each: " + scan);
    assertTrue(number(scan, "fileCells") >= 600, "every cell of the file: " + scan);
    assertTrue(number(scan, "decompressedBytes") > 0, scan);
    assertEquals(matching, number(line(plan, "BasaltToEnumerableConverter"), "rows"));
    assertEquals(5, number(line(plan, "EnumerableSort"), "rows"), plan.toString());
    assertTrue(plan.get(plan.size() - 1).startsWith("Execution: 5 rows"), plan.toString());
    // the blocks it read are in the cache after a read or two
    analyze("SELECT g, COUNT(*) FROM ea WHERE v LIKE 'v1%' GROUP BY g ORDER BY g");
    String warm = line(analyze("SELECT g, COUNT(*) FROM ea WHERE v LIKE 'v1%' GROUP BY g "
        + "ORDER BY g"), "BasaltScan");
    assertEquals(0, number(warm, "blocksRead"), warm);
    assertTrue(number(warm, "blocksCached") > 0, warm);
  }

  @Test
  void aMissingKeyIsAnsweredByTheBloomFilter() throws Exception {
    String scan = line(analyze("SELECT * FROM ea WHERE id = 51"), "BasaltScan"); // ids are even
    assertEquals(0, number(scan, "rows"));
    assertEquals(1, number(scan, "skippedByBloom"), scan);
    assertEquals(0, number(scan, "files"), scan);
  }

  @Test
  void aWriteRunsAndParametersBind() throws Exception {
    List<String> plan = analyze("UPDATE ea SET v = 'x' WHERE g = 2");
    assertTrue(plan.get(plan.size() - 1).startsWith("Execution: 41 rows written"),
        plan.toString());
    assertEquals(List.of("41"), rows("SELECT COUNT(*) FROM ea WHERE v = 'x'"));
    try (PreparedStatement ps = c.prepareStatement("EXPLAIN ANALYZE SELECT v FROM ea "
        + "WHERE id = ?")) {
      ps.setInt(1, 14);
      List<String> lines = new ArrayList<>();
      try (ResultSet r = ps.executeQuery()) {
        while (r.next()) {
          lines.add(r.getString(1));
        }
      }
      assertEquals(1, number(line(lines, "BasaltScan"), "rows"), lines.toString());
    }
  }

  @Test
  void ddlIsRefusedAndNotRun() {
    SQLException e = assertThrows(SQLException.class,
        () -> rows("EXPLAIN ANALYZE CREATE TABLE nope (id INT PRIMARY KEY)"));
    assertEquals("0A000", SqlErrors.sqlState(e));
    assertFalse(db.admin().tableExists(TableName.of("NOPE")));
  }
}
