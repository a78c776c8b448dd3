package io.basaltdb.jdbc.csv;

import java.io.IOException;
import java.io.Writer;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.HexFormat;
import org.apache.commons.csv.CSVPrinter;

/**
 * Writes a query's rows as CSV ({@link CsvOptions}): a header row of the column labels, then
 * each row's values as the driver gives them as text ({@code getString}), binary columns in
 * hexadecimal; NULL unquoted as the NULL marker, every other value quoted, so {@link CsvLoad}
 * reads the file back to the same rows (the empty string and NULL stay apart).
 */
public final class CsvExport {
  private CsvExport() {}

  /** Writes the rows of {@code query} to {@code out}; the number of rows written. */
  public static long export(Connection c, String query, Writer out, CsvOptions options)
      throws SQLException, IOException {
    long rows = 0;
    try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(query)) {
      ResultSetMetaData md = rs.getMetaData();
      int n = md.getColumnCount();
      CSVPrinter printer = new CSVPrinter(out, options.format());
      if (options.header()) {
        for (int i = 1; i <= n; i++) {
          printer.print(md.getColumnLabel(i));
        }
        printer.println();
      }
      while (rs.next()) {
        for (int i = 1; i <= n; i++) {
          printer.print(text(rs, i, md.getColumnType(i)));
        }
        printer.println();
        rows++;
      }
      printer.flush();
    }
    return rows;
  }

  private static String text(ResultSet rs, int i, int type) throws SQLException {
    if (type == Types.BINARY || type == Types.VARBINARY || type == Types.LONGVARBINARY) {
      byte[] b = rs.getBytes(i);
      return b == null ? null : HexFormat.of().formatHex(b);
    }
    return rs.getString(i);
  }
}
