package io.basaltdb.sql.prepare;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basaltdb.sql.PlannerStats;
import io.basaltdb.sql.SqlTestSupport;
import io.basaltdb.sql.TemporaryDatabaseTest;
import io.basaltdb.sql.jdbc.SqlErrors;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;
import org.junit.jupiter.api.Test;

/**
 * An INSERT or UPSERT of many rows of parameters, or of many rows of literals, is planned
 * without Calcite's planner ({@link DirectPlans}, issue 40: a union of a projection per row,
 * planned and compiled, took 0.6 s for 1,000 rows) and stays one statement: all of its rows or
 * none, in auto-commit and in a transaction, with the errors H2 gives for the same SQL.
 */
class MultiRowValuesTest extends TemporaryDatabaseTest {
  private static final String TABLE =
      "CREATE TABLE m (id INTEGER NOT NULL PRIMARY KEY, s VARCHAR(4), n BIGINT)";

  /** {@code INSERT INTO m (id, s, n) VALUES } with {@code rows} rows made by {@code row}. */
  private static String insert(int rows, IntFunction<String> row) {
    StringBuilder sb = new StringBuilder("INSERT INTO m (id, s, n) VALUES ");
    for (int i = 0; i < rows; i++) {
      sb.append(i == 0 ? "" : ", ").append(row.apply(i));
    }
    return sb.toString();
  }

  private static String params(int rows) {
    return insert(rows, i -> "(?, ?, ?)");
  }

  private static void bind(PreparedStatement p, int rows, int firstId, String badAt)
      throws SQLException {
    for (int i = 0; i < rows; i++) {
      p.setInt(3 * i + 1, firstId + i);
      p.setString(3 * i + 2, badAt != null && i == rows / 2 ? badAt : "s" + (i % 100));
      p.setLong(3 * i + 3, i * 7L);
    }
  }

  private static List<String> all(Connection conn) throws SQLException {
    return SqlTestSupport.rows(conn, "SELECT id, s, n FROM m ORDER BY id");
  }

  /** The SQLState {@code sql} fails with, or null. */
  private static String state(Connection conn, String sql) {
    try (Statement s = conn.createStatement()) {
      s.executeUpdate(sql);
      return null;
    } catch (SQLException e) {
      return SqlErrors.sqlState(e);
    }
  }

  @Test
  void manyRowsOfParametersAreOneDirectStatement() throws Exception {
    st.executeUpdate(TABLE);
    long direct = PlannerStats.of(db).directPlans.get();
    try (PreparedStatement p = c.prepareStatement(params(1000))) {
      assertEquals(3000, p.getParameterMetaData().getParameterCount());
      bind(p, 1000, 0, null);
      assertEquals(1000, p.executeUpdate());
      bind(p, 1000, 1000, null); // executed again with other values
      assertEquals(1000, p.executeUpdate());
    }
    assertEquals(direct + 1, PlannerStats.of(db).directPlans.get(), "planned directly");
    try (Connection h2 = DriverManager.getConnection("jdbc:h2:mem:multirow1")) {
      h2.createStatement().executeUpdate(TABLE);
      try (PreparedStatement p = h2.prepareStatement(params(1000))) {
        bind(p, 1000, 0, null);
        p.executeUpdate();
        bind(p, 1000, 1000, null);
        p.executeUpdate();
      }
      assertEquals(all(h2), all(c));
    }
  }

  @Test
  void onlyTheHeadAndTheFirstRowAreParsedWhateverTheTextsShape() throws Exception {
    st.executeUpdate(TABLE);
    String[] texts = {
        params(200),
        params(50).replace(", (", ",\n  ( ").replace("?, ?", "?,?") + "  ",
        "UPSERT INTO m (id, s, n) VALUES " + "(?, ?, ?), ".repeat(9) + "(?, ?, ?)",
        "INSERT INTO m (id, s, n) VALUES (?, ?, ?), (?, ?, ?) -- , (?, ?, ?)\n",
        "INSERT INTO m (id, s, n) VALUES (?, ?, ?), (?, 'x', ?), (?, ?, ?)",
        "/* Hibernate: insert m */\n" + params(20),
        params(20) + " /* 7 */"};
    int[] markers = {600, 150, 30, 6, 8, 60, 60};
    // a comment inside; a row of a literal; comments that begin or end the text are skipped
    boolean[] scanned = {true, true, true, false, false, true, true};
    try (Connection h2 = DriverManager.getConnection("jdbc:h2:mem:multirow0")) {
      h2.createStatement().executeUpdate(TABLE);
      int id = 0;
      for (int t = 0; t < texts.length; t++) {
        long before = PlannerStats.of(db).rowsOfParametersScanned.get();
        for (Connection conn : List.of(c, h2)) {
          String sql = conn == h2 ? texts[t].replace("UPSERT", "MERGE") : texts[t];
          try (PreparedStatement p = conn.prepareStatement(sql)) {
            assertEquals(markers[t], p.getParameterMetaData().getParameterCount(), sql);
            for (int i = 1; i <= markers[t]; i++) {
              switch (column(sql, i)) {
                case 0 -> p.setInt(i, id + i);
                case 1 -> p.setString(i, "s" + i % 10);
                default -> p.setLong(i, i);
              }
            }
            p.executeUpdate();
          }
        }
        id += 1000;
        assertEquals(before + (scanned[t] ? 1 : 0),
            PlannerStats.of(db).rowsOfParametersScanned.get(), texts[t]);
      }
      assertEquals(all(h2), all(c));
    }
  }

