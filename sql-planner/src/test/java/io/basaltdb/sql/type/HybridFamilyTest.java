package io.basaltdb.sql.type;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.basaltdb.storage.Get;
import io.basaltdb.storage.Put;
import io.basaltdb.storage.Result;
import io.basaltdb.storage.Table;
import io.basaltdb.storage.TableName;
import io.basaltdb.sql.SqlTestBase;
import io.basaltdb.sql.jdbc.SqlErrors;
import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Hybrid families: typed columns and a MAP of the family's other cells in one table, so cells
 * written by any HBase-style client and rows written through SQL meet; the map is written by
 * UPSERT of entries (merged) and by UPDATE (replaced).
 */
class HybridFamilyTest extends SqlTestBase {
  private static byte[] b(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void cellsOfAnyClientAndTypedColumnsMeetInOneTable() throws Exception {
    update("CREATE TABLE h (id INT PRIMARY KEY, f.name VARCHAR(10), f.attrs MAP, g.n INT)");
    update("UPSERT INTO h VALUES (1, 'one', NULL, 10)");
    // another client writes cells of its own choosing into family F of the same row
    Table raw = db.table("H");
    byte[] key = rowKey(1);
    raw.put(new Put(key).addColumn(b("F"), b("color"), b("red")).addColumn(b("F"), b("size"),
        new byte[] {9}));
    assertEquals(List.of("1|one|10"), rows("SELECT id, name, n FROM h"));
    assertEquals(List.of("{color=726564, size=09}"), rows("SELECT attrs FROM h"),
        "the family's cells that are no declared column's, not NAME nor the marker");
    assertEquals(List.of("726564"), rows("SELECT attrs['color'] FROM h"));
    assertEquals(List.of("1"), rows("SELECT id FROM h WHERE attrs['size'] = X'09'"));
    // UPSERT merges entries; a NULL value deletes its cell
    assertEquals(1, update("UPSERT INTO h (id, attrs) VALUES (1, MAP['shape', X'01', "
        + "'size', CAST(NULL AS VARBINARY)])"));
    assertEquals(List.of("{color=726564, shape=01}"), rows("SELECT attrs FROM h"));
    Result r = raw.get(new Get(key));
    assertArrayEquals(new byte[] {1}, r.getValue(b("F"), b("shape")), "a plain cell");
    assertNull(r.getValue(b("F"), b("size")));
    // UPDATE replaces the map; NULL removes every other cell of the family
    assertEquals(1, update("UPDATE h SET attrs = MAP['only', X'ff'] WHERE id = 1"));
    assertEquals(List.of("1|one|{only=ff}|10"), rows("SELECT * FROM h"));
    assertEquals(1, update("UPDATE h SET attrs = NULL WHERE id = 1"));
    assertEquals(List.of("1|one|null|10"), rows("SELECT * FROM h"));
    // a new row with entries, and the typed columns untouched by the map
    update("INSERT INTO h (id, name, attrs) VALUES (2, 'two', MAP['a', X'0a'])");
    assertEquals(List.of("2|two|{a=0a}"), rows("SELECT id, name, attrs FROM h WHERE id = 2"));
    assertEquals(List.of("2"), rows("SELECT id FROM h WHERE attrs IS NOT NULL"));
  }

  @Test
  void whatAMapCannotBeIsRefused() throws Exception {
    update("CREATE TABLE hm (id INT PRIMARY KEY, f.name VARCHAR, f.rest MAP)");
    assertEquals("22023", state("UPSERT INTO hm (id, rest) VALUES (1, MAP['NAME', X'00'])"));
    assertEquals("22023", state("UPSERT INTO hm (id, rest) VALUES (1, MAP['_0', X'00'])"));
    assertEquals(List.of(), rows("SELECT * FROM hm"));
    assertEquals("22023", state("CREATE TABLE bad (id INT PRIMARY KEY, f.a MAP, f.b MAP)"));
    assertEquals("0A000", state("CREATE TABLE bad (id INT PRIMARY KEY, f.a MAP NOT NULL)"));
    assertEquals("0A000", state("CREATE TABLE bad (id INT PRIMARY KEY, f.a MAP) "
        + "IMMUTABLE_STORAGE_SCHEME = SINGLE_CELL_ARRAY_WITH_OFFSETS"));
    assertEquals("0A000", state("CREATE INDEX hm_rest ON hm (rest)"));
    assertEquals("0A000", state("CREATE INDEX hm_name ON hm (name) INCLUDE (rest)"));
    assertEquals("22023", state("ALTER TABLE hm ADD f.more MAP"));
    update("ALTER TABLE hm ADD g.other MAP");
    update("UPSERT INTO hm (id, other) VALUES (3, MAP['k', X'01'])");
    assertEquals(List.of("3|null|null|{k=01}"), rows("SELECT * FROM hm"));
  }

  private byte[] rowKey(int id) {
    var def = new io.basaltdb.sql.catalog.SqlCatalog(db).get(TableName.of("H"));
    return def.keyCodec().encode(new Object[] {id});
  }

  private String state(String sql) {
    SQLException e = assertThrows(SQLException.class, () -> update(sql), sql);
    return SqlErrors.sqlState(e);
  }
}
