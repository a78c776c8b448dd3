package io.basaltdb.sql.ddl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basaltdb.storage.TableName;
import io.basaltdb.sql.RandomQueries;
import io.basaltdb.sql.SqlTestBase;
import io.basaltdb.sql.jdbc.SqlErrors;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Column types by the names users bring from other databases, and UNIQUE constraints (kept by
 * unique indexes): the same outcomes as H2 for the same statements, bad declarations refused
 * with a SQLState and nothing created.
 */
class ColumnConstraintsTest extends SqlTestBase {
  @Test
  void typeNamesFromOtherDatabasesMapToTheirTypes() throws Exception {
    update("CREATE TABLE tn (id INT4 PRIMARY KEY, a TEXT, b STRING, c CLOB, d BLOB, e INT8, "
        + "f INT2, g BOOL, h DOUBLE PRECISION, i DATETIME, j FLOAT8, k CHARACTER VARYING(5), "
        + "l BYTEA, m FLOAT4)");
    update("INSERT INTO tn VALUES (1, 'a', 'b', 'c', X'0102', 9000000000, 7, TRUE, 0.5, "
        + "TIMESTAMP '2026-11-26 10:00:00', 1.25, 'five', X'03', 0.75)");
    try (Statement st = c.createStatement(); ResultSet r = st.executeQuery("SELECT * FROM tn")) {
      ResultSetMetaData md = r.getMetaData();
      int[] expected = {Types.INTEGER, Types.VARCHAR, Types.VARCHAR, Types.VARCHAR,
          Types.VARBINARY, Types.BIGINT, Types.SMALLINT, Types.BOOLEAN, Types.DOUBLE,
          Types.TIMESTAMP, Types.DOUBLE, Types.VARCHAR, Types.VARBINARY, Types.REAL};
      assertEquals(expected.length, md.getColumnCount());
      for (int i = 0; i < expected.length; i++) {
        assertEquals(expected[i], md.getColumnType(i + 1), md.getColumnName(i + 1));
      }
      assertTrue(r.next());
      assertEquals(9000000000L, r.getLong("E"));
      assertTrue(r.getBoolean("G"));
      assertEquals("2026-11-26 10:00:00.0", r.getTimestamp("I").toString());
    }
    // the same names in CAST
    assertEquals(List.of("5|7|2026-11-26 10:00:00|true"), rows("SELECT CAST(5 AS TEXT), "
        + "CAST('7' AS INT8) , CAST('2026-11-26 10:00:00' AS DATETIME), CAST('true' AS BOOL) "
        + "FROM tn"));
    SQLException tooLong = assertThrows(SQLException.class,
        () -> update("INSERT INTO tn (id, k) VALUES (2, 'sixsix')"));
    assertEquals("22001", SqlErrors.sqlState(tooLong), tooLong.getMessage());
  }

  @Test
  void typesWithoutAMeaningHereAreRefusedByName() throws Exception {
    for (String type : List.of("UNSIGNED_WHATEVER", "MONEY", "JSONB")) {
      SQLException e = assertThrows(SQLException.class,
          () -> update("CREATE TABLE bad (id INTEGER PRIMARY KEY, v " + type + ")"));
      assertEquals("0A000", SqlErrors.sqlState(e), e.getMessage());
      assertTrue(e.getMessage().contains(type), e.getMessage());
      assertFalse(db.admin().tableExists(TableName.of("BAD")));
    }
  }

