package io.basaltdb.jdbc.csv;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.StringReader;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link CsvLoad}, {@link CsvExport} and {@link CsvTool} on an embedded database: RFC 4180's
 * edge cases (quoted delimiters and line breaks, doubled quotes, the empty string apart from
 * NULL, UTF-8 with a byte order mark), refused values stopping the load where they are with
 * the rows before them counted exactly, refused records skipped to a rejects file up to a
 * count, and files exported then loaded back to the same rows.
 */
class CsvLoadTest {
  private static final String TABLE = "CREATE TABLE %s (id INTEGER PRIMARY KEY, name VARCHAR(12),"
      + " note VARCHAR(40), amount DECIMAL(10, 2), due DATE)";

  @TempDir
  Path dir;
  private Connection c;
  private String url;

  @BeforeEach
  void open() throws SQLException {
    url = "jdbc:basalt:" + dir.resolve("db");
    c = DriverManager.getConnection(url);
    try (Statement st = c.createStatement()) {
      st.execute(String.format(TABLE, "t"));
    }
  }

  @AfterEach
  void close() throws SQLException {
    c.close();
  }

  private CsvLoad.Outcome load(String csv, long maxErrors, StringWriter rejects)
      throws Exception {
    return new CsvLoad(c, "t", CsvOptions.DEFAULTS, null, null, false, maxErrors, rejects, null)
        .load(new StringReader(csv));
  }

  private List<String> rows(String table) throws SQLException {
    List<String> out = new ArrayList<>();
    try (Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("SELECT id, name, note, amount, due FROM " + table
            + " ORDER BY id")) {
      while (rs.next()) {
        out.add(rs.getInt(1) + "|" + show(rs.getString(2)) + "|" + show(rs.getString(3)) + "|"
            + rs.getBigDecimal(4) + "|" + rs.getDate(5));
      }
    }
    return out;
  }

  private static String show(String s) {
    return s == null ? "NULL" : "<" + s + ">";
  }

  @Test
  void rfc4180EdgeCases() throws Exception {
    String csv = "\uFEFFid,name,note,amount,due\r\n"
        + "1,\"a, b\",\"line one\r\nline two\",12.50,2024-05-31\r\n"
        + "2,\"say \"\"hi\"\"\",,0,\r\n"
        + "3,\"\",\"\",-7,2024-01-01\r\n"
        + "4,h\u00e9llo \u2603,plain,1e2,2024-02-29\n"
        + "5,,\"\"\"\",0.5,2023-12-31"; // no line break at the end
    assertEquals(new CsvLoad.Outcome(5, 0), load(csv, 0, null));
    assertEquals(List.of(
        "1|<a, b>|<line one\r\nline two>|12.50|2024-05-31",
        "2|<say \"hi\">|NULL|0.00|null",
        "3|<>|<>|-7.00|2024-01-01",
        "4|<h\u00e9llo \u2603>|<plain>|100.00|2024-02-29",
        "5|NULL|<\">|0.50|2023-12-31"), rows("t"));
  }

  @Test
  void aRefusedValueStopsTheLoadWhereItIs() throws Exception {
    String csv = "id,name,note,amount,due\n"
        + "1,a,,1,\n"
        + "2,b,,2,\n"
        + "3,\"a name far too long\",,3,\n"
        + "4,d,,4,\n";
    CsvLoad.Stopped s = assertThrows(CsvLoad.Stopped.class, () -> load(csv, 0, null));
    assertEquals("22001", s.getSQLState(), s.getMessage());
    assertEquals(2, s.loaded());
    assertTrue(s.getMessage().contains("line 4"), s.getMessage());
    assertEquals(2, rows("t").size());

    String notANumber = "id,name,note,amount,due\n5,e,,12x,\n";
    s = assertThrows(CsvLoad.Stopped.class, () -> load(notANumber, 0, null));
    assertEquals("22018", s.getSQLState());
    assertTrue(s.getMessage().contains("line 2, column amount, value '12x'"), s.getMessage());
    assertEquals(0, s.loaded());

    String tooPrecise = "id,name,note,amount,due\n6,f,,1.005,\n";
    s = assertThrows(CsvLoad.Stopped.class, () -> load(tooPrecise, 0, null));
    assertEquals("22003", s.getSQLState(), s.getMessage()); // not rounded to its scale

    String shortRecord = "id,name,note,amount,due\n7,g\n";
    s = assertThrows(CsvLoad.Stopped.class, () -> load(shortRecord, 0, null));
    assertEquals("22023", s.getSQLState());
    assertEquals(2, rows("t").size(), "nothing else was written");
  }

