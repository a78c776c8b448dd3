package io.basaltdb.engine.wal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basaltdb.storage.Cell;
import io.basaltdb.storage.CellType;
import io.basaltdb.storage.CorruptionException;
import io.basaltdb.engine.io.NioFileSystem;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The write-ahead log: round trip, torn tails, corruption in the middle, group commit. */
class WalTest {
  @TempDir Path dir;

  private static WalEdit edit(long seq, int cells) {
    List<Cell> cs = new ArrayList<>();
    for (int i = 0; i < cells; i++) {
      cs.add(new Cell(("row" + seq).getBytes(), "f".getBytes(), ("q" + i).getBytes(), 100 + seq,
          i % 3 == 2 ? CellType.DELETE_COLUMN : CellType.PUT, seq, ("value" + seq).getBytes()));
    }
    return new WalEdit(seq, "region-1".getBytes(), cs);
  }

  private List<WalEdit> replayAll() {
    List<WalEdit> out = new ArrayList<>();
    WalReader.replay(NioFileSystem.INSTANCE, dir, out::add);
    return out;
  }

  private List<Long> writeEdits(int n) {
    List<Long> positions = new ArrayList<>();
    WriteAheadLog wal = new WriteAheadLog(NioFileSystem.INSTANCE, dir, 1 << 20, 100, null);
    for (int i = 1; i <= n; i++) {
      positions.add(wal.append(edit(i, 1 + i % 4)));
    }
    wal.syncAll();
    wal.close();
    return positions;
  }

  private static Path onlySegment(Path dir) throws IOException {
    List<Path> segs = WalReader.segments(NioFileSystem.INSTANCE, dir);
    assertEquals(1, segs.size());
    return segs.get(0);
  }

  @Test
  void roundTrip() {
    writeEdits(100);
    List<WalEdit> edits = replayAll();
    assertEquals(100, edits.size());
    for (int i = 0; i < 100; i++) {
      WalEdit expected = edit(i + 1, 1 + (i + 1) % 4);
      WalEdit actual = edits.get(i);
      assertEquals(expected.sequenceId(), actual.sequenceId());
      assertArrayEquals(expected.region(), actual.region());
      assertEquals(expected.cells(), actual.cells());
    }
  }

  @Test
  void rollsSegmentsAndDeletesFlushedOnes() {
    WriteAheadLog wal = new WriteAheadLog(NioFileSystem.INSTANCE, dir, 4096, 100, null);
    for (int i = 1; i <= 300; i++) {
      wal.append(edit(i, 2));
    }
    wal.syncAll();
    int segments = wal.segmentCount();
    assertTrue(segments > 3, "small roll size makes several segments, got " + segments);
    int deleted = wal.deleteObsoleteSegments(150);
    assertTrue(deleted > 0 && deleted < segments - 1, "only segments below seq 150 go: " + deleted);
    wal.close();
    List<WalEdit> edits = replayAll();
    assertTrue(edits.get(0).sequenceId() <= 150, "nothing at or above 150 was deleted");
    assertEquals(300, edits.get(edits.size() - 1).sequenceId());
  }

  @Test
  void tornTailIsDroppedAndTruncated() throws IOException {
    writeEdits(50);
    Path seg = onlySegment(dir);
    long size = Files.size(seg);
    try (RandomAccessFile f = new RandomAccessFile(seg.toFile(), "rw")) {
      f.setLength(size - 7); // cut the last record in the middle
    }
    List<WalEdit> edits = replayAll();
    assertEquals(49, edits.size());
    assertTrue(Files.size(seg) < size - 7, "the partial record was truncated away");
    assertEquals(49, replayAll().size(), "a second replay sees a clean log");
  }

  @Test
  void zeroFilledTailIsDropped() throws IOException {
    writeEdits(10);
    Path seg = onlySegment(dir);
    try (RandomAccessFile f = new RandomAccessFile(seg.toFile(), "rw")) {
      f.seek(f.length());
      f.write(new byte[4096]);
    }
    assertEquals(10, replayAll().size());
  }

  @Test
  void badRecordInTheMiddleIsCorruption() throws IOException {
    List<Long> ends = writeEdits(50);
    Path seg = onlySegment(dir);
    long offset = WalFormat.HEADER_SIZE + ends.get(20) + 12; // inside record #22's payload
    try (RandomAccessFile f = new RandomAccessFile(seg.toFile(), "rw")) {
      f.seek(offset);
      int b = f.read();
      f.seek(offset);
      f.write(b ^ 0x40);
    }
    CorruptionException e = assertThrows(CorruptionException.class, this::replayAll);
    assertTrue(e.getMessage().contains(seg.getFileName().toString()), e.getMessage());
    assertTrue(e.getMessage().contains("offset " + (WalFormat.HEADER_SIZE + ends.get(20))),
        e.getMessage());
  }

  @Test
  void tornTailInAnOlderSegmentIsCorruption() throws IOException {
    writeEdits(10);
    Path first = onlySegment(dir);
    try (RandomAccessFile f = new RandomAccessFile(first.toFile(), "rw")) {
      f.setLength(f.length() - 3);
    }
    new WriteAheadLog(NioFileSystem.INSTANCE, dir, 1 << 20, 100, null).close(); // a newer segment now exists
    CorruptionException e = assertThrows(CorruptionException.class, this::replayAll);
    assertTrue(e.getMessage().contains("not the newest"), e.getMessage());
  }

  @Test
  void groupCommitSharesFsyncs() throws Exception {
    WriteAheadLog wal = new WriteAheadLog(NioFileSystem.INSTANCE, dir, 64 << 20, 100, null);
    int threads = 8;
    int perThread = 200;
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    List<Future<?>> fs = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      int base = t * perThread;
      fs.add(pool.submit(() -> {
        for (int i = 1; i <= perThread; i++) {
          wal.sync(wal.append(edit(base + i, 1)));
        }
      }));
    }
    for (Future<?> f : fs) {
      f.get();
    }
    pool.shutdown();
    long syncs = wal.syncCount();
    wal.close();
    System.out.println("group commit: " + threads * perThread + " SYNC writes, " + syncs + " fsyncs");
    assertTrue(syncs < threads * perThread, "concurrent writers must share fsyncs: " + syncs);
    assertEquals(threads * perThread, replayAll().size());
  }
}