  /** Phoenix's UNSIGNED_* types: the signed type, a negative value refused by a check. */
  @Test
  void unsignedTypesRefuseNegativeValues() throws Exception {
    update("CREATE TABLE us (id UNSIGNED_LONG PRIMARY KEY, i UNSIGNED_INT, f UNSIGNED_DOUBLE, "
        + "d UNSIGNED_DATE, t UNSIGNED_TINYINT)");
    assertEquals(1, update("INSERT INTO us VALUES (1, 0, 0.5, DATE '2020-01-01', 127)"));
    for (String bad : List.of("(-1, 1, 1, NULL, 1)", "(2, -1, 1, NULL, 1)",
        "(2, 1, -0.5, NULL, 1)", "(2, 1, 1, DATE '1969-12-31', 1)", "(2, 1, 1, NULL, -1)")) {
      SQLException e = assertThrows(SQLException.class,
          () -> update("INSERT INTO us VALUES " + bad));
      assertEquals("23514", SqlErrors.sqlState(e), bad + ": " + e.getMessage());
      assertTrue(e.getMessage().contains("_UNSIGNED"), e.getMessage());
    }
    assertEquals("23514", SqlErrors.sqlState(assertThrows(SQLException.class,
        () -> update("UPDATE us SET i = i - 1 WHERE id = 1"))));
    update("ALTER TABLE us ADD s UNSIGNED_SMALLINT");
    assertEquals("23514", SqlErrors.sqlState(assertThrows(SQLException.class,
        () -> update("UPDATE us SET s = -2 WHERE id = 1"))));
    update("ALTER TABLE us DROP COLUMN i"); // its own check goes with it
    assertEquals(1, update("INSERT INTO us (id, f) VALUES (3, 2.5)"));
    assertEquals(List.of("1|0.5|2020-01-01|127|null", "3|2.5|null|null|null"),
        rows("SELECT * FROM us ORDER BY id"));
  }

  @Test
  void aUniqueColumnRefusesADuplicateAndAcceptsManyNulls() throws Exception {
    try (Connection h2 = DriverManager.getConnection("jdbc:h2:mem:uniq1")) {
      List<String> script = List.of(
          "CREATE TABLE t3 (z INTEGER UNIQUE)",
          "INSERT INTO t3 VALUES (1)",
          "INSERT INTO t3 VALUES (1)",
          "INSERT INTO t3 VALUES (NULL)",
          "INSERT INTO t3 VALUES (NULL)",
          "INSERT INTO t3 VALUES (2)",
          "UPDATE t3 SET z = 1 WHERE z IS NULL",
          "UPDATE t3 SET z = 3 WHERE z = 1",
          "INSERT INTO t3 VALUES (1)");
      assertEquals(outcomes(h2, script), outcomes(c, script));
      String all = "SELECT z FROM t3 ORDER BY z NULLS FIRST";
      assertEquals(rows(h2, all), rows(all));
      // the UPDATE of the two NULLs to 1 (one is there) changed neither
      assertEquals(List.of("null", "null", "1", "2", "3"), rows(all));
    }
    try (ResultSet r = c.getMetaData().getIndexInfo(null, "DEFAULT", "T3", true, false)) {
      assertTrue(r.next());
      assertEquals("T3_Z_KEY", r.getString("INDEX_NAME"));
      assertFalse(r.getBoolean("NON_UNIQUE"));
      assertEquals("Z", r.getString("COLUMN_NAME"));
    }
  }

