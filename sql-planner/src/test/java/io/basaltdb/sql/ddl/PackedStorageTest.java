package io.basaltdb.sql.ddl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.basaltdb.storage.Result;
import io.basaltdb.storage.ResultScanner;
import io.basaltdb.storage.Scan;
import io.basaltdb.storage.TableName;
import io.basaltdb.sql.jdbc.BasaltConnections;
import io.basaltdb.sql.jdbc.SqlErrors;
import io.basaltdb.sql.SqlTestBase;
import io.basaltdb.sql.catalog.SqlTableDef;
import io.basaltdb.sql.type.CellArray;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Tables stored with one cell per family ({@code IMMUTABLE_STORAGE_SCHEME=
 * SINGLE_CELL_ARRAY_WITH_OFFSETS}): what is stored, what can be written, and the cell array
 * format. Queries over such tables are compared with H2 in {@code SqlVersusH2Test}.
 */
class PackedStorageTest extends SqlTestBase {

  @BeforeEach
  void createTables() throws Exception {
    update("CREATE TABLE item (id BIGINT NOT NULL PRIMARY KEY, f.name VARCHAR(20), "
        + "f.qty INTEGER, f.price DECIMAL(10, 2), c.note VARCHAR) "
        + "IMMUTABLE_STORAGE_SCHEME=SINGLE_CELL_ARRAY_WITH_OFFSETS");
  }

  /** Every stored cell of the table, as family:qualifier. */
  private List<String> cells() {
    List<String> out = new ArrayList<>();
    try (ResultScanner s = db.table(TableName.of("ITEM")).getScanner(new Scan())) {
      for (Result r : s) {
        r.cells().forEach(cell -> out.add(new String(cell.family()) + ":"
            + new String(cell.qualifier())));
      }
    }
    return out;
  }

  @Test
  void aRowIsItsMarkerAndOneCellPerFamily() throws Exception {
    update("INSERT INTO item VALUES (1, 'bolt', 10, 0.25, NULL), (2, NULL, NULL, NULL, 'x')");
    assertEquals(List.of("C:_v", "F:_0", "F:_v", "C:_v", "F:_0", "F:_v"), cells());
    assertEquals(List.of("1|bolt|10|0.25|null", "2|null|null|null|x"),
        rows("SELECT * FROM item ORDER BY id"));
    assertEquals(List.of("1|bolt"), rows("SELECT id, name FROM item WHERE qty >= 10"));
    assertEquals(List.of("2"), rows("SELECT id FROM item WHERE name IS NULL"));
    assertEquals(List.of("1"), rows("SELECT id FROM item WHERE note IS NULL"));
    assertEquals(List.of("1"), rows("SELECT id FROM item WHERE name LIKE 'bo%'"));
    // a NULL in the cell passes no comparison, whichever way round
    for (String op : List.of("=", "<>", "<", "<=", ">", ">=")) {
      assertEquals(List.of("1"), rows("SELECT id FROM item WHERE qty " + op + " 10 OR qty "
          + op + " 11 OR qty " + op + " 9"), op);
    }
    assertEquals(List.of("2|1|10|0.25|bolt"),
        rows("SELECT COUNT(*), COUNT(qty), SUM(qty), SUM(price), MIN(name) FROM item"));
  }

  @Test
  void wholeRowUpsertsReplaceAndPartialWritesAreRefused() throws Exception {
    update("INSERT INTO item VALUES (1, 'bolt', 10, 0.25, 'n')");
    update("UPSERT INTO item VALUES (1, 'nut', NULL, 1.5, NULL)");
    assertEquals(List.of("1|nut|null|1.50|null"), rows("SELECT * FROM item"));
    update("UPSERT INTO item (id, note, price, qty, name) VALUES (1, 'z', 2, 3, 'w')");
    assertEquals(List.of("1|w|3|2.00|z"), rows("SELECT * FROM item"));
    for (String partial : List.of("UPDATE item SET qty = 4", "UPDATE item SET qty = qty + 1",
        "UPSERT INTO item (id, name) VALUES (1, 'x')")) {
      SQLException e = assertThrows(SQLException.class, () -> update(partial), partial);
      assertEquals("0A000", SqlErrors.sqlState(e), partial);
    }
    assertEquals(List.of("1|w|3|2.00|z"), rows("SELECT * FROM item"));
    assertEquals(1, update("DELETE FROM item WHERE qty = 3"));
    assertEquals(List.of(), rows("SELECT * FROM item"));
  }

