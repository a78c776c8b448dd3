package io.basaltdb.hbase;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basaltdb.jdbc.csv.CsvExport;
import io.basaltdb.jdbc.csv.CsvLoad;
import io.basaltdb.jdbc.csv.CsvOptions;
import java.io.StringReader;
import java.io.StringWriter;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * CSV loads over HBase, serial and parallel, through the same code as {@code bin/basalt load
 * --url jdbc:basalt:hbase:...}: the rows and their DECIMAL sum as in the file, a duplicate key
 * of an {@code --insert} load refused with 23505 and the rows loaded counted exactly, and an
 * export loaded back to the same rows.
 */
class HBaseCsvTest {
  private static String file(int n, int duplicateOf) {
    StringBuilder b = new StringBuilder("id,name,amount\n");
    for (int i = 1; i <= n; i++) {
      b.append(i).append(",\"name, ").append(i).append("\",").append(i % 1000).append(".5\n");
    }
    if (duplicateOf > 0) {
      b.append(duplicateOf).append(",again,1.0\n");
    }
    return b.toString();
  }

  private static String totals(Statement st, String table) throws SQLException {
    try (ResultSet rs = st.executeQuery("SELECT COUNT(*), SUM(amount) FROM " + table)) {
      assertTrue(rs.next());
      return rs.getLong(1) + "|" + rs.getBigDecimal(2);
    }
  }

  @Test
  void loadsSeriallyAndInParallelOverHBase() throws Exception {
    String url = SharedCluster.url("");
    try (Connection c = DriverManager.getConnection(url);
        Connection s1 = DriverManager.getConnection(url);
        Connection s2 = DriverManager.getConnection(url);
        Statement st = c.createStatement()) {
      st.executeUpdate("CREATE TABLE csv_a (id INTEGER PRIMARY KEY, name VARCHAR(20),"
          + " amount DECIMAL(8, 1))");
      st.executeUpdate("CREATE TABLE csv_b (id INTEGER PRIMARY KEY, name VARCHAR(20),"
          + " amount DECIMAL(8, 1))");
      String csv = file(5_000, 0);
      CsvLoad.Outcome serial = new CsvLoad(c, "csv_a", CsvOptions.DEFAULTS, null, null, false,
          0, null, null).load(new StringReader(csv));
      CsvLoad.Outcome parallel = new CsvLoad(c, "csv_b", CsvOptions.DEFAULTS, null, null,
          false, 0, null, null).parallel(List.of(s1, s2)).load(new StringReader(csv));
      assertEquals(5_000, serial.loaded());
      assertEquals(5_000, parallel.loaded());
      assertEquals("5000|2500000.0", totals(st, "csv_a")); // 5 x (0 + ... + 999) + 5000 x 0.5
      assertEquals(totals(st, "csv_a"), totals(st, "csv_b"));

      StringWriter out = new StringWriter();
      assertEquals(5_000, CsvExport.export(c, "SELECT id, name, amount FROM csv_a", out,
          CsvOptions.DEFAULTS));
      st.executeUpdate("DELETE FROM csv_a");
      new CsvLoad(c, "csv_a", CsvOptions.DEFAULTS, null, null, false, 0, null, null)
          .load(new StringReader(out.toString()));
      assertEquals(totals(st, "csv_b"), totals(st, "csv_a"), "an export loads back the same");

      st.executeUpdate("CREATE TABLE csv_c (id INTEGER PRIMARY KEY, name VARCHAR(20),"
          + " amount DECIMAL(8, 1))");
      CsvLoad.Stopped dup = assertThrows(CsvLoad.Stopped.class, () -> new CsvLoad(c, "csv_c",
          CsvOptions.DEFAULTS, null, null, true, 0, null, null)
          .load(new StringReader(file(3_000, 17))));
      assertEquals("23505", dup.getSQLState());
      assertTrue(dup.getMessage().contains("line 3002"), dup.getMessage());
      try (ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM csv_c")) {
        assertTrue(rs.next());
        assertEquals(rs.getLong(1), dup.loaded(), "the rows loaded, counted exactly");
        assertEquals(3_000, dup.loaded());
      }
      for (String t : List.of("csv_a", "csv_b", "csv_c")) {
        st.executeUpdate("DROP TABLE " + t);
      }
    }
  }
}
