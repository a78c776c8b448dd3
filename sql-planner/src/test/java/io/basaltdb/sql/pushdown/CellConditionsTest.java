package io.basaltdb.sql.pushdown;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.basaltdb.storage.CompareOperator;
import io.basaltdb.engine.Database;
import io.basaltdb.engine.EngineOptions;
import io.basaltdb.storage.TableName;
import io.basaltdb.storage.filter.FilterSpec;
import io.basaltdb.sql.catalog.SqlCatalog;
import io.basaltdb.sql.catalog.SqlTableDef;
import io.basaltdb.sql.jdbc.BasaltConnections;
import java.sql.Connection;
import java.sql.Statement;
import org.junit.jupiter.api.Test;

/** Which comparisons bytes can state exactly, and which they must leave to the filter. */
class CellConditionsTest {
  @Test
  void onlyWhatBytesOrderExactlyIsStated() throws Exception {
    try (Database db = Database.openTemporary(EngineOptions.defaults());
        Connection c = BasaltConnections.open(db); Statement st = c.createStatement()) {
      st.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, b BIGINT, i INTEGER, s VARCHAR,"
          + " d DOUBLE)");
      st.execute("CREATE TABLE p (id INTEGER PRIMARY KEY, b BIGINT)"
          + " IMMUTABLE_STORAGE_SCHEME=SINGLE_CELL_ARRAY_WITH_OFFSETS");
      SqlTableDef t = new SqlCatalog(db).get(TableName.of("T"));
      SqlTableDef p = new SqlCatalog(db).get(TableName.of("P"));
      int id = 0;
      int b = 1;
      int i = 2;
      int s = 3;
      int d = 4;
      FilterSpec.ColumnValue big = (FilterSpec.ColumnValue) CellConditions.compare(t, b,
          CompareOperator.LESS, -5L);
      assertEquals(FilterSpec.Order.SIGNED_LONG, big.order());
      assertEquals(8, big.value().length);
      assertEquals("B", new String(big.qualifier()));
      assertEquals(FilterSpec.Order.EQUALITY, ((FilterSpec.ColumnValue) CellConditions.compare(
          t, i, CompareOperator.EQUAL, 7)).order());
      assertNull(CellConditions.compare(t, i, CompareOperator.LESS, 7),
          "two's complement bytes do not order negative ints");
      assertNull(CellConditions.compare(t, i, CompareOperator.EQUAL, 1L << 40),
          "a value the column cannot hold is not encoded (it would wrap)");
      assertEquals(FilterSpec.Order.BYTES, ((FilterSpec.ColumnValue) CellConditions.compare(t,
          s, CompareOperator.GREATER, "abc")).order());
      assertNull(CellConditions.compare(t, s, CompareOperator.GREATER, "\u00e9t\u00e9"),
          "UTF-8 order is Java's string order only for an ASCII operand");
      assertEquals(FilterSpec.Order.EQUALITY, ((FilterSpec.ColumnValue) CellConditions.compare(
          t, s, CompareOperator.NOT_EQUAL, "\u00e9t\u00e9")).order());
      assertNull(CellConditions.compare(t, d, CompareOperator.EQUAL, 1.5), "doubles: -0.0, NaN");
      assertNull(CellConditions.compare(t, id, CompareOperator.EQUAL, 1), "key columns");
      assertNull(CellConditions.compare(p, 1, CompareOperator.EQUAL, 1L), "packed cells");
      assertNull(CellConditions.compare(t, b, CompareOperator.EQUAL, 1.5), "not integral");
    }
  }
}