  @Test
  void addedColumnsTakeTheNextSlotAndColumnsAreNotDropped() throws Exception {
    update("INSERT INTO item VALUES (1, 'bolt', 10, 0.25, 'n')");
    update("ALTER TABLE item ADD f.weight DOUBLE");
    update("INSERT INTO item VALUES (2, 'nut', 5, 0.1, NULL, 2.5)");
    assertEquals(List.of("1|bolt|null", "2|nut|2.5"),
        rows("SELECT id, name, weight FROM item ORDER BY id"));
    SQLException e = assertThrows(SQLException.class,
        () -> update("ALTER TABLE item DROP COLUMN qty"));
    assertEquals("0A000", SqlErrors.sqlState(e));
    assertEquals(List.of("2"), rows("SELECT id FROM item WHERE weight > 1"));
  }

  @Test
  void historyListsEachColumnOfAFamilyCellVersion() throws Exception {
    Properties p = new Properties();
    p.setProperty("writeTimestamp", "1000");
    try (Connection past = BasaltConnections.open(db, p); Statement st = past.createStatement()) {
      st.executeUpdate("INSERT INTO item VALUES (1, 'bolt', 10, NULL, 'n')");
    }
    assertEquals(List.of("NAME|bolt", "NOTE|n", "PRICE|null", "QTY|10"), rows(
        "SELECT column_name, val FROM \"ITEM$HISTORY\" ORDER BY column_name"));
  }

  @Test
  void optionValuesAreChecked() {
    for (String bad : List.of("IMMUTABLE_STORAGE_SCHEME=TWO_CELLS",
        "f.IMMUTABLE_STORAGE_SCHEME=SINGLE_CELL_ARRAY_WITH_OFFSETS")) {
      SQLException e = assertThrows(SQLException.class, () -> update(
          "CREATE TABLE t2 (id INTEGER NOT NULL PRIMARY KEY, f.x INTEGER) " + bad));
      assertEquals("22023", SqlErrors.sqlState(e), bad);
    }
  }

  @Test
  void cellArrayFormat() {
    byte[][] values = {"ab".getBytes(), null, new byte[0], {7}};
    byte[] cell = CellArray.encode(values);
    // version 1, 4 slots, bitmap 0b0010, five offsets 0, 2, 2, 2, 3, then the data
    assertEquals("[1, 0, 4, 2, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 2, 0, 0, 0, 2, 0, 0, 0, 3, 97, "
        + "98, 7]", Arrays.toString(cell));
    assertEquals("[97, 98]", Arrays.toString(CellArray.get(cell, 0)));
    assertEquals(null, CellArray.get(cell, 1));
    assertEquals("[]", Arrays.toString(CellArray.get(cell, 2)));
    assertEquals("[7]", Arrays.toString(CellArray.get(cell, 3)));
    assertEquals(null, CellArray.get(cell, 4)); // a slot added after the cell was written
    assertThrows(io.basaltdb.storage.CorruptionException.class,
        () -> CellArray.get(new byte[] {9, 0, 1}, 0));
  }

  @Test
  void definitionsOfFormatOneStillDecode() {
    SqlTableDef def = new io.basaltdb.sql.catalog.SqlCatalog(db).get(TableName.of("ITEM"));
    byte[] v2 = def.encode();
    assertEquals(def, SqlTableDef.decode(def.table(), v2));
    byte[] v1 = Arrays.copyOf(v2, v2.length - 1); // format 1: no packed flag at the end
    v1[0] = 1;
    SqlTableDef old = SqlTableDef.decode(def.table(), v1);
    assertEquals(false, old.packed());
    assertEquals(def.columns(), old.columns());
  }
}
