package io.basaltdb.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.basaltdb.engine.Database;
import io.basaltdb.engine.EngineOptions;
import io.basaltdb.sql.catalog.SqlCatalog;
import io.basaltdb.sql.catalog.SqlColumn;
import io.basaltdb.sql.catalog.SqlTableDef;
import io.basaltdb.sql.schema.BasaltSchema;
import io.basaltdb.sql.type.ColumnType;
import io.basaltdb.sql.type.RowKeyCodec;
import io.basaltdb.storage.Put;
import io.basaltdb.storage.Table;
import io.basaltdb.storage.TableDescriptor;
import io.basaltdb.storage.TableName;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.util.List;
import org.apache.calcite.jdbc.CalciteConnection;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Stage 1 of the adapter: SQL-defined tables (catalog in the engine) and raw engine tables
 * are queryable through Calcite, rows decoded from keys and cells.
 */
class ScannableSqlTest {
  Database db;
  Connection conn;

  static byte[] b(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  @BeforeEach
  void setUp() throws Exception {
    db = Database.openTemporary(EngineOptions.defaults());
    db.admin().createTable(TableDescriptor.of("T", "F"), new byte[][] {new RowKeyCodec(List.of(
        new RowKeyCodec.Column("ID", io.basaltdb.sql.type.KeyType.BIGINT, false)), 0).encode(50L)});
    SqlTableDef def = new SqlTableDef(TableName.of("T"), List.of(
        new SqlColumn("ID", ColumnType.BIGINT, -1, -1, false, 0, false, null),
        new SqlColumn("NAME", ColumnType.VARCHAR, 20, -1, true, -1, false, "F"),
        new SqlColumn("PRICE", ColumnType.DECIMAL, 10, 2, true, -1, false, "F")), 0, false);
    new SqlCatalog(db).put(def);
    Table t = db.table("T");
    RowKeyCodec codec = def.keyCodec();
    for (long id = -5; id < 100; id++) {
      Put p = new Put(codec.encode(id)).addColumn(b("F"), io.basaltdb.sql.catalog.CellNames.MARKER, new byte[0])
          .addColumn(b("F"), b("NAME"), ColumnType.VARCHAR.toCell("item " + id));
      if (id % 10 != 0) {
        p.addColumn(b("F"), b("PRICE"), ColumnType.DECIMAL.toCell(BigDecimal.valueOf(id * 25, 2)));
      }
      t.put(p);
    }
    db.admin().createTable(TableDescriptor.of("raw", "f", "g"));
    db.table("raw").put(new Put(b("k1")).addColumn(b("f"), b("q"), b("v1")));
    db.table("raw").put(new Put(b("k2")).addColumn(b("g"), b("q"), b("v2")));
    conn = DriverManager.getConnection("jdbc:calcite:");
    CalciteConnection cc = conn.unwrap(CalciteConnection.class);
    BasaltSchema.register(cc.getRootSchema(), db);
    cc.setSchema("DEFAULT");
  }

  @AfterEach
  void tearDown() throws Exception {
    conn.close();
    db.close();
  }

  private List<String> query(String sql) throws Exception {
    return SqlTestSupport.rows(conn, sql);
  }


  @Test
  void sqlTableRowsDecodeAcrossRegions() throws Exception {
    assertEquals(List.of("105"), query("SELECT COUNT(*) FROM t"));
    assertEquals(List.of("-5|item -5", "-4|item -4"), query("SELECT id, name FROM t ORDER BY id LIMIT 2"));
    assertEquals(List.of("99|24.75", "98|24.50"),
        query("SELECT id, price FROM t WHERE price > 24.4 ORDER BY id DESC"));
    assertEquals(List.of("10"), query("SELECT COUNT(*) FROM t WHERE price IS NULL"));
  }

  @Test
  void keyPredicatesNarrowTheScan() throws Exception {
    String plan = String.join("\n", query("EXPLAIN PLAN FOR SELECT name FROM t WHERE id = 42"));
    assertEquals(true, plan.contains("keys=[ID = 42 -> 1 range [800000000000002a, "
        + "800000000000002b)]"), plan);
    long before = db.regions(TableName.of("T")).stream().mapToLong(r -> r.stats().reads()).sum();
    assertEquals(List.of("item 42"), query("SELECT name FROM t WHERE id = 42"));
    assertEquals(List.of("7|item 7", "8|item 8", "9|item 9"),
        query("SELECT id, name FROM t WHERE id > 6 AND id <= 9 ORDER BY id"));
    assertEquals(List.of("-3", "60", "99"), query("SELECT id FROM t WHERE id IN (99, -3, 60, 1000) ORDER BY id"));
    assertEquals(List.of("item 80"), query("SELECT name FROM t WHERE 80 = id"));
    long scans = db.regions(TableName.of("T")).stream().mapToLong(r -> r.stats().reads()).sum() - before;
    assertEquals(true, scans <= 7, "the four queries open " + scans + " region scans (a full scan opens 2 each)");
  }

  @Test
  void rawEngineTablesShowFamiliesAsMaps() throws Exception {
    // VARBINARY reads back as hex: k1 = 6b31, v1 = 7631
    assertEquals(List.of("6b31|7631|null", "6b32|null|7632"), query(
        "SELECT CAST(row_key AS VARCHAR), CAST(\"f\"['q'] AS VARCHAR), CAST(\"g\"['q'] AS VARCHAR) "
            + "FROM \"raw\" ORDER BY row_key"));
  }
}