  @Test
  void aNamedConstraintOverSeveralColumnsHoldsAcrossWrites() throws Exception {
    try (Connection h2 = DriverManager.getConnection("jdbc:h2:mem:uniq2")) {
      List<String> script = List.of(
          "CREATE TABLE u2 (id INT PRIMARY KEY, a INT, b VARCHAR(10), CONSTRAINT ab_uq "
              + "UNIQUE (a, b), UNIQUE (b, a), id2 INT UNIQUE)",
          "INSERT INTO u2 VALUES (1, 1, 'x', 10)",
          "INSERT INTO u2 VALUES (2, 1, 'y', 20)",
          "INSERT INTO u2 VALUES (3, 1, 'x', 30)",
          "INSERT INTO u2 VALUES (4, 2, 'x', 10)",
          "UPDATE u2 SET b = 'y' WHERE id = 1",
          "UPDATE u2 SET b = 'z' WHERE id = 1",
          "INSERT INTO u2 VALUES (5, 1, 'x', 50)",
          "DELETE FROM u2 WHERE id = 2",
          "INSERT INTO u2 VALUES (6, 1, 'y', NULL)");
      assertEquals(outcomes(h2, script), outcomes(c, script));
      String all = "SELECT id, a, b, id2 FROM u2 ORDER BY id";
      assertEquals(rows(h2, all), rows(all));
    }
    List<String> names = new ArrayList<>();
    try (ResultSet r = c.getMetaData().getIndexInfo(null, "DEFAULT", "U2", true, false)) {
      while (r.next()) {
        if (!r.getString("INDEX_NAME").equals("PK")) { // the primary key is listed too
          names.add(r.getString("INDEX_NAME") + ":" + r.getString("COLUMN_NAME"));
        }
      }
    }
    // (b, a) is (a, b) again: one index keeps both
    assertEquals(List.of("AB_UQ:A", "AB_UQ:B", "U2_ID2_KEY:ID2"), names.stream().sorted().toList());
    update("DROP TABLE u2");
    update("CREATE TABLE u2 (id INT PRIMARY KEY, CONSTRAINT ab_uq UNIQUE (id))");
    update("INSERT INTO u2 VALUES (1)");
    try (ResultSet r = c.getMetaData().getIndexInfo(null, "DEFAULT", "U2", true, false)) {
      assertTrue(r.next());
      assertEquals("PK", r.getString("INDEX_NAME"));
      assertFalse(r.next(), "a constraint on the primary key needs no index");
    }
  }

  /** NOT NULL holds on every way of writing: literal, prepared, batched, UPDATE, UPSERT. */
  @Test
  void notNullIsKeptByEveryWrite() throws Exception {
    try (Connection h2 = DriverManager.getConnection("jdbc:h2:mem:notnull")) {
      List<String> script = List.of(
          "CREATE TABLE nn (id INTEGER PRIMARY KEY, a VARCHAR(5) NOT NULL, b INTEGER)",
          "INSERT INTO nn (id, b) VALUES (1, 2)",
          "INSERT INTO nn VALUES (2, NULL, 3)",
          "INSERT INTO nn VALUES (3, 'x', 3)",
          "UPDATE nn SET a = NULL WHERE id = 3",
          "UPDATE nn SET a = CASE WHEN b > 2 THEN NULL ELSE 'y' END WHERE id = 3",
          "UPDATE nn SET b = NULL WHERE id = 3");
      List<String> got = outcomes(c, script);
      assertEquals(outcomes(h2, script), got);
      assertEquals(List.of("0", "23502", "23502", "1", "23502", "23502", "1"), got);
    }
    for (String sql : List.of("INSERT INTO nn VALUES (?, ?, 1)", "INSERT INTO nn (id, a) VALUES (?, ?)",
        "UPSERT INTO nn VALUES (?, ?, 1)",
        "UPSERT INTO nn (id, a) VALUES (?, ?)", "UPDATE nn SET a = ? WHERE id = ?")) {
      try (var p = c.prepareStatement(sql)) {
        boolean update = sql.startsWith("UPDATE");
        p.setInt(update ? 2 : 1, 3);
        p.setNull(update ? 1 : 2, Types.VARCHAR);
        SQLException e = assertThrows(SQLException.class, p::executeUpdate, sql);
        assertEquals("23502", SqlErrors.sqlState(e), sql + ": " + e.getMessage());
        assertTrue(e.getMessage().contains("column A of table"), e.getMessage());
        p.setInt(update ? 2 : 1, update ? 3 : 4); // the UPDATE's row must exist
        p.setNull(update ? 1 : 2, Types.VARCHAR);
        p.addBatch();
        assertThrows(SQLException.class, p::executeBatch, sql + " batched");
      }
    }
    assertEquals(List.of("3|x|null"), rows("SELECT * FROM nn"), "nothing of the refused rows");
    // an UPSERT may make the row, so it names every NOT NULL column
    assertEquals("23502", SqlErrors.sqlState(assertThrows(SQLException.class,
        () -> update("UPSERT INTO nn (id, b) VALUES (3, 7)"))));
    assertEquals(1, update("UPSERT INTO nn (id, a) VALUES (3, 'z')"));
    assertEquals(List.of("3|z|null"), rows("SELECT * FROM nn"));
  }

