package io.basaltdb.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basaltdb.jdbc.server.BasaltServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Input that used to reach Calcite's internals, collide keys or escape as raw errors:
 * Calcite-internal connection properties, lone UTF-16 surrogates, statements nested too deeply
 * for the planner's recursion, negative LIMIT/OFFSET parameters, a server without a bind
 * address. Each is refused with its standard SQLState and nothing is written.
 */
class HostileInputTest {
  @TempDir Path tmp;

  private static SQLException fails(String state, Executable e) {
    SQLException x = assertThrows(SQLException.class, e::run);
    assertEquals(state, x.getSQLState(), x.getMessage());
    return x;
  }

  interface Executable {
    void run() throws Exception;
  }

  @Test
  void calciteInternalConnectionPropertiesAreRefused() throws Exception {
    Path secret = tmp.resolve("model.json");
    Files.writeString(secret, "{\"version\": \"1.0\", \"schemas\": []}");
    for (String key : new String[] {"model", "schemaFactory", "schema", "typeSystem", "fun",
        "parserFactory", "SCHEMAFACTORY"}) {
      Properties p = new Properties();
      p.setProperty(key, key.equals("model") ? secret.toString() : "x");
      SQLException e = fails("08001",
          () -> DriverManager.getConnection("jdbc:basalt:mem:props", p).close());
      assertTrue(e.getMessage().contains(key), e.getMessage());
    }
    fails("08001", () -> DriverManager.getConnection("jdbc:basalt:mem:props;model="
        + secret).close());
    assertTrue(!Files.exists(tmp.resolve("anywhere")));
    Properties harmless = new Properties();
    harmless.setProperty("applicationName", "some BI tool");
    harmless.setProperty("user", "ana");
    harmless.setProperty("durability", "ASYNC");
    try (Connection c = DriverManager.getConnection("jdbc:basalt:mem:props", harmless);
        ResultSet rs = c.createStatement().executeQuery("VALUES 1")) {
      assertTrue(rs.next());
    }
  }

  @Test
  void loneSurrogatesAreRefusedNotStoredAsQuestionMarks() throws Exception {
    try (Connection c = DriverManager.getConnection("jdbc:basalt:mem:utf");
        Statement s = c.createStatement()) {
      s.execute("CREATE TABLE t (k VARCHAR PRIMARY KEY, v VARCHAR)");
      try (PreparedStatement ps = c.prepareStatement("UPSERT INTO t (k, v) VALUES (?, ?)")) {
        for (String bad : new String[] {"a\uD800", "a\uDC00", "\uDBFF"}) {
          ps.setString(1, bad);
          ps.setString(2, "x");
          SQLException e = fails("22021", ps::executeUpdate);
          assertTrue(e.getMessage().contains("surrogate"), e.getMessage());
          ps.setString(1, "k");
          ps.setString(2, bad);
          fails("22021", ps::executeUpdate);
        }
        ps.setString(1, "smile \uD83D\uDE00"); // a valid pair
        ps.setString(2, "ok \uD83D\uDE00");
        assertEquals(1, ps.executeUpdate());
      }
      try (ResultSet rs = s.executeQuery("SELECT k, v FROM t")) {
        assertTrue(rs.next());
        assertEquals("smile \uD83D\uDE00", rs.getString(1));
        assertEquals("ok \uD83D\uDE00", rs.getString(2));
        assertTrue(!rs.next(), "nothing else was written");
      }
    }
  }

  @Test
  void deepStatementsAre54001AndLongOrChainsWork() throws Exception {
    try (Connection c = DriverManager.getConnection("jdbc:basalt:mem:deep");
        Statement s = c.createStatement()) {
      StringBuilder sum = new StringBuilder("SELECT 0");
      for (int i = 1; i < 1000; i++) {
        sum.append('+').append(i);
      }
      fails("54001", () -> s.executeQuery(sum.toString()));
      String parens = "SELECT " + "(".repeat(3000) + "1" + ")".repeat(3000);
      fails("54001", () -> s.executeQuery(parens));
      s.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, v INTEGER)");
      s.execute("INSERT INTO t VALUES (1, 10), (2, 20), (700, 30), (5000, 40)");
      for (String col : new String[] {"v", "id"}) { // a filter, then key ranges
        StringBuilder or = new StringBuilder("SELECT COUNT(*) FROM t WHERE " + col + " = 0");
        for (int i = 1; i < 1000; i++) {
          or.append(" OR ").append(col).append(" = ").append(i);
        }
        try (ResultSet rs = s.executeQuery(or.toString())) { // AND/OR chains are rebalanced
          assertTrue(rs.next());
          assertEquals(col.equals("v") ? 4 : 3, rs.getInt(1), "1000-way OR on " + col);
        }
      }
      StringBuilder fine = new StringBuilder("SELECT 0");
      for (int i = 1; i < 100; i++) {
        fine.append('+').append(i);
      }
      try (ResultSet rs = s.executeQuery(fine.toString())) {
        assertTrue(rs.next());
        assertEquals(4950, rs.getInt(1), "a hundred terms are fine");
      }
      try (ResultSet rs = s.executeQuery("VALUES 1")) {
        assertTrue(rs.next(), "the connection still works");
      }
    }
  }

  @Test
  void negativeLimitAndOffsetParametersAreRefused() throws Exception {
    try (Connection c = DriverManager.getConnection("jdbc:basalt:mem:limit");
        Statement s = c.createStatement()) {
      s.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, v INTEGER)");
      s.execute("INSERT INTO t VALUES (1, 10), (2, 20), (3, 30)");
      fails("2201W", () -> s.executeQuery("SELECT id FROM t ORDER BY v LIMIT -1"));
      fails("2201X", () -> s.executeQuery("SELECT id FROM t ORDER BY v LIMIT 1 OFFSET -2"));
      fails("2201W", () -> s.executeQuery("SELECT id FROM t FETCH FIRST -3 ROWS ONLY"));
      try (PreparedStatement ps = c.prepareStatement("SELECT id FROM t ORDER BY v LIMIT ?")) {
        fails("2201W", () -> ps.setInt(1, -1));
        ps.setInt(1, 2);
        try (ResultSet rs = ps.executeQuery()) {
          assertTrue(rs.next() && rs.next() && !rs.next(), "two rows");
        }
      }
      try (PreparedStatement ps = c.prepareStatement("select id from t order by v Limit ?")) {
        fails("2201W", () -> ps.setInt(1, -1)); // the words in any case
      }
      try (PreparedStatement ps = c.prepareStatement(
          "SELECT id FROM t ORDER BY v LIMIT ? OFFSET ?")) {
        ps.setInt(1, 1);
        fails("2201X", () -> ps.setLong(2, -5L));
      }
      try (PreparedStatement ps = c.prepareStatement(
          "SELECT id FROM t ORDER BY v OFFSET ? ROWS FETCH NEXT ? ROWS ONLY")) {
        fails("2201X", () -> ps.setInt(1, -1));
        fails("2201W", () -> ps.setInt(2, -1));
      }
    }
  }

  @Test
  void aServerWithoutABindAddressNeedsUsers() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> BasaltServer.start(new BasaltServer.Options(tmp.resolve("db"), 0, null, null,
            false)));
    assertTrue(e.getMessage().contains("every interface"), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> BasaltServer.start(
        new BasaltServer.Options(tmp.resolve("db"), 0, "0.0.0.0", null, false)));
  }
}
