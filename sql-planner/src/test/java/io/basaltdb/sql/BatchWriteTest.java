package io.basaltdb.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basaltdb.sql.jdbc.BasaltConnections;
import io.basaltdb.sql.jdbc.BasaltPreparedStatement;
import io.basaltdb.sql.jdbc.SqlErrors;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A JDBC batch of a prepared INSERT/UPSERT ... VALUES, written at once
 * ({@code BasaltMeta.executeBatch}), leaves the same table and reports the same outcome as the
 * same rows executed one statement at a time through Calcite: valid rows of every type, NULLs, UPSERTs naming some columns, a key
 * written twice, and bad rows in the middle of a batch (duplicate key, NULL key, NULL in a NOT
 * NULL column, a wrong type). Values their parameter's type cannot hold are refused when bound.
 */
class BatchWriteTest extends SqlTestBase {
  private static final String COLUMNS = "(k BIGINT NOT NULL, s VARCHAR(8) NOT NULL, f.i INTEGER, "
      + "f.v VARCHAR(10), f.c CHAR(5), f.d DECIMAL(15, 2), f.dt DATE, f.ts TIMESTAMP, g.x DOUBLE, "
      + "g.b BOOLEAN, g.bin VARBINARY, f.nn INTEGER NOT NULL, CONSTRAINT pk PRIMARY KEY (k, s))";
  private static final String INSERT = "INSERT INTO %s VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";

  int tables;

  /** Runs the rows as one batch into one table and row by row into another: same outcome. */
  private void assertSameAsRowByRow(String sqlTemplate, List<Object[]> rows, List<Object[]> before)
      throws SQLException {
    String batched = newTable(before);
    String single = newTable(before);
    String batchOutcome;
    try (PreparedStatement p = c.prepareStatement(String.format(sqlTemplate, batched))) {
      assertTrue(p.unwrap(BasaltPreparedStatement.class).writesWholeBatches(),
          "batch path not taken: " + sqlTemplate);
      for (Object[] r : rows) {
        bind(p, r);
        p.addBatch();
      }
      batchOutcome = outcome(p::executeBatch);
      // the batch is cleared even after an error
      assertEquals("ok " + Arrays.toString(new int[0]), outcome(p::executeBatch));
    }
    String singleOutcome;
    try (PreparedStatement p = c.prepareStatement(String.format(sqlTemplate, single))) {
      List<Integer> counts = new ArrayList<>();
      singleOutcome = outcome(() -> {
        for (Object[] r : rows) {
          bind(p, r);
          try {
            counts.add(p.executeUpdate());
          } catch (SQLException e) { // as a batch reports it: the counts of the rows before
            throw new java.sql.BatchUpdateException(e.getMessage(), e.getSQLState(), 0,
                counts.stream().mapToInt(Integer::intValue).toArray(), e);
          }
        }
        return counts.stream().mapToInt(Integer::intValue).toArray();
      });
    }
    assertEquals(singleOutcome, batchOutcome);
    assertEquals(contents(single), contents(batched));
  }

  private interface Counts {
    int[] run() throws SQLException;
  }

  private static String outcome(Counts action) {
    try {
      return "ok " + Arrays.toString(action.run());
    } catch (java.sql.BatchUpdateException e) { // with the counts of the rows kept
      return "error " + SqlErrors.sqlState(e) + " after " + Arrays.toString(e.getUpdateCounts());
    } catch (SQLException e) {
      return "error " + SqlErrors.sqlState(e); // the state the JDBC driver reports
    }
  }

  private String newTable(List<Object[]> rows) throws SQLException {
    String name = "t" + tables++;
    try (Statement st = c.createStatement()) {
      st.execute("CREATE TABLE " + name + " " + COLUMNS);
    }
    try (PreparedStatement p = c.prepareStatement(String.format(INSERT, name))) {
      for (Object[] r : rows) {
        bind(p, r);
        p.executeUpdate();
      }
    }
    return name;
  }

  private List<String> contents(String table) throws SQLException {
    return SqlTestSupport.rows(c, "SELECT * FROM " + table + " ORDER BY k, s");
  }

  private static void bind(PreparedStatement p, Object[] row) throws SQLException {
    for (int i = 0; i < row.length; i++) {
      p.setObject(i + 1, row[i]);
    }
  }

