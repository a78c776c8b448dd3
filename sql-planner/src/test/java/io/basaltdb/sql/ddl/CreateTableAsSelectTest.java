package io.basaltdb.sql.ddl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.basaltdb.storage.TableName;
import io.basaltdb.sql.SqlTestBase;
import io.basaltdb.sql.SqlTestSupport;
import io.basaltdb.sql.jdbc.SqlErrors;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code CREATE TABLE ... AS query}: the table made from the query's columns (or as declared)
 * holds the query's rows, as H2 makes it; a failing fill leaves no table.
 */
class CreateTableAsSelectTest extends SqlTestBase {
  private static final List<String> SOURCE = List.of(
      "CREATE TABLE src (id INT PRIMARY KEY, name VARCHAR(10), amt DECIMAL(8, 2), d DATE)",
      "INSERT INTO src VALUES (1, 'ann', 10.50, DATE '2026-01-02'), (2, 'bob', NULL, NULL), "
          + "(3, 'carmen', 7.25, DATE '2026-03-04'), (4, NULL, 1.00, DATE '2026-05-06')");

  @Test
  void aTableFromAQueryHoldsItsRowsAsInH2() throws Exception {
    try (Connection h2 = DriverManager.getConnection("jdbc:h2:mem:ctas1")) {
      List<String> script = List.of(
          "CREATE TABLE c1 AS SELECT id, name, amt * 2 AS dbl, d FROM src WHERE id > 1",
          "CREATE TABLE c2 AS SELECT name, COUNT(*) AS n, SUM(amt) AS total FROM src "
              + "GROUP BY name",
          "CREATE TABLE c3 (k INT PRIMARY KEY, label VARCHAR(12) NOT NULL) AS "
              + "SELECT id, 'n:' || COALESCE(name, '?') FROM src",
          "CREATE TABLE c4 AS SELECT a.id, b.name FROM src a JOIN src b ON a.id = b.id + 1");
      for (String sql : concat(SOURCE, script)) {
        update(sql);
        try (Statement st = h2.createStatement()) {
          st.executeUpdate(sql);
        }
      }
      for (String q : List.of("SELECT * FROM c1 ORDER BY id", "SELECT * FROM c2 ORDER BY name NULLS FIRST",
          "SELECT * FROM c3 ORDER BY k", "SELECT * FROM c4 ORDER BY id")) {
        assertEquals(SqlTestSupport.rows(h2, q), rows(q), q);
      }
    }
    try (Statement st = c.createStatement();
        ResultSet r = st.executeQuery("SELECT * FROM c1")) {
      ResultSetMetaData md = r.getMetaData();
      assertEquals(4, md.getColumnCount(), "no hidden key column shows");
      assertEquals(Types.INTEGER, md.getColumnType(1));
      assertEquals(Types.VARCHAR, md.getColumnType(2));
      assertEquals(10, md.getPrecision(2));
      assertEquals(Types.DECIMAL, md.getColumnType(3));
      assertEquals(Types.DATE, md.getColumnType(4));
    }
    // the new tables are ordinary tables
    assertEquals(1, update("INSERT INTO c3 VALUES (9, 'nine')"));
    assertEquals(List.of("5"), rows("SELECT COUNT(*) FROM c3"));
  }

  @Test
  void optionsAndIfNotExistsApply() throws Exception {
    SOURCE.forEach(this::updateUnchecked);
    assertEquals(0, update("CREATE TABLE s2 SALT_BUCKETS = 2 AS SELECT id, name FROM src"));
    assertEquals(List.of("1|ann", "2|bob", "3|carmen", "4|null"),
        rows("SELECT * FROM s2 ORDER BY id"));
    update("CREATE TABLE IF NOT EXISTS s2 AS SELECT id, name FROM src");
    assertEquals(List.of("4"), rows("SELECT COUNT(*) FROM s2"), "an existing table is kept");
    assertEquals("42P07", state("CREATE TABLE s2 AS SELECT id FROM src"));
  }

  @Test
  void aFailingQueryOrFillLeavesNoTable() throws Exception {
    SOURCE.forEach(this::updateUnchecked);
    assertEquals("22001", state("CREATE TABLE bad (k INT PRIMARY KEY, n VARCHAR(3)) AS "
        + "SELECT id, name FROM src"));
    assertEquals("23502", state("CREATE TABLE bad (k INT PRIMARY KEY, n VARCHAR(9) NOT NULL) "
        + "AS SELECT id, name FROM src"));
    assertEquals("42000", state("CREATE TABLE bad AS SELECT COUNT(*) FROM src"));
    assertEquals("42000", state("CREATE TABLE bad AS SELECT * FROM nosuch"));
    assertEquals("42000", state("CREATE TABLE bad (k INT PRIMARY KEY) AS SELECT id, name "
        + "FROM src"));
    assertEquals("42000", state("CREATE TABLE bad"));
    assertFalse(db.admin().tableExists(TableName.of("BAD")));
    assertEquals("42000", state("SELECT * FROM bad"), "nor in the SQL catalog");
  }

  private String state(String sql) {
    SQLException e = assertThrows(SQLException.class, () -> update(sql), sql);
    return SqlErrors.sqlState(e);
  }

  private void updateUnchecked(String sql) {
    try {
      update(sql);
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
  }

  private static List<String> concat(List<String> a, List<String> b) {
    List<String> out = new java.util.ArrayList<>(a);
    out.addAll(b);
    return out;
  }
}
