package io.basaltdb.tpch;

import java.io.IOException;
import java.io.InputStream;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * The 22 TPC-H queries (the specification's text with its validation substitution
 * parameters, in {@code resources/tpch/qN.sql}), run on a connection, and results compared:
 * row by row in order, numbers within a small tolerance (databases round averages and
 * decimal divisions differently), everything else exactly.
 */
public final class TpchQueries {
  private TpchQueries() {}

  public static String text(int q) {
    try (InputStream in = TpchQueries.class.getResourceAsStream("/tpch/q" + q + ".sql")) {
      if (in == null) {
        throw new IllegalArgumentException("no TPC-H query " + q);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8).trim();
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  /** A query's rows, each value as a String or, for numbers, a BigDecimal. */
  public static List<List<Object>> run(Connection c, int q) throws SQLException {
    return run(c, q, 0);
  }

  /** As {@link #run(Connection, int)}, given up after {@code timeoutSeconds} (0: never). */
  public static List<List<Object>> run(Connection c, int q, int timeoutSeconds)
      throws SQLException {
    List<List<Object>> rows = new ArrayList<>();
    try (Statement st = c.createStatement()) {
      st.setQueryTimeout(timeoutSeconds);
      collect(st.executeQuery(text(q)), rows);
    }
    return rows;
  }

  private static void collect(ResultSet results, List<List<Object>> rows) throws SQLException {
    try (ResultSet rs = results) {
      int n = rs.getMetaData().getColumnCount();
      while (rs.next()) {
        List<Object> row = new ArrayList<>(n);
        for (int i = 1; i <= n; i++) {
          Object v = rs.getObject(i);
          row.add(v instanceof Number num ? new BigDecimal(num.toString())
              : v == null ? null : rs.getString(i));
        }
        rows.add(row);
      }
    }
  }

  /** Null when the results agree, else the first difference in words. */
  public static String difference(List<List<Object>> expected, List<List<Object>> actual) {
    if (expected.size() != actual.size()) {
      return "row counts differ: " + expected.size() + " vs " + actual.size();
    }
    for (int r = 0; r < expected.size(); r++) {
      List<Object> e = expected.get(r);
      List<Object> a = actual.get(r);
      for (int i = 0; i < e.size(); i++) {
        if (!same(e.get(i), a.get(i))) {
          return "row " + r + " column " + (i + 1) + ": " + e.get(i) + " vs " + a.get(i)
              + " (rows " + e + " vs " + a + ")";
        }
      }
    }
    return null;
  }

  private static boolean same(Object e, Object a) {
    if (e == null || a == null) {
      return e == a;
    }
    if (e instanceof BigDecimal x && a instanceof BigDecimal y) {
      BigDecimal diff = x.subtract(y).abs();
      BigDecimal scale = x.abs().max(BigDecimal.ONE);
      return diff.compareTo(new BigDecimal("0.011")) <= 0
          || diff.divide(scale, java.math.MathContext.DECIMAL64)
              .compareTo(new BigDecimal("1e-9")) <= 0;
    }
    return e.toString().trim().equals(a.toString().trim());
  }
}
