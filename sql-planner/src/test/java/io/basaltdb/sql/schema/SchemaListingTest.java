package io.basaltdb.sql.schema;

import static io.basaltdb.sql.SqlTestSupport.rows;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.basaltdb.engine.Database;
import io.basaltdb.engine.EngineOptions;
import io.basaltdb.sql.jdbc.BasaltConnections;
import io.basaltdb.sql.jdbc.SqlErrors;
import io.basaltdb.storage.TableDescriptor;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A schema keeps its namespace's catalog listing between statements ({@code
 * BasaltSchema.listing}): a connection that has already planned against it sees at its next
 * statement every change another connection's DDL made meanwhile (tables, views, sequences,
 * indexes created and dropped, a column added) and an engine table created outside SQL.
 */
class SchemaListingTest {
  private static void run(Connection c, String sql) throws SQLException {
    try (Statement s = c.createStatement()) {
      s.execute(sql);
    }
  }

  private static String state(SQLException e) {
    return SqlErrors.sqlState(e);
  }

  @Test
  void anotherConnectionsDdlIsSeenAtTheNextStatement() throws Exception {
    try (Database db = Database.openTemporary(EngineOptions.defaults());
        Connection ddl = BasaltConnections.open(db);
        Connection reader = BasaltConnections.open(db)) {
      run(ddl, "CREATE TABLE a (id INTEGER PRIMARY KEY, v INTEGER)");
      run(ddl, "INSERT INTO a VALUES (1, 10)");
      assertEquals(List.of("1|10"), rows(reader, "SELECT * FROM a")); // the listing is read

      run(ddl, "CREATE TABLE b (id INTEGER PRIMARY KEY)");
      run(ddl, "INSERT INTO b VALUES (7)");
      assertEquals(List.of("7"), rows(reader, "SELECT id FROM b"));

      run(ddl, "ALTER TABLE a ADD w VARCHAR(5)");
      assertEquals(List.of("1|10|null"), rows(reader, "SELECT * FROM a"));

      run(ddl, "CREATE VIEW big AS SELECT id FROM a WHERE v > 5");
      assertEquals(List.of("1"), rows(reader, "SELECT * FROM big"));

      run(ddl, "CREATE SEQUENCE s START WITH 5");
      assertEquals(List.of("5"), rows(reader, "SELECT NEXT VALUE FOR s"));

      run(ddl, "CREATE INDEX a_v ON a (v)");
      assertEquals(List.of("1"), rows(reader, "SELECT id FROM a WHERE v = 10"));
      run(ddl, "DROP INDEX a_v ON a");
      assertEquals(List.of("1"), rows(reader, "SELECT id FROM a WHERE v = 10"));

      run(ddl, "DROP VIEW big");
      assertEquals("42000", state(assertThrows(SQLException.class,
          () -> rows(reader, "SELECT * FROM big"))));
      run(ddl, "DROP TABLE b");
      assertEquals("42000", state(assertThrows(SQLException.class,
          () -> rows(reader, "SELECT id FROM b"))));

      db.admin().createTable(TableDescriptor.of("RAW", "f")); // outside SQL: no DDL
      assertEquals(List.of(), rows(reader, "SELECT * FROM raw"));
    }
  }
}
