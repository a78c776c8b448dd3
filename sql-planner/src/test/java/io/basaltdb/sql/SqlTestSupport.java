package io.basaltdb.sql;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/** Query results as text rows ({@code a|b|c}), for comparing SQL answers in tests. */
public final class SqlTestSupport {
  private SqlTestSupport() {}

  public static List<String> rows(Connection c, String sql) throws SQLException {
    try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
      return rows(rs);
    }
  }

  /** The rows of a result set (which this closes) as text. */
  public static List<String> rows(ResultSet results) throws SQLException {
    List<String> out = new ArrayList<>();
    try (ResultSet rs = results) {
      int n = rs.getMetaData().getColumnCount();
      while (rs.next()) {
        StringBuilder sb = new StringBuilder();
        for (int i = 1; i <= n; i++) {
          sb.append(i > 1 ? "|" : "").append(rs.getString(i));
        }
        out.add(sb.toString());
      }
    }
    return out;
  }

  /** Inserts {@code rows} (all as wide as the table) into {@code table}, in batches of 1000. */
  public static void insert(Connection conn, String table, List<Object[]> rows)
      throws SQLException {
    String marks = String.join(", ", java.util.Collections.nCopies(rows.get(0).length, "?"));
    try (java.sql.PreparedStatement p = conn.prepareStatement("INSERT INTO " + table
        + " VALUES (" + marks + ")")) {
      int n = 0;
      for (Object[] row : rows) {
        for (int i = 0; i < row.length; i++) {
          p.setObject(i + 1, row[i]);
        }
        p.addBatch();
        if (++n % 1000 == 0) {
          p.executeBatch();
        }
      }
      p.executeBatch();
    }
  }

  /** Runs each of {@code statements} on {@code conn}. */
  public static void executeAll(Connection conn, List<String> statements) throws SQLException {
    try (java.sql.Statement st = conn.createStatement()) {
      for (String sql : statements) {
        st.executeUpdate(sql);
      }
    }
  }

  /** How many times {@code part} occurs in {@code text} (a plan's operators, say). */
  public static int occurrences(String text, String part) {
    int n = 0;
    for (int at = text.indexOf(part); at >= 0; at = text.indexOf(part, at + part.length())) {
      n++;
    }
    return n;
  }
}
