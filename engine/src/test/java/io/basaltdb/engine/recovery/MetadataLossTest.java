package io.basaltdb.engine.recovery;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basaltdb.storage.CorruptionException;
import io.basaltdb.engine.Database;
import io.basaltdb.engine.EngineOptions;
import io.basaltdb.storage.FamilyOptions;
import io.basaltdb.storage.Get;
import io.basaltdb.storage.Put;
import io.basaltdb.storage.Table;
import io.basaltdb.storage.TableName;
import io.basaltdb.engine.TestTables;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A missing CATALOG or MANIFEST is corruption, never an empty database or store, and an open
 * that fails deletes nothing (it used to remove every block file). A version-1 database,
 * whose never-flushed stores have no manifest, still opens.
 */
class MetadataLossTest {
  @TempDir Path tmp;

  private Path populated() {
    Path dir = tmp.resolve("db");
    try (Database db = TestTables.open(dir, EngineOptions.defaults(),
        Map.of("f", FamilyOptions.DEFAULT), "t")) {
      Table t = db.table("t");
      for (int i = 0; i < 100; i++) {
        t.put(new Put(("r" + i).getBytes()).addColumn("f".getBytes(), "q".getBytes(),
            ("v" + i).getBytes()));
        if (i % 30 == 29) {
          db.admin().flush(TableName.of("t"));
        }
      }
    }
    return dir;
  }

  /** Every file under {@code dir} with its size. */
  private static Map<String, Long> files(Path dir) throws IOException {
    Map<String, Long> out = new TreeMap<>();
    try (Stream<Path> s = Files.walk(dir)) {
      for (Path p : s.filter(Files::isRegularFile).toList()) {
        out.put(dir.relativize(p).toString(), Files.size(p));
      }
    }
    return out;
  }

  @Test
  void missingCatalogIsCorruptionAndNothingIsDeleted() throws IOException {
    Path dir = populated();
    Files.delete(dir.resolve("CATALOG"));
    Map<String, Long> before = files(dir);
    assertTrue(before.keySet().stream().anyMatch(n -> n.endsWith(".blk")), before.toString());
    CorruptionException e = assertThrows(CorruptionException.class,
        () -> Database.open(dir, EngineOptions.defaults()));
    assertTrue(e.getMessage().contains("CATALOG"), e.getMessage());
    assertEquals(before, files(dir), "a failed open must not touch the directory");
  }

  @Test
  void missingManifestIsCorruptionAndNothingIsDeleted() throws IOException {
    Path dir = populated();
    Path manifest;
    try (Stream<Path> s = Files.walk(dir)) {
      manifest = s.filter(p -> p.getFileName().toString().equals("MANIFEST")).findFirst()
          .orElseThrow();
    }
    Files.delete(manifest);
    Map<String, Long> before = files(dir);
    CorruptionException e = assertThrows(CorruptionException.class,
        () -> Database.open(dir, EngineOptions.defaults()));
    assertTrue(e.getMessage().contains("MANIFEST"), e.getMessage());
    assertEquals(before, files(dir), "a failed open must not touch the directory");
  }

  @Test
  void missingRegionDirectoryIsCorruption() throws IOException {
    Path dir = populated();
    Path region;
    try (Stream<Path> s = Files.list(dir.resolve("regions"))) {
      region = s.findFirst().orElseThrow();
    }
    io.basaltdb.engine.util.FileTrees.delete(io.basaltdb.engine.io.NioFileSystem.INSTANCE,
        region);
    Map<String, Long> before = files(dir);
    assertThrows(CorruptionException.class, () -> Database.open(dir, EngineOptions.defaults()));
    assertEquals(before, files(dir));
  }

  @Test
  void aNewStoreHasAManifestFromTheStart() throws IOException {
    Path dir = tmp.resolve("fresh");
    try (Database db = TestTables.open(dir, EngineOptions.defaults(),
        Map.of("f", FamilyOptions.DEFAULT, "g", FamilyOptions.DEFAULT), "t")) {
      db.admin().addFamily(TableName.of("t"), "h", FamilyOptions.DEFAULT);
    }
    long stores;
    long manifests;
    try (Stream<Path> s = Files.walk(dir.resolve("regions"))) {
      var all = s.toList();
      stores = all.stream().filter(p -> p.getNameCount() == dir.resolve("regions").getNameCount() + 2
          && Files.isDirectory(p)).count();
      manifests = all.stream().filter(p -> p.getFileName().toString().equals("MANIFEST")).count();
    }
    assertEquals(3, stores);
    assertEquals(3, manifests, "every store, flushed or not, has its manifest");
  }

  @Test
  void versionOneDatabaseWithUnflushedStoresStillOpens() throws IOException {
    Path dir = tmp.resolve("v1");
    try (Database db = TestTables.open(dir, EngineOptions.defaults(),
        Map.of("f", FamilyOptions.DEFAULT), "t")) {
      db.table("t").put(new Put("k".getBytes()).addColumn("f".getBytes(), "q".getBytes(),
          "v".getBytes()));
    }
    // as the first release left it: no manifest before the first flush, a version-1 catalog
    try (Stream<Path> s = Files.walk(dir.resolve("regions"))) {
      for (Path p : s.filter(p -> p.getFileName().toString().equals("MANIFEST")).toList()) {
        Files.delete(p);
      }
    }
    byte[] c = Files.readAllBytes(dir.resolve("CATALOG"));
    c[11] = 1; // version field (big-endian u32 at offset 8)
    int crc = io.basaltdb.engine.util.Checksums.crc32c(c, 0, c.length - 4);
    for (int i = 0; i < 4; i++) {
      c[c.length - 4 + i] = (byte) (crc >>> (24 - 8 * i));
    }
    Files.write(dir.resolve("CATALOG"), c);
    try (Database db = Database.open(dir, EngineOptions.defaults())) {
      assertArrayEquals("v".getBytes(), db.table("t").get(new Get("k".getBytes())).cells().get(0)
          .value(), "the log's edit replays into the upgraded store");
    }
    assertEquals(2, Files.readAllBytes(dir.resolve("CATALOG"))[11], "catalog rewritten as v2");
  }
}