  @Test
  void defaultsFillWhatAnInsertLeavesOut() throws Exception {
    try (Connection h2 = DriverManager.getConnection("jdbc:h2:mem:defaults")) {
      List<String> script = List.of(
          "CREATE TABLE d1 (id INT PRIMARY KEY, a INT DEFAULT 5, b VARCHAR(10) DEFAULT 'none' "
              + "NOT NULL, e INT DEFAULT NULL, f BOOLEAN DEFAULT TRUE, g BIGINT DEFAULT -7)",
          "INSERT INTO d1 (id) VALUES (1)",
          "INSERT INTO d1 (id, a) VALUES (2, NULL)",
          "INSERT INTO d1 VALUES (3, 7, 'x', 4, FALSE, 8)",
          "INSERT INTO d1 (id, b) VALUES (4, DEFAULT)",
          "INSERT INTO d1 (id, b) VALUES (5, NULL)",
          "INSERT INTO d1 (id, a) VALUES (6, 1), (7, 2)",
          "UPDATE d1 SET a = 9 WHERE id = 1");
      List<String> got = outcomes(c, script);
      assertEquals(outcomes(h2, script), got);
      assertEquals("23502", got.get(5));
      String all = "SELECT * FROM d1 ORDER BY id";
      assertEquals(rows(h2, all).stream().map(String::toLowerCase).toList(), rows(all));
      assertEquals("1|9|none|null|true|-7", rows(all).get(0));
    }
    // prepared (one plan, run twice), batched, literal (shared plans): each row its defaults
    try (var p = c.prepareStatement("INSERT INTO d1 (id, e) VALUES (?, ?)")) {
      for (int id = 10; id < 12; id++) {
        p.setInt(1, id);
        p.setInt(2, id);
        assertEquals(1, p.executeUpdate());
      }
      for (int id = 12; id < 15; id++) {
        p.setInt(1, id);
        p.setInt(2, id);
        p.addBatch();
      }
      p.executeBatch();
    }
    update("INSERT INTO d1 (id) VALUES (15)");
    update("INSERT INTO d1 (id) VALUES (16)");
    assertEquals(List.of("5|none|true|-7"), rows("SELECT DISTINCT a, b, f, g FROM d1 WHERE id >= 10"));
    assertEquals(List.of("7"), rows("SELECT COUNT(*) FROM d1 WHERE id >= 10"));
    // the defaults are in the catalog: another connection sees them
    try (Connection other = io.basaltdb.sql.jdbc.BasaltConnections.open(db);
        Statement st = other.createStatement()) {
      st.executeUpdate("INSERT INTO d1 (id) VALUES (20)");
    }
    assertEquals(List.of("20|5|none"), rows("SELECT id, a, b FROM d1 WHERE id = 20"));
  }

  @Test
  void timeDefaultsAreTakenWhenTheRowIsWritten() throws Exception {
    update("CREATE TABLE d2 (id INT PRIMARY KEY, made TIMESTAMP DEFAULT CURRENT_TIMESTAMP, "
        + "n DECIMAL(5, 2) DEFAULT -1.5)");
    long before = System.currentTimeMillis();
    update("INSERT INTO d2 (id) VALUES (1)");
    long after = System.currentTimeMillis();
    try (Statement st = c.createStatement();
        ResultSet r = st.executeQuery("SELECT made, n FROM d2 WHERE id = 1")) {
      assertTrue(r.next());
      long at = r.getTimestamp(1).getTime();
      // CURRENT_TIMESTAMP is the session's local time; compare with a day's slack for zones
      assertTrue(Math.abs(at - before) < 86_400_000L + (after - before), at + " vs " + before);
      assertEquals(0, new java.math.BigDecimal("-1.5").compareTo(r.getBigDecimal(2)));
    }
  }

