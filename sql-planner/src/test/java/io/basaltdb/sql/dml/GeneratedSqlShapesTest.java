package io.basaltdb.sql.dml;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.basaltdb.sql.SqlTestBase;
import io.basaltdb.sql.SqlTestSupport;
import io.basaltdb.sql.jdbc.SqlErrors;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * SQL as query layers generate it, and as H2 and PostgreSQL take it: Hibernate's {@code LIKE ?
 * ESCAPE ''}, jOOQ's {@code LIMIT ? OFFSET ?} bound with {@code setLong} above a sort or an
 * aggregate, an empty IN list, a unary plus on text. Each statement, literal and prepared,
 * answers as H2 does.
 */
class GeneratedSqlShapesTest extends SqlTestBase {
  private static final String[] SETUP = {
      "CREATE TABLE t (id INT PRIMARY KEY, name VARCHAR(20), x INT, y INT)",
      "INSERT INTO t VALUES (1, 'a_b', 1, 2), (2, 'abc', 2, NULL), (3, 'x%y', 3, 3),"
          + " (4, 'IN ()', NULL, 4)"};

  /** Statement, then its parameters. */
  private static final Object[][] STATEMENTS = {
      {"SELECT id FROM t WHERE name LIKE 'a_b' ESCAPE '' ORDER BY id"},
      {"SELECT id FROM t WHERE name NOT LIKE 'a_b' ESCAPE '' ORDER BY id"},
      {"SELECT id FROM t WHERE name LIKE ? ESCAPE '' ORDER BY id", "a%"},
      {"SELECT id FROM t WHERE name LIKE 'x!%%' ESCAPE '!' ORDER BY id"},
      {"SELECT id FROM t WHERE name LIKE ? ESCAPE ? ORDER BY id", "a%", ""},
      {"SELECT id FROM t WHERE name LIKE ? ESCAPE ? ORDER BY id", "x!%%", "!"},
      {"SELECT id FROM t WHERE name NOT LIKE ? ESCAPE ? ORDER BY id", "a_b", ""},
      {"SELECT id FROM t WHERE id IN () ORDER BY id"},
      {"SELECT id FROM t WHERE id NOT IN ( ) ORDER BY id"},
      {"SELECT id FROM t WHERE x IN () OR name = 'IN ()' ORDER BY id"},
      {"SELECT id FROM t WHERE x NOT IN () AND x IS NULL ORDER BY id"},
      {"SELECT COUNT(*) FROM t WHERE id in() /* IN () */"},
      {"SELECT + name FROM t ORDER BY id"},
      {"SELECT + x + 1 FROM t ORDER BY id"},
      {"SELECT id FROM t WHERE NOT (x) IN (y + CAST(NULL AS INTEGER)) ORDER BY id"},
      {"SELECT id FROM t ORDER BY id LIMIT ? OFFSET ?", 2L, 1L},
      {"SELECT name, COUNT(*) FROM t GROUP BY name ORDER BY name LIMIT ? OFFSET ?", 2L, 1L},
      {"SELECT id FROM t ORDER BY name DESC LIMIT ?", 2L},
      {"SELECT id FROM t ORDER BY name DESC LIMIT ?", 3},
      {"SELECT id FROM t ORDER BY id OFFSET ? ROWS FETCH FIRST ? ROWS ONLY", 1L, 2L},
  };

  @Test
  void answersAsH2() throws Exception {
    for (String s : SETUP) {
      update(s);
    }
    try (Connection h2 = DriverManager.getConnection("jdbc:h2:mem:generatedshapes")) {
      try (Statement st = h2.createStatement()) {
        for (String s : SETUP) {
          st.execute(s);
        }
      }
      for (Object[] s : STATEMENTS) {
        assertEquals(answer(h2, s), answer(c, s), (String) s[0]);
      }
    }
  }

  private static List<String> answer(Connection connection, Object[] statement)
      throws SQLException {
    if (statement.length == 1) {
      return SqlTestSupport.rows(connection, (String) statement[0]);
    }
    List<String> out = new ArrayList<>();
    try (PreparedStatement p = connection.prepareStatement((String) statement[0])) {
      for (int i = 1; i < statement.length; i++) {
        if (statement[i] instanceof Long l) {
          p.setLong(i, l);
        } else {
          p.setObject(i, statement[i]);
        }
      }
      try (ResultSet r = p.executeQuery()) {
        while (r.next()) {
          out.add(r.getString(1));
        }
      }
    }
    return out;
  }

  @Test
  void badEscapesAreRefusedWithTheirStates() throws Exception {
    update(SETUP[0]);
    update(SETUP[1]);
    try (PreparedStatement p = c.prepareStatement("SELECT id FROM t WHERE name LIKE ? ESCAPE ?")) {
      p.setString(1, "a%");
      p.setString(2, "ab");
      SQLException twoChars = assertThrows(SQLException.class, () -> p.executeQuery().next());
      assertEquals("22019", SqlErrors.sqlState(twoChars), twoChars.getMessage());
    }
    SQLException sequence = assertThrows(SQLException.class,
        () -> rows("SELECT id FROM t WHERE name LIKE 'a!b' ESCAPE '!'"));
    assertEquals("22025", SqlErrors.sqlState(sequence), sequence.getMessage());
  }
}