  @Test
  void refusedRecordsGoToTheRejectsFileUpToTheCount() throws Exception {
    String csv = "id,name,note,amount,due\n"
        + "1,a,,1,\n"
        + "2,b,,two,\n"
        + "3,c,,3,2024-13-01\n"
        + "4,d,,4,\n";
    StringWriter rejects = new StringWriter();
    assertEquals(new CsvLoad.Outcome(2, 2), load(csv, 2, rejects));
    assertEquals(List.of("1|<a>|NULL|1.00|null", "4|<d>|NULL|4.00|null"), rows("t"));
    String[] lines = rejects.toString().split("\r\n");
    assertEquals(2, lines.length, rejects.toString());
    assertTrue(lines[0].startsWith("\"2\",\"b\",,\"two\",,\"line 3\""), lines[0]);
    assertTrue(lines[1].contains("column due") && lines[1].contains("22018"), lines[1]);

    CsvLoad.Stopped s = assertThrows(CsvLoad.Stopped.class,
        () -> load(csv.replace("4,d,,4,", "4,d,,x,"), 2, new StringWriter()));
    assertEquals(1, s.loaded(), s.getMessage()); // row 1; 2 and 3 rejected, 4 stops it
    assertTrue(s.getMessage().contains("line 5") && s.getMessage().contains("2 rejected"),
        s.getMessage());
  }

  @Test
  void insertRefusesAStoredKeyAndCountsTheRowsBefore() throws Exception {
    load("id,name,note,amount,due\n3,old,,0,\n", 0, null);
    String csv = "id,name,note,amount,due\n1,a,,1,\n2,b,,2,\n3,c,,3,\n4,d,,4,\n";
    CsvLoad insert = new CsvLoad(c, "t", CsvOptions.DEFAULTS, null, null, true, 0, null, null);
    CsvLoad.Stopped s = assertThrows(CsvLoad.Stopped.class,
        () -> insert.load(new StringReader(csv)));
    assertEquals("23505", s.getSQLState(), s.getMessage());
    assertEquals(2, s.loaded());
    assertTrue(s.getMessage().contains("line 4"), s.getMessage());
    assertEquals(List.of("1|<a>|NULL|1.00|null", "2|<b>|NULL|2.00|null",
        "3|<old>|NULL|0.00|null"), rows("t"));
  }

  /**
   * A driver whose batch goes on past a refused row (as Basalt's INSERT batches over HBase do:
   * every row tried, the refused ones EXECUTE_FAILED): the rows after the refused one that the
   * batch wrote are counted and said to be after it.
   */
  @Test
  void aBatchThatWentOnPastTheRefusedRow() throws Exception {
    load("id,name,note,amount,due\n3,old,,0,\n", 0, null);
    Connection tryingAll = (Connection) java.lang.reflect.Proxy.newProxyInstance(
        getClass().getClassLoader(), new Class<?>[] {Connection.class}, (p, m, args) ->
            m.getName().equals("prepareStatement")
                ? tryingEveryRow(c.prepareStatement((String) args[0])) : m.invoke(c, args));
    String csv = "id,name,note,amount,due\n1,a,,1,\n3,c,,3,\n4,d,,4,\n";
    CsvLoad insert = new CsvLoad(tryingAll, "t", CsvOptions.DEFAULTS, null, null, true, 0, null,
        null);
    CsvLoad.Stopped s = assertThrows(CsvLoad.Stopped.class,
        () -> insert.load(new StringReader(csv)));
    assertEquals("23505", s.getSQLState(), s.getMessage());
    assertEquals(2, s.loaded(), s.getMessage());
    assertTrue(s.getMessage().contains("line 3") && s.getMessage().contains("1 of them after it"),
        s.getMessage());
    assertEquals(3, rows("t").size());

    StringWriter rejects = new StringWriter(); // refused in the batch, then at parsing: in order
    CsvLoad skipping = new CsvLoad(tryingAll, "t", CsvOptions.DEFAULTS, null, null, true, 5,
        rejects, null);
    assertEquals(new CsvLoad.Outcome(1, 2), skipping.load(new StringReader(
        "id,name,note,amount,due\n5,e,,5,\n3,c,,3,\n6,f,,6x,\n")));
    String[] lines = rejects.toString().split("\r\n");
    assertTrue(lines[0].contains("\"line 3\"") && lines[1].contains("\"line 4\""),
        rejects.toString());
  }

