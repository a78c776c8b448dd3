package io.basaltdb.jdbc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basaltdb.sql.ConnectionProperty;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.DriverPropertyInfo;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The one list of connection properties, as the driver, the DataSource and the docs show it. */
class ConnectionPropertiesTest {
  @TempDir Path dir;

  @Test
  void getPropertyInfoListsEveryPropertyWithTheValueTheUrlGivesIt() throws SQLException {
    Properties info = new Properties();
    info.setProperty("writeTimestamp", "1000");
    DriverPropertyInfo[] all = new BasaltDriver().getPropertyInfo(
        "jdbc:basalt:mem:props;durability=ASYNC", info);
    assertEquals(ConnectionProperty.values().length, all.length);
    for (int i = 0; i < all.length; i++) {
      ConnectionProperty p = ConnectionProperty.values()[i];
      assertEquals(p.camelName(), all[i].name);
      assertEquals(p.description(), all[i].description);
      assertArrayEquals(p.choices().isEmpty() ? null : p.choices().toArray(), all[i].choices);
    }
    assertEquals("ASYNC", all[0].value, "from the URL");
    assertNull(all[1].value, "readTimestamp: no default");
    assertEquals("1000", all[2].value, "from info");
    assertEquals("false", all[3].value, "readOnly's default");
  }

  @Test
  void aBadValueFailsTheConnectionNamingTheProperty() {
    for (String bad : List.of("durability=SOMETIMES", "readOnly=yes", "readTimestamp=-5",
        "writeTimestamp=noon")) {
      SQLException e = assertThrows(SQLException.class,
          () -> DriverManager.getConnection("jdbc:basalt:mem:bad;" + bad).close(), bad);
      assertEquals("22023", e.getSQLState(), bad);
      String name = bad.substring(0, bad.indexOf('='));
      assertTrue(e.getMessage().contains(name) && e.getMessage().contains(
          bad.substring(bad.indexOf('=') + 1)), e.getMessage());
    }
  }

  @Test
  void theDataSourceHasASetterPerPropertyAndChecksValues() throws SQLException {
    BasaltDataSource ds = new BasaltDataSource();
    ds.setUrl("jdbc:basalt:" + dir.resolve("db"));
    try (Connection c = ds.getConnection(); Statement st = c.createStatement()) {
      st.executeUpdate("CREATE TABLE t (id INTEGER NOT NULL PRIMARY KEY)");
    }
    ds.setDurability("async");
    assertEquals("ASYNC", ds.getDurability());
    ds.setReadOnly(true);
    assertTrue(ds.isReadOnly());
    try (Connection c = ds.getConnection(); Statement st = c.createStatement()) {
      assertEquals("25006", assertThrows(SQLException.class,
          () -> st.executeUpdate("INSERT INTO t VALUES (1)")).getSQLState());
    }
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> ds.setDurability("fast"));
    assertTrue(e.getMessage().contains("durability") && e.getMessage().contains("fast"),
        e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> ds.setReadTimestamp(-1));
    assertThrows(IllegalArgumentException.class, () -> ds.setProperty("readOnly", "maybe"));
  }

  @Test
  void theDocumentedTableIsTheEnum() throws Exception {
    List<String> rows = new ArrayList<>();
    for (String line : Files.readAllLines(Path.of("doc/connection-properties.md"))) {
      if (line.startsWith("| `")) {
        rows.add(line);
      }
    }
    assertEquals(ConnectionProperty.values().length, rows.size(), "one row per property");
    for (int i = 0; i < rows.size(); i++) {
      ConnectionProperty p = ConnectionProperty.values()[i];
      String[] cells = rows.get(i).split("\\|");
      assertEquals("`" + p.camelName() + "`", cells[1].trim());
      assertEquals(p.defaultValue() == null ? "none" : "`" + p.defaultValue() + "`",
          cells[3].trim(), p.camelName());
      assertEquals(String.join(", ", p.choices().stream().map(c -> "`" + c + "`").toList()),
          cells[4].trim(), p.camelName());
    }
  }
}
