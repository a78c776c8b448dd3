package io.basaltdb.engine.recovery;

import io.basaltdb.engine.TestTables;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basaltdb.storage.Cell;
import io.basaltdb.storage.Compression;
import io.basaltdb.storage.CorruptionException;
import io.basaltdb.engine.Database;
import io.basaltdb.storage.Durability;
import io.basaltdb.engine.EngineOptions;
import io.basaltdb.storage.FamilyOptions;
import io.basaltdb.engine.region.ReadSpec;
import io.basaltdb.engine.region.Region;
import io.basaltdb.engine.region.RegionScanner;
import io.basaltdb.engine.wal.WalReader;
import io.basaltdb.engine.io.NioFileSystem;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Damaged files and logs: a torn WAL tail is dropped, everything else is a named error. */
class CorruptionTest {
  @TempDir Path tmp;

  private Database open() {
    return TestTables.open(tmp.resolve("db"), EngineOptions.defaults().withBlockCacheBytes(0),
        Map.of("f", FamilyOptions.DEFAULT.withCompression(Compression.NONE).withBlockSize(4096)),
        "r");
  }

  private static byte[] row(int i) {
    return String.format("row%05d", i).getBytes();
  }

  private void write(Region r, int from, int to) {
    for (int i = from; i < to; i++) {
      r.mutateRow(row(i), List.of(Cell.put(row(i), "f".getBytes(), "q".getBytes(), 5,
          ("value-" + i).getBytes())), Durability.SYNC);
    }
  }

  private Path blockFile() throws IOException {
    try (Stream<Path> s = Files.walk(tmp.resolve("db/regions"))) {
      return s.filter(p -> p.toString().endsWith(".blk")).findFirst().orElseThrow();
    }
  }

  /** Writes rows [0, rows), flushes them to one block file, closes the database: that file. */
  private Path flushedBlockFile(int rows) throws IOException {
    try (Database db = open()) {
      write(TestTables.region(db, "r"), 0, rows);
      TestTables.region(db, "r").flush();
    }
    return blockFile();
  }

  private Path walSegment() throws IOException {
    List<Path> segs = WalReader.segments(NioFileSystem.INSTANCE, tmp.resolve("db/wal"));
    return segs.get(segs.size() - 1);
  }

  private static int count(Region r) {
    int n = 0;
    try (RegionScanner s = r.scan(ReadSpec.LATEST, null, null)) {
      while (s.next() != null) {
        n++;
      }
    }
    return n;
  }

  @Test
  void flippedByteInDataBlockIsNamedOnRead() throws IOException {
    Path f = flushedBlockFile(2000);
    try (RandomAccessFile raf = new RandomAccessFile(f.toFile(), "rw")) {
      raf.seek(100);
      int b = raf.read();
      raf.seek(100);
      raf.write(b ^ 0x01);
    }
    try (Database db = open()) {
      CorruptionException e = assertThrows(CorruptionException.class,
          () -> TestTables.region(db, "r").get(row(0), ReadSpec.LATEST));
      assertTrue(e.getMessage().contains(f.getFileName().toString()), e.getMessage());
      assertTrue(e.getMessage().contains("offset 0") && e.getMessage().contains("checksum"),
          e.getMessage());
      assertEquals(1, TestTables.region(db, "r").get(row(1999), ReadSpec.LATEST).size(),
          "other blocks still read");
    }
  }

  @Test
  void truncatedBlockFileFailsOpen() throws IOException {
    Path f = flushedBlockFile(100);
    try (RandomAccessFile raf = new RandomAccessFile(f.toFile(), "rw")) {
      raf.setLength(raf.length() - 10);
    }
    CorruptionException e = assertThrows(CorruptionException.class, this::open);
    assertTrue(e.getMessage().contains(f.getFileName().toString()), e.getMessage());
  }

  @Test
  void damagedTrailerFailsOpen() throws IOException {
    Path f = flushedBlockFile(100);
    try (RandomAccessFile raf = new RandomAccessFile(f.toFile(), "rw")) {
      raf.seek(raf.length() - 20);
      raf.write(0x7f);
    }
    CorruptionException e = assertThrows(CorruptionException.class, this::open);
    assertTrue(e.getMessage().contains(f.getFileName().toString())
        && e.getMessage().contains("trailer"), e.getMessage());
  }

  @Test
  void missingFileNamedByManifestFailsOpen() throws IOException {
    Path f = flushedBlockFile(100);
    Files.delete(f);
    CorruptionException e = assertThrows(CorruptionException.class, this::open);
    assertTrue(e.getMessage().contains(f.getFileName().toString())
        && e.getMessage().contains("missing"), e.getMessage());
  }

  @Test
  void walCutMidRecordLosesOnlyTheLastWrite() throws IOException {
    try (Database db = open()) {
      write(TestTables.region(db, "r"), 0, 300);
    }
    Path seg = walSegment();
    try (RandomAccessFile raf = new RandomAccessFile(seg.toFile(), "rw")) {
      raf.setLength(raf.length() - 5);
    }
    try (Database db = open()) {
      assertEquals(299, count(TestTables.region(db, "r")));
      assertEquals(1, db.replayStats().truncatedBytes() > 0 ? 1 : 0);
    }
    try (Database db = open()) {
      assertEquals(299, count(TestTables.region(db, "r")), "reopening again is clean");
    }
  }

  @Test
  void walBadRecordInTheMiddleFailsOpen() throws IOException {
    try (Database db = open()) {
      write(TestTables.region(db, "r"), 0, 300);
    }
    Path seg = walSegment();
    long at = Files.size(seg) / 2;
    try (RandomAccessFile raf = new RandomAccessFile(seg.toFile(), "rw")) {
      raf.seek(at);
      int b = raf.read();
      raf.seek(at);
      raf.write(b ^ 0x10);
    }
    CorruptionException e = assertThrows(CorruptionException.class, this::open);
    assertTrue(e.getMessage().contains(seg.getFileName().toString()), e.getMessage());
    assertTrue(e.getMessage().contains("offset"), e.getMessage());
  }

  @Test
  void secondOpenOfTheSameDirectoryIsRefused() {
    try (Database db = open()) {
      assertTrue(TestTables.region(db, "r") != null);
      var e = assertThrows(io.basaltdb.storage.InvalidArgumentException.class, this::open);
      assertTrue(e.getMessage().contains("in use"), e.getMessage());
    }
  }
}
