package io.basaltdb.engine.client;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basaltdb.engine.Database;
import io.basaltdb.engine.EngineOptions;
import io.basaltdb.storage.FamilyOptions;
import io.basaltdb.storage.Get;
import io.basaltdb.storage.Put;
import io.basaltdb.storage.Result;
import io.basaltdb.storage.Scan;
import io.basaltdb.storage.Table;
import io.basaltdb.storage.TableDescriptor;
import io.basaltdb.storage.TableName;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A read may take another read's columns ({@code ReadRequest.readColumnsOf}), shared and
 * frozen, as a statement run again and again does: each read gets exactly those columns, the
 * storage the same map each time, and a change to either read afterwards stays its own.
 */
class SharedColumnsTest {
  @TempDir Path tmp;

  private static byte[] b(String s) {
    return s.getBytes();
  }

  @Test
  void aReadWithAnothersColumnsReadsThemAndChangesStayApart() {
    Get template = new Get(b("x")).addColumn(b("f"), b("a")).addFamily(b("g"));
    Get one = new Get(b("r1")).readColumnsOf(template);
    Get two = new Get(b("r2")).readColumnsOf(template);
    assertTrue(one.columnsShared());
    assertSame(one.columns(), two.columns(), "one frozen map for every read sharing it");
    assertEquals(2, one.columns().size());
    assertNull(one.columns().get(b("g")), "the whole family g");
    assertThrows(UnsupportedOperationException.class,
        () -> one.columns().get(b("f")).add(b("z")));
    one.addColumn(b("f"), b("c")); // copied first: the template and two stay as they were
    assertFalse(one.columnsShared());
    assertEquals(2, one.columns().get(b("f")).size());
    assertEquals(1, two.columns().get(b("f")).size());
    assertEquals(1, template.columns().get(b("f")).size());
    template.addColumn(b("f"), b("d"));
    assertEquals(1, two.columns().get(b("f")).size(), "a later change of the template");
    Get three = new Get(b("r3")).readColumnsOf(template);
    assertEquals(2, three.columns().get(b("f")).size());
    Scan s = new Scan().readColumnsOf(template).addFamily(b("f"));
    assertNull(s.columns().get(b("f")), "then the whole family f");
  }

  @Test
  void getsWithSharedColumnsReadExactlyThoseColumns() {
    try (Database db = Database.open(tmp.resolve("db"), EngineOptions.defaults())) {
      db.admin().createTable(new TableDescriptor(TableName.of("t"), Map.of("f",
          FamilyOptions.DEFAULT, "g", FamilyOptions.DEFAULT)));
      Table t = db.table("t");
      for (String row : new String[] {"r1", "r2"}) {
        t.put(new Put(b(row)).addColumn(b("f"), b("a"), b(row + "a"))
            .addColumn(b("f"), b("b"), b(row + "b")).addColumn(b("g"), b("x"), b(row + "x")));
      }
      db.admin().flush(TableName.of("t"));
      t.put(new Put(b("r2")).addColumn(b("f"), b("a"), b("r2a2")));
      Get template = new Get(b("x")).addColumn(b("f"), b("a")).addFamily(b("g"));
      for (String row : new String[] {"r1", "r2", "r1"}) {
        Result r = t.get(new Get(b(row)).readColumnsOf(template));
        assertEquals(2, r.size(), row);
        assertArrayEquals(b(row.equals("r2") ? "r2a2" : row + "a"), r.getValue(b("f"), b("a")));
        assertArrayEquals(b(row + "x"), r.getValue(b("g"), b("x")));
        assertNull(r.getValue(b("f"), b("b")));
      }
      assertTrue(t.get(new Get(b("none")).readColumnsOf(template)).isEmpty());
      Get unknown = new Get(b("x")).addColumn(b("nope"), b("a"));
      assertThrows(RuntimeException.class, () -> t.get(new Get(b("r1")).readColumnsOf(unknown)),
          "an unknown family is refused as when named directly");
    }
  }
}
