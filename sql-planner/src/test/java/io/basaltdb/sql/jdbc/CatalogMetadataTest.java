package io.basaltdb.sql.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.basaltdb.sql.TemporaryDatabaseTest;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * JDBC catalog metadata follows DDL at once, on the connection that ran it and on every other
 * one; dropping what does not exist, or creating what does, is a 42-class error.
 */
class CatalogMetadataTest extends TemporaryDatabaseTest {
  private static List<String> tables(Connection conn) throws SQLException {
    List<String> out = new ArrayList<>();
    try (ResultSet rs = conn.getMetaData().getTables(null, null, "%", new String[] {"TABLE"})) {
      while (rs.next()) {
        if (!rs.getString("TABLE_NAME").endsWith("$HISTORY")) { // each table's history view
          out.add(rs.getString("TABLE_SCHEM") + "." + rs.getString("TABLE_NAME"));
        }
      }
    }
    return out;
  }

  private static List<String> columns(Connection conn, String table) throws SQLException {
    List<String> out = new ArrayList<>();
    try (ResultSet rs = conn.getMetaData().getColumns(null, null, table, "%")) {
      while (rs.next()) {
        out.add(rs.getString("COLUMN_NAME"));
      }
    }
    return out;
  }

  @Test
  void metadataFollowsDdlOnEveryConnection() throws SQLException {
    try (Connection other = BasaltConnections.open(db)) {
      assertEquals(List.of(), tables(c));
      st.executeUpdate("CREATE TABLE x (id INTEGER NOT NULL PRIMARY KEY)");
      assertEquals(List.of("DEFAULT.X"), tables(c));
      assertEquals(List.of("DEFAULT.X"), tables(other));
      st.executeUpdate("DROP TABLE x");
      assertEquals(List.of(), tables(c), "a dropped table is not listed");
      assertEquals(List.of(), tables(other));
      other.createStatement().executeUpdate("CREATE TABLE y (id INTEGER NOT NULL PRIMARY KEY)");
      assertEquals(List.of("DEFAULT.Y"), tables(c), "another connection's table is listed");
      st.executeUpdate("ALTER TABLE y ADD name VARCHAR(10)");
      assertEquals(List.of("ID", "NAME"), columns(other, "Y"));
      st.executeUpdate("CREATE SCHEMA s2");
      st.executeUpdate("CREATE TABLE s2.z (id INTEGER NOT NULL PRIMARY KEY)");
      assertEquals(List.of("DEFAULT.Y", "S2.Z"), tables(other));
    }
  }

  @Test
  void droppingWhatDoesNotExistIsNotFound() throws SQLException {
    assertEquals("42P01", assertThrows(SQLException.class,
        () -> st.executeUpdate("DROP TABLE missing")).getSQLState());
    assertEquals("42P01", assertThrows(SQLException.class,
        () -> st.executeUpdate("DROP SCHEMA missing")).getSQLState());
    st.executeUpdate("DROP TABLE IF EXISTS missing");
    st.executeUpdate("DROP SCHEMA IF EXISTS missing");
  }

  @Test
  void creatingWhatExistsIsADuplicate() throws SQLException {
    st.executeUpdate("CREATE TABLE x (id INTEGER NOT NULL PRIMARY KEY)");
    st.executeUpdate("CREATE SCHEMA s2");
    st.executeUpdate("CREATE SEQUENCE q");
    for (String sql : List.of("CREATE TABLE x (id INTEGER NOT NULL PRIMARY KEY)",
        "CREATE SCHEMA s2", "CREATE SEQUENCE q", "CREATE VIEW x AS SELECT 1 AS c1")) {
      assertEquals("42P07", assertThrows(SQLException.class, () -> st.executeUpdate(sql), sql)
          .getSQLState(), sql);
    }
    st.executeUpdate("CREATE TABLE IF NOT EXISTS x (id INTEGER NOT NULL PRIMARY KEY)");
    st.executeUpdate("CREATE SCHEMA IF NOT EXISTS s2");
    assertEquals(List.of("DEFAULT.X"), tables(c));
  }
}
