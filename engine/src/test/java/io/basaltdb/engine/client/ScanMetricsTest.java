package io.basaltdb.engine.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basaltdb.storage.Compression;
import io.basaltdb.engine.Database;
import io.basaltdb.engine.EngineOptions;
import io.basaltdb.storage.FamilyOptions;
import io.basaltdb.storage.Get;
import io.basaltdb.storage.Put;
import io.basaltdb.storage.Result;
import io.basaltdb.storage.ResultScanner;
import io.basaltdb.storage.Scan;
import io.basaltdb.storage.ScanMetrics;
import io.basaltdb.storage.Table;
import io.basaltdb.storage.TableDescriptor;
import io.basaltdb.storage.TableName;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The per-read counts EXPLAIN ANALYZE shows: regions, rows and cells returned, cells stepped
 * over in memstores and files, files read or passed over, blocks from the cache or the file,
 * bytes decompressed; each what the read did, not what the store did meanwhile.
 */
class ScanMetricsTest {
  static final byte[] F = "f".getBytes(StandardCharsets.UTF_8);
  static final byte[] Q = "q".getBytes(StandardCharsets.UTF_8);

  @TempDir Path tmp;
  Database db;
  Table t;

  @BeforeEach
  void load() {
    db = Database.open(tmp.resolve("db"), EngineOptions.defaults());
    db.admin().createTable(new TableDescriptor(TableName.of("m"), java.util.Map.of("f",
        FamilyOptions.DEFAULT.withCompression(Compression.LZ4).withBlockSize(1024)
            .withInMemory(true))), // blocks cached on their first read
        new byte[][] {row(500)});
    t = db.table("m");
    for (int i = 0; i < 1000; i++) {
      t.put(new Put(row(i)).addColumn(F, Q, ("value-" + i).repeat(4).getBytes()));
    }
    db.admin().flush(TableName.of("m"));
    for (int i = 0; i < 1000; i += 100) { // newer versions in the memstores
      t.put(new Put(row(i)).addColumn(F, Q, "new".getBytes()));
    }
  }

  @AfterEach
  void close() {
    db.close();
  }

  static byte[] row(int i) {
    return String.format("row%04d", i).getBytes(StandardCharsets.UTF_8);
  }

  private ScanMetrics scan(Scan s) {
    ScanMetrics m = new ScanMetrics();
    int n = 0;
    try (ResultScanner r = t.getScanner(s.setMetrics(m))) {
      while (r.next() != null) {
        n++;
      }
    }
    assertEquals(n, m.rowsReturned.get());
    return m;
  }

  @Test
  void aScanCountsWhatItRead() {
    ScanMetrics cold = scan(new Scan());
    assertEquals(2, cold.regions.get());
    assertEquals(1000, cold.rowsReturned.get());
    assertEquals(1000, cold.cellsReturned.get());
    assertEquals(2, cold.filesRead.get(), cold.toString());
    assertTrue(cold.fileCells.get() >= 1000 && cold.fileCells.get() <= 1010, cold.toString());
    assertTrue(cold.memstoreCells.get() >= 10 && cold.memstoreCells.get() <= 12,
        cold.toString());
    assertTrue(cold.blocksFromFile.get() > 10, cold.toString());
    assertTrue(cold.bytesDecompressed.get() > 1000 * 40, cold.toString());
    ScanMetrics warm = scan(new Scan());
    assertEquals(0, warm.blocksFromFile.get(), "every block is cached now: " + warm);
    assertEquals(cold.blocksFromFile.get() + cold.blocksFromCache.get(),
        warm.blocksFromCache.get(), warm.toString());
    assertEquals(0, warm.bytesDecompressed.get());
    ScanMetrics range = scan(new Scan().withStartRow(row(10)).withStopRow(row(20)));
    assertEquals(1, range.regions.get());
    assertEquals(10, range.rowsReturned.get());
    ScanMetrics later = scan(new Scan().setTimeRange(System.currentTimeMillis() + 60_000,
        Long.MAX_VALUE));
    assertEquals(2, later.filesSkippedByTime.get(), later.toString());
    assertEquals(0, later.rowsReturned.get());
  }

  @Test
  void aGetCountsTooAndABloomFilterSkipsAFile() {
    ScanMetrics m = new ScanMetrics();
    Result r = t.get(new Get(row(7)).setMetrics(m));
    assertTrue(!r.isEmpty());
    assertEquals(1, m.rowsReturned.get(), m.toString());
    ScanMetrics missing = new ScanMetrics();
    assertTrue(t.get(new Get("row0007x".getBytes()).setMetrics(missing)).isEmpty());
    assertEquals(1, missing.filesSkippedByBloom.get(), missing.toString());
    assertEquals(0, missing.filesRead.get());
  }
}