  /** {@code real}, its batches run row by row, every row tried, as a JDBC batch may be. */
  private static java.sql.PreparedStatement tryingEveryRow(java.sql.PreparedStatement real) {
    List<List<Object[]>> batch = new ArrayList<>();
    List<Object[]> params = new ArrayList<>();
    return (java.sql.PreparedStatement) java.lang.reflect.Proxy.newProxyInstance(
        CsvLoadTest.class.getClassLoader(), new Class<?>[] {java.sql.PreparedStatement.class},
        (p, m, args) -> {
          switch (m.getName()) {
            case "addBatch" -> {
              batch.add(new ArrayList<>(params));
              return null;
            }
            case "executeBatch" -> {
              int[] counts = new int[batch.size()];
              SQLException first = null;
              for (int k = 0; k < batch.size(); k++) {
                for (Object[] set : batch.get(k)) {
                  ((java.lang.reflect.Method) set[0]).invoke(real, (Object[]) set[1]);
                }
                try {
                  counts[k] = real.executeUpdate();
                } catch (SQLException e) {
                  counts[k] = Statement.EXECUTE_FAILED;
                  first = first == null ? e : first;
                }
              }
              batch.clear();
              if (first != null) {
                throw new java.sql.BatchUpdateException(first.getMessage(), first.getSQLState(),
                    counts, first);
              }
              return counts;
            }
            case "clearBatch" -> {
              batch.clear();
              return null;
            }
            default -> {
              if (m.getName().startsWith("set") && args != null && args.length >= 2) {
                params.removeIf(set -> ((Object[]) set[1])[0].equals(args[0]));
                params.add(new Object[] {m, args});
              }
              try {
                return m.invoke(real, args);
              } catch (java.lang.reflect.InvocationTargetException e) {
                throw e.getCause();
              }
            }
          }
        });
  }

  @Test
  void anExportLoadsBackToTheSameRows() throws Exception {
    load("id,name,note,amount,due\n"
        + "1,\"a, b\",\"two\nlines\",12.50,2024-05-31\n"
        + "2,\"\",,0,\n"
        + "3,,\"\"\"q\"\"\",-1.25,2000-02-29\n", 0, null);
    StringWriter file = new StringWriter();
    assertEquals(3, CsvExport.export(c, "SELECT id, name, note, amount, due FROM t", file,
        CsvOptions.DEFAULTS));
    try (Statement st = c.createStatement()) {
      st.execute(String.format(TABLE, "t2"));
    }
    new CsvLoad(c, "t2", CsvOptions.DEFAULTS, null, null, true, 0, null, null)
        .load(new StringReader(file.toString()));
    assertEquals(rows("t"), rows("t2"));
  }

  @Test
  void otherTypesAndPatterns() throws Exception {
    try (Statement st = c.createStatement()) {
      st.execute("CREATE TABLE k (id BIGINT PRIMARY KEY, seen TIMESTAMP NOT NULL, ok BOOLEAN,"
          + " raw VARBINARY(4), d DATE)");
    }
    String csv = "id,seen,ok,raw,d\n"
        + "1,2024-05-31T13:45:00.5,yes,0aff,31.05.2024\n"
        + "2,2024-05-31 13:45:01,F,,01.01.2000\n"
        + "3,,t,00,01.01.2000\n";
    CsvLoad load = new CsvLoad(c, "k", CsvOptions.DEFAULTS, "dd.MM.yyyy", null, false, 0, null,
        null);
    CsvLoad.Stopped s = assertThrows(CsvLoad.Stopped.class,
        () -> load.load(new StringReader(csv)));
    assertEquals("23502", s.getSQLState(), s.getMessage()); // NOT NULL left empty
    assertEquals(2, s.loaded());
    List<String> got = new ArrayList<>();
    try (Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("SELECT id, seen, ok, raw, d FROM k ORDER BY id")) {
      while (rs.next()) {
        got.add(rs.getLong(1) + "|" + rs.getTimestamp(2) + "|" + rs.getObject(3) + "|"
            + (rs.getBytes(4) == null ? null : java.util.HexFormat.of().formatHex(rs.getBytes(4)))
            + "|" + rs.getDate(5));
      }
    }
    assertEquals(List.of("1|2024-05-31 13:45:00.5|true|0aff|2024-05-31",
        "2|2024-05-31 13:45:01.0|false|null|2000-01-01"), got);
  }

  /** {@code n} records, ids 1..n; the record of each id in {@code bad} has a 13-character name. */
  private static String records(int n, java.util.Set<Integer> bad) {
    StringBuilder b = new StringBuilder("id,name,note,amount,due\n");
    for (int i = 1; i <= n; i++) {
      b.append(i).append(',').append(bad.contains(i) ? "thirteen-char" : "n" + (i % 97))
          .append(",,").append(i % 1000).append(".25,2024-05-31\n");
    }
    return b.toString();
  }