  /**
   * An UPSERT gives a row it makes the defaults of the columns it leaves out (read under the
   * row's lock: exact against concurrent writers), and leaves a row that exists as it is but
   * for what it names.
   */
  @Test
  void anUpsertGivesANewRowItsDefaultsAndLeavesAnOldOneAlone() throws Exception {
    update("CREATE TABLE d3 (id INT PRIMARY KEY, a INT DEFAULT 5, b INT DEFAULT 6 NOT NULL)");
    assertEquals(1, update("UPSERT INTO d3 (id) VALUES (1)"));
    assertEquals(List.of("1|5|6"), rows("SELECT * FROM d3"));
    update("UPDATE d3 SET a = 50 WHERE id = 1");
    update("UPSERT INTO d3 (id, b) VALUES (1, 1)");
    update("INSERT INTO d3 (id) VALUES (2)");
    update("UPSERT INTO d3 (id, b) VALUES (2, 3)");
    update("UPSERT INTO d3 (id, b) VALUES (4, 9)");
    assertEquals(List.of("1|50|1", "2|5|3", "4|5|9"), rows("SELECT * FROM d3 ORDER BY id"));
    try (PreparedStatement ps = c.prepareStatement("UPSERT INTO d3 (id, a) VALUES (?, ?)")) {
      for (int id : new int[] {4, 5}) { // batched: one existing row, one new
        ps.setInt(1, id);
        ps.setInt(2, 70 + id);
        ps.addBatch();
      }
      ps.executeBatch();
    }
    assertEquals(List.of("4|74|9", "5|75|6"), rows("SELECT * FROM d3 WHERE id >= 4 "
        + "ORDER BY id"));
    update("ALTER TABLE d3 DROP COLUMN a");
    update("ALTER TABLE d3 ADD a INT");
    update("INSERT INTO d3 (id) VALUES (3)");
    assertEquals(List.of("3|6|null"), rows("SELECT id, b, a FROM d3 WHERE id = 3"),
        "a dropped column's default goes with it");
  }

  @Test
  void aDefaultTheColumnCannotHoldCreatesNothing() throws Exception {
    for (String[] bad : new String[][] {
        {"v INT DEFAULT 'abc'", "22018"}, {"v TINYINT DEFAULT 300", "22003"},
        {"v VARCHAR(2) DEFAULT 'abc'", "22001"}, {"v INT NOT NULL DEFAULT NULL", "23502"},
        {"v INT DEFAULT id", "22023"}, {"v DECIMAL(3, 1) DEFAULT 1.25", "22003"}}) {
      SQLException e = assertThrows(SQLException.class,
          () -> update("CREATE TABLE bad (id INT PRIMARY KEY, " + bad[0] + ")"));
      assertEquals(bad[1], SqlErrors.sqlState(e), bad[0] + ": " + e.getMessage());
      assertFalse(db.admin().tableExists(TableName.of("BAD")), bad[0]);
    }
  }