  private static Object[] randomRow(Random r, long k) {
    return new Object[] {
        k, "s" + r.nextInt(100), r.nextBoolean() ? null : r.nextInt(),
        r.nextBoolean() ? null : "v".repeat(r.nextInt(11)),
        r.nextBoolean() ? null : "c".repeat(1 + r.nextInt(5)),
        r.nextBoolean() ? null : BigDecimal.valueOf(r.nextLong() % 10_000_000_000L, 2),
        r.nextBoolean() ? null : java.sql.Date.valueOf(java.time.LocalDate.ofEpochDay(
            r.nextInt(30_000))),
        r.nextBoolean() ? null : new java.sql.Timestamp(r.nextLong() % 4_000_000_000_000L),
        r.nextBoolean() ? null : r.nextGaussian(),
        r.nextBoolean() ? null : r.nextBoolean(),
        r.nextBoolean() ? null : new byte[] {(byte) r.nextInt(), 0, (byte) 0xff},
        r.nextInt(1000)};
  }

  private static List<Object[]> randomRows(Random r, int n) {
    List<Object[]> rows = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      rows.add(randomRow(r, i * 7L - 300));
    }
    return rows;
  }

  private static Random seeded() {
    long seed = Long.getLong("seed", System.nanoTime());
    System.out.println("BatchWriteTest seed " + seed + " (replay with -Dseed=" + seed + ")");
    return new Random(seed);
  }

  @Test
  void validRowsOfEveryType() throws SQLException {
    Random r = seeded();
    assertSameAsRowByRow(INSERT, randomRows(r, 700), List.of());
    assertSameAsRowByRow("UPSERT INTO %s VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        randomRows(r, 300), randomRows(r, 200));
  }

  @Test
  void upsertNamingSomeColumnsLeavesTheOthersAndDeletesNulls() throws SQLException {
    Random r = seeded();
    List<Object[]> rows = new ArrayList<>();
    for (int i = 0; i < 300; i++) {
      Object[] full = randomRow(r, i * 7L - 300);
      rows.add(new Object[] {full[0], full[1], full[2], full[3], full[11]});
    }
    // the same key twice in one batch: the later row wins, also when it deletes
    rows.add(new Object[] {5L, "s1", 10, "first", 1});
    rows.add(new Object[] {5L, "s1", null, null, 2});
    assertSameAsRowByRow("UPSERT INTO %s (k, s, i, v, nn) VALUES (?, ?, ?, ?, ?)", rows,
        randomRows(r, 300));
  }

  @Test
  void aBadRowStopsTheBatchWhereItIs() throws SQLException {
    Random r = seeded();
    for (int kind = 0; kind < 4; kind++) {
      List<Object[]> rows = randomRows(r, 50);
      Object[] bad = randomRow(r, 1);
      switch (kind) {
        case 0 -> bad = rows.get(20).clone(); // a duplicate key
        case 1 -> bad[1] = null; // a NULL key column
        case 2 -> bad[11] = null; // NULL in a NOT NULL column
        default -> bad[2] = "not a number";
      }
      rows.add(30, bad);
      assertSameAsRowByRow(INSERT, rows, List.of());
    }
  }

  @Test
  void valuesTheirTypeCannotHoldAreRefusedWhenBound() throws SQLException {
    String t = newTable(List.of());
    try (PreparedStatement p = c.prepareStatement(String.format(INSERT, t))) {
      Object[][] refused = {
          {4, "v".repeat(11), "22001"}, // VARCHAR(10)
          {5, "cccccc", "22001"}, // CHAR(5)
          {2, "s".repeat(9), "22001"}, // a key column, VARCHAR(8)
          {3, 5_000_000_000L, "22003"}, // INTEGER
          {12, -2_147_483_649L, "22003"},
          {3, 1e10, "22003"},
          {6, new BigDecimal("10000000000000.00"), "22003"}, // DECIMAL(15, 2)
          {6, new BigDecimal("9999999999999.995"), "22003"}, // a third digit past the point
          {6, new BigDecimal("0.001"), "22003"}, // would be rounded to 0.00
      };
      for (Object[] r : refused) {
        SQLException e = org.junit.jupiter.api.Assertions.assertThrows(SQLException.class,
            () -> p.setObject((Integer) r[0], r[1]), () -> "accepted " + r[1]);
        assertEquals(r[2], e.getSQLState(), e.getMessage());
      }
      // the longest and largest values that fit are taken; a DECIMAL's zeros past its scale go
      Object[] row = randomRow(new Random(1), 7);
      row[1] = "s".repeat(8);
      row[2] = Integer.MIN_VALUE;
      row[3] = "v".repeat(10);
      row[5] = new BigDecimal("9999999999999.990");
      bind(p, row);
      assertEquals(1, p.executeUpdate());
    }
    assertEquals(List.of("ssssssss|-2147483648|vvvvvvvvvv|9999999999999.99"),
        SqlTestSupport.rows(c, "SELECT s, i, v, d FROM " + t));
  }

  @Test
  void batchesWithAutoCommitOffWaitForTheCommit() throws SQLException {
    String t = newTable(List.of());
    c.setAutoCommit(false);
    try (PreparedStatement p = c.prepareStatement(String.format(INSERT, t))) {
      for (Object[] row : randomRows(seeded(), 10)) {
        bind(p, row);
        p.addBatch();
      }
      p.executeBatch();
      c.rollback();
      assertEquals(List.of(), contents(t));
      for (Object[] row : randomRows(seeded(), 10)) {
        bind(p, row);
        p.addBatch();
      }
      p.executeBatch();
      c.commit();
      assertEquals(10, contents(t).size());
    } finally {
      c.setAutoCommit(true);
    }
  }

  /**
   * A transaction mixing batched and single UPSERTs (applied at commit as lists of puts) with
   * INSERTs and DELETEs ends as the same statements in auto-commit. Only writes whose effect
   * does not depend on the order of others' writes: DELETEs of rows committed before, each
   * once; INSERTs of new keys.
   */
  @Test
  void committedUpsertsKeepTheirPlaceAmongOtherWrites() throws SQLException {
    Random r = seeded();
    String inTx = newTable(List.of());
    String autoCommit = newTable(List.of());
    List<Object[]> statements = new ArrayList<>(); // {kind, k, i}
    List<Long> deletable = new ArrayList<>();
    for (long k = 0; k < 40; k++) {
      deletable.add(k);
    }
    java.util.Collections.shuffle(deletable, r);
    for (int n = 0; n < 600; n++) {
      int kind = r.nextInt(5);
      if (kind == 3 && deletable.isEmpty()) {
        kind = 0; // every row committed before is deleted once: a batch instead
      }
      long k = kind == 3 ? deletable.remove(0) : r.nextInt(60);
      statements.add(new Object[] {kind, k, r.nextInt(1000)});
    }
    for (String t : List.of(inTx, autoCommit)) {
      for (long k = 0; k < 40; k++) {
        update("UPSERT INTO " + t + " (k, s, f.i, f.nn) VALUES (" + k + ", 'a', -1, -1)");
      }
    }
    c.setAutoCommit(false);
    try {
      apply(inTx, statements);
      try (Connection other = BasaltConnections.open(db)) {
        assertEquals(contents(autoCommit), SqlTestSupport.rows(other, "SELECT * FROM " + inTx
            + " ORDER BY k, s"), "nothing visible to others before the commit");
      }
      c.commit();
    } finally {
      c.setAutoCommit(true);
    }
    apply(autoCommit, statements);
    assertEquals(contents(autoCommit), contents(inTx));
  }

  private void apply(String t, List<Object[]> statements) throws SQLException {
    try (PreparedStatement up = c.prepareStatement("UPSERT INTO " + t
            + " (k, s, f.i, f.nn) VALUES (?, 'a', ?, ?)");
        PreparedStatement ins = c.prepareStatement("INSERT INTO " + t
            + " (k, s, f.i, f.nn) VALUES (?, 'a', ?, 0)");
        PreparedStatement del = c.prepareStatement("DELETE FROM " + t + " WHERE k = ?")) {
      int inserts = 0;
      for (Object[] st : statements) {
        long k = (Long) st[1];
        int i = (Integer) st[2];
        switch ((Integer) st[0]) {
          case 0, 1 -> { // a batch of three rows, the last of the same key
            for (int j = 0; j < 3; j++) {
              up.setLong(1, j < 2 ? k + j : k);
              up.setInt(2, i + j);
              up.setInt(3, j);
              up.addBatch();
            }
            up.executeBatch();
          }
          case 2 -> {
            ins.setLong(1, 1000 + inserts++); // a new key: a duplicate would end the commit
            ins.setInt(2, i);
            ins.executeUpdate();
          }
          case 3 -> {
            del.setLong(1, k);
            del.executeUpdate();
          }
          default -> { // one row, its i deleted (NULL)
            up.setLong(1, k);
            up.setNull(2, java.sql.Types.INTEGER);
            up.setInt(3, i);
            up.executeUpdate();
          }
        }
      }
    }
  }

  @Test
  void statementsComputingValuesRunRowByRow() throws SQLException {
    String t = newTable(List.of());
    try (PreparedStatement p = c.prepareStatement("INSERT INTO " + t
        + " (k, s, v, nn) VALUES (?, ?, 'x' || CAST(? AS VARCHAR(5)), CAST(? AS INTEGER) + 1)")) {
      assertFalse(p.unwrap(BasaltPreparedStatement.class).writesWholeBatches());
      for (int i = 0; i < 3; i++) {
        p.setLong(1, i);
        p.setString(2, "s");
        p.setString(3, "y" + i);
        p.setInt(4, i);
        p.addBatch();
      }
      assertEquals(3, p.executeBatch().length);
    }
    assertEquals(List.of("xy0|1", "xy1|2", "xy2|3"),
        SqlTestSupport.rows(c, "SELECT v, nn FROM " + t + " ORDER BY k"));
  }
}
