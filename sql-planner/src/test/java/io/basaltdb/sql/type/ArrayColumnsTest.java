package io.basaltdb.sql.type;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.basaltdb.storage.TableName;
import io.basaltdb.sql.RandomQueries;
import io.basaltdb.sql.SqlTestBase;
import io.basaltdb.sql.catalog.SqlCatalog;
import io.basaltdb.sql.catalog.SqlTableDef;
import io.basaltdb.sql.jdbc.SqlErrors;
import java.sql.Array;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * ARRAY columns (Phoenix's {@code VARCHAR ARRAY}, {@code INTEGER[]}): stored, read, updated,
 * searched with element access, CARDINALITY / ARRAY_LENGTH and {@code = ANY(arr)}, as H2 does
 * the same statements; values their element type cannot hold refused; no array keys.
 */
class ArrayColumnsTest extends SqlTestBase {
  private static final String DDL = "CREATE TABLE ar (id INT PRIMARY KEY, tags VARCHAR(6) ARRAY, "
      + "nums INTEGER ARRAY, ds DATE ARRAY, amts DECIMAL(5, 2) ARRAY)";

  @Test
  void arraysAreStoredAndQueriedAsInH2() throws Exception {
    try (Connection h2 = DriverManager.getConnection("jdbc:h2:mem:arrays")) {
      List<String> script = List.of(DDL,
          "INSERT INTO ar VALUES (1, ARRAY['x', 'y'], ARRAY[1, 2, 3], ARRAY[DATE '2020-01-02'], "
              + "ARRAY[1.5, NULL])",
          "INSERT INTO ar VALUES (2, NULL, ARRAY[4], NULL, ARRAY[NULL, 3])",
          "INSERT INTO ar (id, nums, tags) VALUES (3, ARRAY[7, 8, NULL], ARRAY['zed'])",
          "UPDATE ar SET tags = ARRAY['new', 'tags'] WHERE id = 2",
          "UPDATE ar SET nums = NULL WHERE id = 1");
      for (String sql : script) {
        update(sql);
        try (Statement st = h2.createStatement()) {
          st.executeUpdate(sql);
        }
      }
      for (String q : List.of("SELECT * FROM ar ORDER BY id",
          "SELECT id, tags[1], CASE WHEN CARDINALITY(tags) > 1 THEN tags[2] END, nums[1], "
              + "CARDINALITY(nums), CARDINALITY(amts), ds[1], amts[1] FROM ar ORDER BY id",
          "SELECT id FROM ar WHERE 8 = ANY(nums) ORDER BY id",
          "SELECT id FROM ar WHERE 'tags' = ANY(tags) OR nums[1] = 4 ORDER BY id",
          "SELECT id FROM ar WHERE nums = ARRAY[4] OR nums <> ARRAY[7, 8] ORDER BY id",
          "SELECT id FROM ar WHERE CARDINALITY(tags) >= 2 ORDER BY id",
          "SELECT COUNT(*), SUM(CARDINALITY(nums)) FROM ar")) {
        assertEquals(rows(h2, q), rows(c, q), q);
      }
    }
    assertEquals(List.of("1|2|2", "2|2|2", "3|1|null"),
        rows(c, "SELECT id, ARRAY_LENGTH(tags), ARRAY_LENGTH(amts) FROM ar ORDER BY id"));
    // arrays with NULL elements compare equal as in PostgreSQL (H2 says UNKNOWN, as the
    // standard does)
    assertEquals(List.of("3"), rows(c, "SELECT id FROM ar WHERE nums = ARRAY[7, 8, NULL]"));
    // past the end: NULL, as in Phoenix and PostgreSQL (H2 raises 2202E, as the standard says)
    assertEquals(List.of("3|null|null"), rows(c, "SELECT id, tags[2], tags[0] FROM ar "
        + "WHERE id = 3"));
  }

  @Test
  void jdbcTypesParametersAndArraysOfOtherDatabases() throws Exception {
    update("CREATE TABLE jp (id INT PRIMARY KEY, a INTEGER[], b VARCHAR ARRAY[5], "
        + "c BIGINT ARRAY)");
    try (PreparedStatement ps = c.prepareStatement("INSERT INTO jp VALUES (?, ?, ?, ?)")) {
      ps.setInt(1, 1);
      ps.setArray(2, c.createArrayOf("INTEGER", new Object[] {3, null, 5}));
      ps.setObject(3, new String[] {"p", "q"});
      ps.setObject(4, List.of(9L));
      assertEquals(1, ps.executeUpdate());
    }
    try (PreparedStatement ps = c.prepareStatement("SELECT id FROM jp WHERE CAST(? AS INTEGER) "
        + "= ANY(a)")) {
      ps.setInt(1, 5);
      try (ResultSet r = ps.executeQuery()) {
        assertEquals(true, r.next());
      }
    }
    try (Statement st = c.createStatement(); ResultSet r = st.executeQuery("SELECT * FROM jp")) {
      assertEquals(Types.ARRAY, r.getMetaData().getColumnType(2));
      assertEquals("INTEGER ARRAY", r.getMetaData().getColumnTypeName(2));
      r.next();
      Array a = r.getArray(2);
      assertEquals("[3, null, 5]", Arrays.toString((Object[]) a.getArray()));
      assertEquals("[p, q]", Arrays.toString((Object[]) r.getArray(3).getArray()));
      assertEquals("[9]", Arrays.toString((Object[]) r.getArray(4).getArray()));
    }
    update("ALTER TABLE jp ADD d DATE ARRAY");
    assertEquals(1, update("UPDATE jp SET d = ARRAY[DATE '2026-11-27'] WHERE id = 1"));
    assertEquals(List.of("2026-11-27"), rows(c, "SELECT d[1] FROM jp"));
    SqlTableDef def = new SqlCatalog(db).get(TableName.of("JP"));
    assertEquals(4, def.encode()[0], "format 4 for a table with arrays");
    assertEquals(def, SqlTableDef.decode(def.table(), def.encode()));
    assertEquals(ColumnType.BIGINT, def.columns().get(def.columnIndex("C")).element());
  }

  @Test
  void whatAnArrayCannotHoldIsRefused() throws Exception {
    update(DDL);
    assertEquals("22001", state("INSERT INTO ar (id, tags) VALUES (1, ARRAY['toolong'])"));
    assertEquals("22003", state("INSERT INTO ar (id, amts) VALUES (1, ARRAY[1.234])"));
    assertEquals("22003", state("INSERT INTO ar (id, amts) VALUES (1, ARRAY[12345])"));
    assertEquals(List.of(), rows(c, "SELECT * FROM ar"));
    assertEquals("0A000", state("CREATE TABLE bad (k INTEGER ARRAY PRIMARY KEY)"));
    assertEquals("0A000", state("CREATE TABLE bad (k INT PRIMARY KEY, m INTEGER MULTISET)"));
    assertEquals("0A000", state("CREATE INDEX ar_nums ON ar (nums)"));
    assertEquals("0A000", state("CREATE TABLE bad AS SELECT id, nums FROM ar"));
    assertFalse(db.admin().tableExists(TableName.of("BAD")));
    update("CREATE INDEX ar_first ON ar (nums[1]) INCLUDE (tags)"); // an element is a value
    update("INSERT INTO ar (id, nums, tags) VALUES (5, ARRAY[50], ARRAY['five'])");
    assertEquals(List.of("5|[five]"), rows(c, "SELECT id, tags FROM ar WHERE nums[1] = 50"));
  }

  /** Random arrays written and searched, each query's rows as H2's. */
  @Test
  void randomArraysAgreeWithH2() throws Exception {
    long seed = RandomQueries.seed("ArrayColumnsTest");
    Random r = new Random(seed);
    try (Connection h2 = DriverManager.getConnection("jdbc:h2:mem:arr" + seed)) {
      String ddl = "CREATE TABLE rq (id INT PRIMARY KEY, a INTEGER ARRAY, s VARCHAR(3) ARRAY)";
      update(ddl);
      try (Statement st = h2.createStatement()) {
        st.executeUpdate(ddl);
      }
      for (int i = 0; i < 120; i++) {
        String sql = r.nextInt(4) == 0
            ? "UPDATE rq SET a = " + array(r, false) + " WHERE id = " + r.nextInt(30)
            : "MERGE INTO rq KEY (id) VALUES (" + r.nextInt(30) + ", " + array(r, false) + ", "
                + array(r, true) + ")";
        try (Statement st = h2.createStatement()) {
          st.executeUpdate(sql);
        }
        update(sql.startsWith("MERGE") ? sql.replace("MERGE INTO rq KEY (id)", "UPSERT INTO rq")
            : sql);
      }
      for (int i = 0; i < 60; i++) {
        String q = switch (r.nextInt(4)) {
          case 0 -> {
            int at = 1 + r.nextInt(4);
            yield "SELECT id, CASE WHEN CARDINALITY(a) >= " + at + " THEN a[" + at + "] END "
                + "FROM rq WHERE " + r.nextInt(6) + " = ANY(a) ORDER BY id";
          }
          case 1 -> "SELECT id, CARDINALITY(s) FROM rq WHERE s[1] = '" + (char) ('a' + r.nextInt(3))
              + "' ORDER BY id";
          case 2 -> "SELECT CARDINALITY(a), COUNT(*) FROM rq GROUP BY CARDINALITY(a) "
              + "ORDER BY 1 NULLS FIRST";
          default -> "SELECT id, a, s FROM rq WHERE a = ARRAY[" + r.nextInt(6)
              + (r.nextBoolean() ? ", " + r.nextInt(6) : "") + "] ORDER BY id";
        };
        assertEquals(rows(h2, q), rows(c, q), "seed " + seed + ": " + q);
      }
    }
  }

  private static String array(Random r, boolean strings) {
    if (r.nextInt(6) == 0) {
      return "NULL";
    }
    List<String> e = new ArrayList<>();
    for (int i = 1 + r.nextInt(3); i > 0; i--) { // ARRAY[] needs a type: not in Calcite's SQL
      e.add(r.nextInt(8) == 0 ? "NULL" : strings ? "'" + (char) ('a' + r.nextInt(3)) + "'"
          : Integer.toString(r.nextInt(6)));
    }
    return "ARRAY[" + String.join(", ", e) + "]";
  }

  private String state(String sql) {
    SQLException e = assertThrows(SQLException.class, () -> update(sql), sql);
    return SqlErrors.sqlState(e);
  }

  /** A query's rows as text, an array as its elements in brackets (as both drivers give them). */
  private static List<String> rows(Connection conn, String sql) throws SQLException {
    List<String> out = new ArrayList<>();
    try (Statement st = conn.createStatement(); ResultSet rs = st.executeQuery(sql)) {
      int n = rs.getMetaData().getColumnCount();
      while (rs.next()) {
        StringBuilder sb = new StringBuilder();
        for (int i = 1; i <= n; i++) {
          Object o = rs.getObject(i);
          sb.append(i > 1 ? "|" : "").append(o instanceof Array a
              ? Arrays.toString((Object[]) a.getArray()) : rs.getString(i));
        }
        out.add(sb.toString());
      }
    }
    return out;
  }
}