  @Test
  void checksRefuseTheRowsTheyDoNotHold() throws Exception {
    try (Connection h2 = DriverManager.getConnection("jdbc:h2:mem:checks")) {
      List<String> script = List.of(
          "CREATE TABLE ck (id INT PRIMARY KEY, qty INT CHECK (qty > 0), lo INT, hi INT, "
              + "name VARCHAR(10) CHECK (CHAR_LENGTH(name) >= 2), CONSTRAINT lo_hi CHECK "
              + "(lo <= hi))",
          "INSERT INTO ck VALUES (1, 5, 1, 2, 'ab')",
          "INSERT INTO ck VALUES (2, 0, 1, 2, 'ab')",
          "INSERT INTO ck VALUES (3, NULL, NULL, 2, NULL)",
          "INSERT INTO ck VALUES (4, 1, 3, 2, 'ab')",
          "INSERT INTO ck VALUES (5, 1, 1, 1, 'a')",
          "INSERT INTO ck (id, lo, hi) VALUES (6, 9, 10)",
          "UPDATE ck SET qty = qty - 5 WHERE id = 1",
          "UPDATE ck SET qty = qty + 5 WHERE id = 1",
          "UPDATE ck SET lo = 7 WHERE id = 1",
          "UPDATE ck SET lo = 7, hi = 8 WHERE id = 1",
          "UPDATE ck SET hi = 0 WHERE id = 6",
          "DELETE FROM ck WHERE id = 3");
      List<String> got = outcomes(c, script);
      // H2 says 23513 (DB2's code); Basalt 23514, PostgreSQL's check_violation
      assertEquals(outcomes(h2, script).stream().map(o -> o.equals("23513") ? "23514" : o)
          .toList(), got);
      assertEquals(List.of("0", "1", "23514", "1", "23514", "23514", "1", "23514", "1", "23514",
          "1", "23514", "1"), got);
      String all = "SELECT * FROM ck ORDER BY id";
      assertEquals(rows(h2, all), rows(all));
    }
    SQLException e = assertThrows(SQLException.class,
        () -> update("INSERT INTO ck VALUES (7, 1, 5, 4, 'xy')"));
    assertTrue(e.getMessage().contains("CHECK constraint LO_HI of table"), e.getMessage());
    // prepared (one plan, many rows), batched and UPSERT rows are checked the same way
    try (var p = c.prepareStatement("INSERT INTO ck (id, qty) VALUES (?, ?)")) {
      p.setInt(1, 8);
      p.setInt(2, -1);
      assertEquals("23514", SqlErrors.sqlState(assertThrows(SQLException.class, p::executeUpdate)));
      p.setInt(1, 8);
      p.setInt(2, 1);
      assertEquals(1, p.executeUpdate());
      p.setInt(1, 9);
      p.setInt(2, 1);
      p.addBatch();
      p.setInt(1, 10);
      p.setInt(2, -2);
      p.addBatch();
      assertThrows(SQLException.class, p::executeBatch);
    }
    assertEquals(List.of("8|1", "9|1"), rows("SELECT id, qty FROM ck WHERE id >= 8 ORDER BY id"));
    assertEquals("23514", SqlErrors.sqlState(assertThrows(SQLException.class,
        () -> update("UPSERT INTO ck VALUES (8, -3, 1, 2, 'ab')"))));
    assertEquals("0A000", SqlErrors.sqlState(assertThrows(SQLException.class,
        () -> update("UPSERT INTO ck (id, lo) VALUES (8, 3)"))), "hi is not named");
    assertEquals(1, update("UPSERT INTO ck (id, lo, hi) VALUES (8, 3, 4)"));
    try (var p = c.prepareStatement("UPDATE ck SET qty = qty + ? WHERE id = ?")) {
      p.setInt(1, -1);
      p.setInt(2, 8);
      assertEquals("23514", SqlErrors.sqlState(assertThrows(SQLException.class, p::executeUpdate)),
          "a counter update checks the new value too");
    }
    assertEquals(List.of("8|1|3|4"), rows("SELECT id, qty, lo, hi FROM ck WHERE id = 8"));
    assertEquals("22023", SqlErrors.sqlState(assertThrows(SQLException.class,
        () -> update("ALTER TABLE ck DROP COLUMN hi"))));
    assertEquals("22023", SqlErrors.sqlState(assertThrows(SQLException.class,
        () -> update("CREATE TABLE bad (id INT PRIMARY KEY, v INT CHECK (w > 0))"))));
    assertEquals("0A000", SqlErrors.sqlState(assertThrows(SQLException.class,
        () -> update("CREATE TABLE bad (id INT PRIMARY KEY, v INT CHECK (NOSUCHFN(v) > 0))"))));
    assertFalse(db.admin().tableExists(TableName.of("BAD")));
  }

