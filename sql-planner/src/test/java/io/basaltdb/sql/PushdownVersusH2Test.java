package io.basaltdb.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.basaltdb.engine.Database;
import io.basaltdb.engine.EngineOptions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Random key predicates (equalities, IN lists, ranges, on a composite key with a descending
 * column, over a pre-split table) return the same rows on Basalt as on H2 with the same data.
 * Seeded and replayable ({@code -Dbasalt.seed=N}).
 */
class PushdownVersusH2Test {
  private static long seed() {
    String s = System.getProperty("basalt.seed");
    long seed = s != null && !s.isEmpty() ? Long.parseLong(s) : System.nanoTime();
    System.out.println("PushdownVersusH2Test: seed=" + seed + " (replay with -Dbasalt.seed=" + seed + ")");
    return seed;
  }

  private static List<String> rows(Connection c, String sql) throws Exception {
    return io.basaltdb.sql.SqlTestSupport.rows(c, sql);
  }


  @Test
  void randomKeyPredicatesAgreeWithH2() throws Exception {
    long seed = seed();
    Random r = new Random(seed);
    try (Database db = Database.openTemporary(EngineOptions.defaults());
        Connection h2 = DriverManager.getConnection("jdbc:h2:mem:pushdown" + seed)) {
      try (Connection b = BasaltConnections.open(db)) {
        try (Statement st = b.createStatement()) {
          st.executeUpdate("CREATE TABLE ev (g VARCHAR NOT NULL, k INTEGER NOT NULL, "
              + "v BIGINT, CONSTRAINT pk PRIMARY KEY (g, k DESC)) SPLIT ON ('c', 'f')");
        }
        try (Statement st = h2.createStatement()) {
          st.executeUpdate("CREATE TABLE ev (g VARCHAR NOT NULL, k INTEGER NOT NULL, v BIGINT, "
              + "PRIMARY KEY (g, k))");
        }
        StringBuilder values = new StringBuilder();
        for (int i = 0; i < 300; i++) {
          String g = (char) ('a' + r.nextInt(8)) + (r.nextBoolean() ? "" : String.valueOf(
              (char) ('a' + r.nextInt(3))));
          int k = r.nextInt(60) - 20;
          values.setLength(0);
          values.append("('").append(g).append("', ").append(k).append(", ")
              .append(r.nextInt(5) == 0 ? "NULL" : String.valueOf(r.nextInt(1000))).append(")");
          String insert = "INSERT INTO ev VALUES " + values;
          try (Statement st = h2.createStatement()) {
            st.executeUpdate(insert);
          } catch (java.sql.SQLException dup) {
            continue; // the key exists: Basalt must refuse it too, skip both
          }
          try (Statement st = b.createStatement()) {
            st.executeUpdate(insert);
          }
        }
        for (int q = 0; q < 150; q++) {
          String where = predicate(r);
          String sql = "SELECT g, k, v FROM ev WHERE " + where + " ORDER BY g, k";
          assertEquals(rows(h2, sql), rows(b, sql), sql + " (seed " + seed + ")");
        }
      }
    }
  }

  private static String predicate(Random r) {
    String g = "'" + (char) ('a' + r.nextInt(9)) + "'";
    int k1 = r.nextInt(70) - 25;
    int k2 = k1 + r.nextInt(30);
    String[] ops = {"<", "<=", ">", ">=", "="};
    String op = ops[r.nextInt(ops.length)];
    return switch (r.nextInt(9)) {
      case 7 -> "g LIKE '" + (char) ('a' + r.nextInt(9)) + "%'";
      case 8 -> "g LIKE '" + (char) ('a' + r.nextInt(9)) + "%' AND k > " + k1;
      case 0 -> "g = " + g;
      case 1 -> "g = " + g + " AND k " + op + " " + k1;
      case 2 -> "g = " + g + " AND k BETWEEN " + k1 + " AND " + k2;
      case 3 -> "g IN ('a', " + g + ", 'e') AND k " + op + " " + k1;
      case 4 -> "g " + op + " " + g;
      case 5 -> "(g = " + g + " OR g = 'b') AND k = " + k1;
      default -> "k " + op + " " + k1 + " AND v > 500";
    };
  }
}
