package io.basaltdb.engine.memstore;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basaltdb.storage.Cell;
import io.basaltdb.storage.CellType;
import io.basaltdb.engine.Database;
import io.basaltdb.engine.EngineOptions;
import io.basaltdb.storage.Get;
import io.basaltdb.storage.Put;
import io.basaltdb.storage.Result;
import io.basaltdb.storage.ResultScanner;
import io.basaltdb.storage.Scan;
import io.basaltdb.storage.Table;
import io.basaltdb.storage.TableDescriptor;
import io.basaltdb.storage.TableName;
import io.basaltdb.engine.cell.CellComparator;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A memstore's row range lets reads whose keys miss it leave it out; a read must never leave
 * out a memstore holding a row it should see, also while writers widen the range.
 */
class MemStoreRowRangeTest {
  @TempDir Path tmp;

  private static byte[] b(String s) {
    return s.getBytes();
  }

  private static Cell cell(String row) {
    return new Cell(b(row), b("f"), b("q"), 1L, CellType.PUT, 1L, b("v"));
  }

  @Test
  void theRangeCoversExactlyTheRowsGiven() {
    MemStore m = new MemStore();
    assertFalse(m.mayHoldRows(new byte[0], new byte[0]), "empty");
    assertFalse(m.mayHoldRow(b("a")));
    m.add(cell("c"));
    m.add(cell("e"));
    assertTrue(m.mayHoldRows(new byte[0], new byte[0]));
    assertFalse(m.mayHoldRows(b("a"), b("c")), "stop is exclusive");
    assertTrue(m.mayHoldRows(b("a"), b("c\0")));
    assertTrue(m.mayHoldRows(b("e"), new byte[0]));
    assertFalse(m.mayHoldRows(b("e\0"), new byte[0]));
    assertFalse(m.mayHoldRows(b("f"), b("g")));
    assertTrue(m.mayHoldRow(b("c")));
    assertTrue(m.mayHoldRow(b("e")));
    assertFalse(m.mayHoldRow(b("b")));
    assertFalse(m.mayHoldRow(b("e\0")));
    assertNull(m.iteratorAtRow(b("f"), CellComparator.firstOnRow(b("f"), b("f"))));
    assertNotNull(m.iteratorAtRow(b("e"), CellComparator.firstOnRow(b("e"), b("f"))));
    m.remove(cell("e"));
    assertTrue(m.mayHoldRows(b("e"), new byte[0]), "a cell taken back leaves the range");
  }

  @Test
  void readsSeeEveryAcknowledgedRowWhileWritersWidenTheRange() throws Exception {
    try (Database db = Database.open(tmp.resolve("db"), EngineOptions.defaults())) {
      db.admin().createTable(TableDescriptor.of("t", "f"));
      Table t = db.table(TableName.of("t"));
      int rows = 20_000;
      // two writers: one appends rows at the end of the key space, one at the start, each
      // publishing the last row it wrote once the put returned
      AtomicLong up = new AtomicLong(-1);
      AtomicLong down = new AtomicLong(-1);
      AtomicReference<Throwable> failure = new AtomicReference<>();
      Thread w1 = new Thread(() -> {
        for (int i = 0; i < rows; i++) {
          t.put(new Put(b(String.format("m%06d", i))).addColumn(b("f"), b("q"), b("v")));
          up.set(i);
        }
      });
      Thread w2 = new Thread(() -> {
        for (int i = 0; i < rows; i++) {
          t.put(new Put(b(String.format("l%06d", rows - i))).addColumn(b("f"), b("q"), b("v")));
          down.set(i);
        }
      });
      Thread reader = new Thread(() -> {
        try {
          while (up.get() < rows - 1 || down.get() < rows - 1) {
            long u = up.get();
            long d = down.get();
            if (u >= 0) {
              byte[] row = b(String.format("m%06d", u));
              assertFalse(t.get(new Get(row)).isEmpty(), "get of acknowledged row m" + u);
              try (ResultScanner s = t.getScanner(new Scan().withStartRow(row)
                  .withStopRow(b(String.format("m%06d", u + 1))))) {
                Result r = s.next();
                assertNotNull(r, "scan of acknowledged row m" + u);
              }
            }
            if (d >= 0) {
              byte[] row = b(String.format("l%06d", rows - d));
              assertFalse(t.get(new Get(row)).isEmpty(), "get of acknowledged row l" + d);
            }
          }
        } catch (Throwable e) {
          failure.set(e);
        }
      });
      w1.start();
      w2.start();
      reader.start();
      w1.join();
      w2.join();
      reader.join();
      if (failure.get() != null) {
        throw new AssertionError(failure.get());
      }
      int n = 0;
      try (ResultScanner s = t.getScanner(new Scan())) {
        while (s.next() != null) {
          n++;
        }
      }
      assertEquals(2 * rows, n);
    }
  }
}