  /** A table without a primary key (a hidden row key) keeps its checks and defaults too. */
  @Test
  void aTableWithoutAKeyKeepsItsConstraints() throws Exception {
    update("CREATE TABLE hk (v INT DEFAULT 3 CHECK (v > 0), w VARCHAR(3) UNIQUE)");
    assertEquals(1, update("INSERT INTO hk (w) VALUES ('a')"));
    assertEquals("23514", SqlErrors.sqlState(assertThrows(SQLException.class,
        () -> update("INSERT INTO hk VALUES (0, 'b')"))));
    assertEquals("23514", SqlErrors.sqlState(assertThrows(SQLException.class,
        () -> update("UPDATE hk SET v = v - 3 WHERE w = 'a'"))));
    assertEquals("23505", SqlErrors.sqlState(assertThrows(SQLException.class,
        () -> update("INSERT INTO hk VALUES (1, 'a')"))));
    assertEquals(1, update("UPDATE hk SET v = v + 1 WHERE w = 'a'"));
    assertEquals(List.of("4|a"), rows("SELECT * FROM hk"));
  }

  /** What JDBC metadata has no place for: defaults and checks, in INFORMATION_SCHEMA. */
  @Test
  void defaultsAndChecksAreInTheInformationSchema() throws Exception {
    update("CREATE TABLE meta (id INT PRIMARY KEY, n DECIMAL(6, 2) DEFAULT 1.5 NOT NULL, "
        + "s VARCHAR(7) DEFAULT 'x' CHECK (CHAR_LENGTH(s) > 0), u UNSIGNED_INT, "
        + "CONSTRAINT pos CHECK (n > 0))");
    assertEquals(List.of("ID|1|null|NO|INTEGER|null|null|null",
        "N|2|1.5|NO|DECIMAL|null|6|2", "S|3|'x'|YES|VARCHAR|7|null|null",
        "U|4|null|YES|INTEGER|null|null|null"),
        rows("SELECT column_name, ordinal_position, column_default, is_nullable, data_type, "
            + "character_maximum_length, numeric_precision, numeric_scale FROM "
            + "information_schema.columns WHERE table_name = 'META' ORDER BY ordinal_position"));
    List<String> jdbc = new ArrayList<>(); // and JDBC's getColumns
    try (ResultSet r = c.getMetaData().getColumns(null, null, "META", null)) {
      while (r.next()) {
        jdbc.add(r.getString("COLUMN_NAME") + "=" + r.getString("COLUMN_DEF"));
      }
    }
    assertEquals(List.of("ID=null", "N=1.5", "S='x'", "U=null"), jdbc);
    assertEquals(List.of("META_CHECK1|CHAR_LENGTH(\"S\") > 0", "META_U_UNSIGNED|\"U\" >= 0",
        "POS|\"N\" > 0"),
        rows("SELECT constraint_name, check_clause FROM information_schema.check_constraints "
            + "WHERE table_name = 'META' ORDER BY constraint_name"));
  }

  /** A column added with a DEFAULT: the rows there are take it, as new rows do (as in H2). */
  @Test
  void aColumnAddedWithADefaultFillsTheRowsThereAre() throws Exception {
    try (Connection h2 = DriverManager.getConnection("jdbc:h2:mem:alterdefault")) {
      List<String> script = List.of(
          "CREATE TABLE ad (id INT PRIMARY KEY, a INT)",
          "INSERT INTO ad VALUES (1, 10), (2, 20)",
          "ALTER TABLE ad ADD b VARCHAR(5) DEFAULT 'x'",
          "INSERT INTO ad (id, a) VALUES (3, 30)",
          "ALTER TABLE ad ADD c DECIMAL(4, 1) DEFAULT 2.5",
          "ALTER TABLE ad ADD d INT DEFAULT 'no'",
          "UPDATE ad SET b = 'y' WHERE id = 2");
      List<String> got = outcomes(c, script);
      assertEquals(outcomes(h2, script), got);
      String all = "SELECT * FROM ad ORDER BY id";
      assertEquals(rows(h2, all), rows(all));
    }
    assertFalse(rows("SELECT column_name FROM information_schema.columns WHERE table_name = "
        + "'AD'").contains("D"), "a refused default adds no column");
  }

