package io.basaltdb.engine.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.basaltdb.storage.ClosedException;
import io.basaltdb.engine.Database;
import io.basaltdb.engine.EngineOptions;
import io.basaltdb.storage.Put;
import io.basaltdb.storage.TableDescriptor;
import io.basaltdb.storage.TableName;
import io.basaltdb.engine.TestTables;
import io.basaltdb.engine.region.Region;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A closed store hands out no view: its view has dropped its files, and a read let into its
 * region just before the region closed (a split's parent) would otherwise see the region
 * without them, rows or whole families missing (found by TableConcurrencyTest as a "torn" row
 * whose second family was absent; the read now looks its region up again).
 */
class StoreCloseTest {
  @TempDir Path tmp;

  @Test
  void aClosedStoreRefusesViewsInsteadOfGivingOneWithoutItsFiles() {
    try (Database db = Database.open(tmp.resolve("db"), EngineOptions.defaults())) {
      db.admin().createTable(TableDescriptor.of("t", "f", "g"));
      db.table("t").put(new Put("r".getBytes()).addColumn("g".getBytes(), "q".getBytes(),
          "v".getBytes()));
      db.admin().flush(TableName.of("t"));
      Region region = TestTables.region(db, "t");
      Store g = region.stores().stream()
          .filter(s -> new String(s.family()).equals("g")).findFirst().orElseThrow();
      try (StoreView v = g.acquireView(0)) {
        assertEquals(1, v.files().size());
      }
      g.close();
      assertThrows(ClosedException.class, () -> g.acquireView(0));
    }
  }
}
