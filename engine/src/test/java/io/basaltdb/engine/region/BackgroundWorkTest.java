package io.basaltdb.engine.region;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basaltdb.engine.Database;
import io.basaltdb.storage.Durability;
import io.basaltdb.engine.EngineOptions;
import io.basaltdb.storage.Put;
import io.basaltdb.storage.RegionInfo;
import io.basaltdb.storage.Table;
import io.basaltdb.storage.TableDescriptor;
import io.basaltdb.storage.TableName;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code Database.awaitBackgroundWork} returns when the flushes that writes asked for and the
 * compactions those flushes asked for are done: the stores' files no longer change, and each
 * memstore is below the flush size.
 */
class BackgroundWorkTest {
  @TempDir
  Path tmp;

  @Test
  void waitsForTheFlushesAndTheCompactionsTheyAskFor() throws Exception {
    int minFiles = 3;
    long flush = 16 * 1024;
    EngineOptions o = EngineOptions.defaults().withFlushSizeBytes(flush)
        .withCompactionFiles(minFiles, 6);
    try (Database db = Database.open(tmp.resolve("db"), o)) {
      db.admin().createTable(TableDescriptor.of("t", "f"), new byte[0][]);
      Table t = db.table(TableName.of("t"));
      byte[] pad = new byte[200];
      for (int i = 0; i < 20_000; i++) {
        t.put(new Put(String.format("r%06d", i).getBytes(StandardCharsets.UTF_8))
            .addColumn(b("f"), b("v"), pad).setDurability(Durability.ASYNC));
      }
      assertTrue(db.awaitBackgroundWork(120_000), "background work done in 2 minutes");
      String settled = files(db);
      Thread.sleep(300); // nothing was left running: the files do not change afterwards
      assertEquals(settled, files(db));
      for (RegionInfo r : db.admin().regions(TableName.of("t"))) {
        assertTrue(r.stats().memstoreBytes() < flush * 2, r.stats().toString());
      }
      assertTrue(db.backgroundFailure() == null);
    }
  }

  private static String files(Database db) {
    StringBuilder out = new StringBuilder();
    for (RegionInfo r : db.admin().regions(TableName.of("t"))) {
      out.append(r.name()).append(' ').append(r.stats().fileCount()).append(' ')
          .append(r.stats().fileBytes()).append(';');
    }
    System.out.println("BackgroundWorkTest: settled at " + out);
    return out.toString();
  }

  private static byte[] b(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