  @Test
  void aBadConstraintCreatesNothing() throws Exception {
    for (String ddl : List.of(
        "CREATE TABLE bad (id INT PRIMARY KEY, a INT, UNIQUE (nosuch))",
        "CREATE TABLE bad (id INT PRIMARY KEY, a INT, UNIQUE (a, a))",
        "CREATE TABLE bad (id INT PRIMARY KEY, a INT, b INT, CONSTRAINT k UNIQUE (a), "
            + "CONSTRAINT k UNIQUE (b))")) {
      SQLException e = assertThrows(SQLException.class, () -> update(ddl));
      assertEquals("22023", SqlErrors.sqlState(e), ddl + ": " + e.getMessage());
      assertFalse(db.admin().tableExists(TableName.of("BAD")), ddl);
    }
    update("CREATE TABLE bad (id INT PRIMARY KEY, a INT UNIQUE)");
    assertEquals(1, update("INSERT INTO bad VALUES (1, 1)"));
  }

  /**
   * Random one-row writes to a table with UNIQUE constraints: each outcome and the table after
   * it as H2's. (One row each: a statement failing at its tenth row keeps the nine before it
   * here, as in HBase and Phoenix, where H2 undoes them.)
   */
  @Test
  void randomWritesAgreeWithH2() throws Exception {
    long seed = RandomQueries.seed("ColumnConstraintsTest");
    Random r = new Random(seed);
    try (Connection h2 = DriverManager.getConnection("jdbc:h2:mem:uniq" + seed)) {
      List<String> script = new ArrayList<>();
      script.add("CREATE TABLE rw (id INT PRIMARY KEY, a INT UNIQUE, b INT, c VARCHAR(4), "
          + "UNIQUE (b, c))");
      for (int i = 0; i < 300; i++) {
        String a = r.nextInt(5) == 0 ? "NULL" : Integer.toString(r.nextInt(30));
        String b = r.nextInt(5) == 0 ? "NULL" : Integer.toString(r.nextInt(4));
        String cv = r.nextInt(5) == 0 ? "NULL" : "'" + (char) ('p' + r.nextInt(4)) + "'";
        int id = r.nextInt(40);
        script.add(switch (r.nextInt(6)) {
          case 0, 1, 2 -> "INSERT INTO rw VALUES (" + id + ", " + a + ", " + b + ", " + cv + ")";
          case 3 -> "UPDATE rw SET a = " + a + " WHERE id = " + id;
          case 4 -> "UPDATE rw SET b = " + b + ", c = " + cv + " WHERE id = " + id;
          default -> "DELETE FROM rw WHERE id = " + id;
        });
      }
      String all = "SELECT id, a, b, c FROM rw ORDER BY id";
      for (int i = 0; i < script.size(); i++) {
        List<String> one = script.subList(i, i + 1);
        assertEquals(outcomes(h2, one), outcomes(c, one), "seed " + seed + ": " + script.get(i));
        assertEquals(rows(h2, all), rows(all), "seed " + seed + ", after " + script.get(i));
      }
    }
  }

  /** Each statement's update count, or its SQLState when refused. */
  private static List<String> outcomes(Connection conn, List<String> script) {
    List<String> out = new ArrayList<>();
    for (String sql : script) {
      try (Statement st = conn.createStatement()) {
        out.add(Integer.toString(st.executeUpdate(sql)));
      } catch (SQLException e) {
        out.add(e.getSQLState() == null ? SqlErrors.sqlState(e) : e.getSQLState());
      }
    }
    return out;
  }

  private static List<String> rows(Connection conn, String sql) throws SQLException {
    return io.basaltdb.sql.SqlTestSupport.rows(conn, sql);
  }
}
