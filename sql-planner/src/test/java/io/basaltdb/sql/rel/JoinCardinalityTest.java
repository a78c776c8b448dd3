package io.basaltdb.sql.rel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basaltdb.sql.SqlTestBase;
import io.basaltdb.sql.SqlTestSupport;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The row count the planner estimates for a join ({@link JoinCardinality}): an equality on a
 * table's primary key joins each row of the other side with at most one row, an equality on
 * other columns divides by their sampled distinct values; and a four-table join of Q5's shape
 * never meets customer and supplier on the nation before the orders.
 */
class JoinCardinalityTest extends SqlTestBase {

  @BeforeEach
  void createTables() throws Exception {
    try (Statement st = c.createStatement()) {
      st.execute("CREATE TABLE cust (ck INTEGER NOT NULL PRIMARY KEY, nation INTEGER)");
      st.execute("CREATE TABLE supp (sk INTEGER NOT NULL PRIMARY KEY, nation INTEGER)");
      st.execute("CREATE TABLE ord (ok INTEGER NOT NULL PRIMARY KEY, ck INTEGER, sk INTEGER)");
      st.execute("CREATE TABLE nat (nk INTEGER NOT NULL PRIMARY KEY, region INTEGER)");
    }
    load("nat", 25, 2);
    load("cust", 2000, 2);
    load("supp", 300, 2);
    load("ord", 6000, 3);
  }

  private void load(String table, int rows, int columns) throws Exception {
    String marks = columns == 2 ? "?, ?" : "?, ?, ?";
    try (PreparedStatement p = c.prepareStatement("UPSERT INTO " + table + " VALUES (" + marks
        + ")")) {
      for (int i = 0; i < rows; i++) {
        p.setInt(1, i);
        p.setInt(2, i % 25);
        if (columns == 3) {
          p.setInt(3, i % 300);
        }
        p.addBatch();
      }
      p.executeBatch();
    }
  }

  /** The estimated rows of the plan's top join. */
  private double joinRows(String sql) throws Exception {
    String plan = String.join("\n", SqlTestSupport.rows(c,
        "EXPLAIN PLAN INCLUDING ALL ATTRIBUTES FOR " + sql));
    Matcher m = Pattern.compile("Join\\(.*?rowcount = ([0-9.E]+)").matcher(plan);
    assertTrue(m.find(), plan);
    return Double.parseDouble(m.group(1));
  }

  @Test
  void aJoinOnAPrimaryKeyYieldsAtMostTheOtherSidesRows() throws Exception {
    assertEquals(6000, joinRows("SELECT * FROM ord o JOIN cust c ON o.ck = c.ck"), 600);
    assertEquals(6000, joinRows("SELECT * FROM cust c JOIN ord o ON o.ck = c.ck"), 600);
    // a foreign key whose sample of mostly distinct values scales past the key's table (900
    // values estimated for ord.sk, supp has 300 rows): still one supp row per ord row
    assertEquals(6000, joinRows("SELECT * FROM ord o JOIN supp s ON o.sk = s.sk"), 600);
    // many to many on a column of 25 values, found in a sample (Calcite guessed 0.15: 90,000)
    assertEquals(2000 * 300 / 25.0,
        joinRows("SELECT * FROM cust c JOIN supp s ON c.nation = s.nation"), 2000 * 300 / 250.0);
  }

  private static int indent(String line) {
    int n = 0;
    while (n < line.length() && line.charAt(n) == ' ') {
      n++;
    }
    return n;
  }

  @Test
  void joinsAreOrderedOnTheKeyEstimates() throws Exception {
    // Q5's shape (three joins: ordered heuristically): customer and supplier also meet on the
    // nation; joining them first makes 2000 x 300 x 0.15 = 90,000 rows, through orders 6,000
    String plan = String.join("\n", SqlTestSupport.rows(c, "EXPLAIN PLAN FOR SELECT COUNT(*) "
        + "FROM cust c, ord o, supp s, nat n WHERE o.ck = c.ck AND o.sk = s.sk "
        + "AND c.nation = s.nation AND s.nation = n.nk AND n.region = 1"));
    List<String> lines = List.of(plan.split("\n"));
    for (int at = 0; at < lines.size(); at++) {
      if (!lines.get(at).contains("Join(")) {
        continue;
      }
      StringBuilder subtree = new StringBuilder(); // the join's inputs, down to the scans
      for (int i = at + 1; i < lines.size() && indent(lines.get(i)) > indent(lines.get(at));
          i++) {
        subtree.append(lines.get(i)).append('\n');
      }
      String t = subtree.toString();
      assertTrue(!(t.contains("CUST") && t.contains("SUPP")) || t.contains("ORD"),
          "customer and supplier meet only through orders:\n" + plan);
    }
  }
}