  private long count() throws SQLException {
    try (Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("SELECT COUNT(*), SUM(amount) FROM t")) {
      assertTrue(rs.next());
      return rs.getLong(1);
    }
  }

  @Test
  void aParallelLoadWritesWhatASerialOneWrites() throws Exception {
    List<Connection> senders = List.of(DriverManager.getConnection(url),
        DriverManager.getConnection(url), DriverManager.getConnection(url));
    try {
      String csv = records(25_000, java.util.Set.of());
      CsvLoad.Outcome o = new CsvLoad(c, "t", CsvOptions.DEFAULTS, null, null, false, 0, null,
          null).parallel(senders).load(new StringReader(csv));
      assertEquals(25_000, o.loaded());
      List<String> parallel = rows("t");
      try (Statement st = c.createStatement()) {
        st.execute("DELETE FROM t");
      }
      load(csv, 0, null);
      assertEquals(rows("t"), parallel, "the same rows as a serial load");

      try (Statement st = c.createStatement()) {
        st.execute("DELETE FROM t");
      }
      CsvLoad.Stopped stopped = assertThrows(CsvLoad.Stopped.class, () -> new CsvLoad(c, "t",
          CsvOptions.DEFAULTS, null, null, false, 0, null, null).parallel(senders)
          .load(new StringReader(records(25_000, java.util.Set.of(12_345)))));
      assertEquals("22001", stopped.getSQLState());
      assertTrue(stopped.getMessage().contains("line 12346, column name, value 'thirteen-char'")
          && stopped.getMessage().contains("a parallel load"), stopped.getMessage());
      assertEquals(count(), stopped.loaded(), "the rows loaded, counted exactly");
      assertTrue(stopped.loaded() >= 12_000 && stopped.loaded() < 25_000, "" + stopped.loaded());

      try (Statement st = c.createStatement()) {
        st.execute("DELETE FROM t");
      }
      StringWriter rejects = new StringWriter();
      CsvLoad.Outcome skipped = new CsvLoad(c, "t", CsvOptions.DEFAULTS, null, null, false, 10,
          rejects, null).parallel(senders).load(new StringReader(
              records(25_000, java.util.Set.of(3, 9_999, 10_000, 24_999))));
      assertEquals(24_996, skipped.loaded());
      assertEquals(4, skipped.rejected());
      assertEquals(24_996, count());
      assertEquals(4, rejects.toString().lines().count(), rejects.toString());
      for (String line : List.of("line 4", "line 10000", "line 10001", "line 25000")) {
        assertTrue(rejects.toString().contains(line), line + " in " + rejects);
      }
    } finally {
      for (Connection s : senders) {
        s.close();
      }
    }
  }

  @Test
  void theCommandLine() throws Exception {
    Path csv = dir.resolve("in.csv");
    Files.writeString(csv, "1;x;;1;2024-05-31\n2;y;;2;31/05/2024\n", StandardCharsets.UTF_8);
    c.close(); // the tool opens the database itself
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int status = CsvTool.run(new String[] {"load", "t", csv.toString(), "--url", url,
        "--no-header", "--columns", "id,name,note,amount,due", "--delimiter", ";",
        "--errors", "1", "--parallel", "2"}, new PrintStream(out, true), new PrintStream(err, true));
    assertEquals(0, status, err.toString());
    assertTrue(out.toString().contains("loaded 1 rows into t"), out.toString());
    assertTrue(Files.readString(Path.of(csv + ".rejects")).contains("31/05/2024"));

    Path exported = dir.resolve("out.csv");
    status = CsvTool.run(new String[] {"export", "SELECT id, name FROM t", "--to",
        exported.toString(), "--url", url}, new PrintStream(out, true),
        new PrintStream(err, true));
    assertEquals(0, status, err.toString());
    assertEquals("\"ID\",\"NAME\"\r\n\"1\",\"x\"\r\n", Files.readString(exported));
    ByteArrayOutputStream again = new ByteArrayOutputStream();
    status = CsvTool.run(new String[] {"load", "t", exported.toString(), "--url", url,
        "--header"}, new PrintStream(again, true), new PrintStream(err, true)); // the default
    assertEquals(0, status, err.toString());
    assertTrue(again.toString().contains("loaded 1 rows into t"), again.toString());

    assertEquals(2, CsvTool.run(new String[] {"load", "t"}, new PrintStream(out, true),
        new PrintStream(err, true)));
    assertEquals(2, CsvTool.run(new String[] {"load", "t", csv.toString(), "--delimiter",
        "ab"}, new PrintStream(out, true), new PrintStream(err, true)));
    c = DriverManager.getConnection(url);
  }
}