  /** The position in {@code sql} of its {@code n}th parameter marker (from 1). */
  private static int nthMarker(String sql, int n) {
    int at = -1;
    for (int k = 0; k < n; k++) {
      at = sql.indexOf('?', at + 1);
    }
    return at;
  }

  /** Which column (0, 1, 2) the {@code n}th marker of {@code sql} is in, by its row's commas. */
  private static int column(String sql, int n) {
    int at = nthMarker(sql, n);
    int open = sql.lastIndexOf('(', at);
    return (int) sql.substring(open, at).chars().filter(ch -> ch == ',').count();
  }

  @Test
  void aFailingRowLeavesNoneOfTheStatementsRowsAsInH2() throws Exception {
    st.executeUpdate(TABLE);
    st.executeUpdate("INSERT INTO m VALUES (500, 'old', 1)");
    try (Connection h2 = DriverManager.getConnection("jdbc:h2:mem:multirow2")) {
      h2.createStatement().executeUpdate(TABLE);
      h2.createStatement().executeUpdate("INSERT INTO m VALUES (500, 'old', 1)");
      for (Connection conn : List.of(c, h2)) {
        List<String> states = new ArrayList<>();
        // a duplicate key at row 500, and a value too long for its column at row 500
        for (String bad : new String[] {null, "toolong"}) {
          try (PreparedStatement p = conn.prepareStatement(params(1000))) {
            // Basalt refuses the long value as it is bound, H2 when the statement runs
            states.add(SqlErrors.sqlState(assertThrows(SQLException.class, () -> {
              bind(p, 1000, bad == null ? 0 : 2000, bad);
              p.executeUpdate();
            })));
          }
        }
        assertEquals(List.of("23505", "22001"), states, String.valueOf(conn));
        assertEquals(List.of("500|old|1"), all(conn), "none of the statement's rows");
      }
      // in a transaction the statement is undone and the transaction goes on
      for (Connection conn : List.of(c, h2)) {
        conn.setAutoCommit(false);
        try (PreparedStatement p = conn.prepareStatement(params(3))) {
          bind(p, 3, 10, null);
          assertEquals(3, p.executeUpdate());
          bind(p, 3, 499, null); // 500 again
          assertThrows(SQLException.class, p::executeUpdate);
        }
        conn.commit();
        conn.setAutoCommit(true);
      }
      assertEquals(all(h2), all(c));
      assertEquals(4, all(c).size());
    }
  }

  @Test
  void manyRowsOfLiteralsShareTheDirectPlanAndAnswerAsH2() throws Exception {
    st.executeUpdate(TABLE);
    try (Connection h2 = DriverManager.getConnection("jdbc:h2:mem:multirow3")) {
      h2.createStatement().executeUpdate(TABLE);
      long shared = PlannerStats.of(db).sharedLiteralStatements.get();
      String[] statements = {
          insert(200, i -> "(" + i + ", 's" + i % 10 + "', " + (i - 100) + ")"),
          insert(200, i -> "(" + (1000 + i) + ", 't" + i % 10 + "', -" + i + ")"),
          // not all literals become parameters (NULL): planned with its literals
          insert(50, i -> "(" + (2000 + i) + ", " + (i % 2 == 0 ? "NULL" : "'u'") + ", " + i + ")"),
          // a value too long, a duplicate: the errors H2 gives, nothing written
          insert(40, i -> "(" + (3000 + i) + ", '" + (i == 20 ? "toolong" : "v") + "', 1)"),
          insert(40, i -> "(" + (4000 + i) + ", 'w', 1)").replace("(4020,", "(4000,"),
      };
      for (String sql : statements) {
        assertEquals(state(h2, sql), state(c, sql), sql.substring(0, 60));
      }
      assertTrue(PlannerStats.of(db).sharedLiteralStatements.get() >= shared + 2,
          "the literal rows ran on a shared plan");
      assertEquals(all(h2), all(c));
    }
  }

  @Test
  void aBatchOfAStatementOfManyRowsRunsEachExecutionAsOneStatement() throws Exception {
    st.executeUpdate(TABLE);
    try (PreparedStatement p = c.prepareStatement(params(4))) {
      bind(p, 4, 0, null);
      p.addBatch();
      bind(p, 4, 10, null);
      p.addBatch();
      assertArrayEquals(new int[] {4, 4}, p.executeBatch());
    }
    assertEquals(8, all(c).size());
  }
}
