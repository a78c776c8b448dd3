package io.basaltdb.engine.wal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basaltdb.storage.Cell;
import io.basaltdb.storage.CellType;
import io.basaltdb.storage.CorruptionException;
import io.basaltdb.engine.io.NioFileSystem;
import io.basaltdb.engine.util.ByteWriter;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Damage that must never pass for a torn tail: a bad length in the middle of the newest
 * segment (the bug that dropped 290 of 300 acknowledged writes), damage to the last whole
 * record, a missing segment; and the explicit salvage, and version-1 segments still read.
 */
class WalDamageTest {
  private static final NioFileSystem FS = NioFileSystem.INSTANCE;
  @TempDir Path dir;

  private static WalEdit edit(long seq) {
    return new WalEdit(seq, "region-1".getBytes(), List.of(new Cell(("row" + seq).getBytes(),
        "f".getBytes(), "q".getBytes(), 100 + seq, CellType.PUT, seq,
        ("value" + seq).getBytes())));
  }

  /** Writes n edits, each synced; returns the file offset where each record starts. */
  private List<Long> write(int n) {
    List<Long> starts = new ArrayList<>();
    WriteAheadLog wal = new WriteAheadLog(FS, dir, 64 << 20, 100, null);
    long start = WalFormat.HEADER_SIZE;
    for (int i = 1; i <= n; i++) {
      starts.add(start);
      long end = wal.append(edit(i));
      wal.sync(end);
      start = WalFormat.HEADER_SIZE + end;
    }
    wal.close();
    return starts;
  }

  private List<WalEdit> replay() {
    List<WalEdit> out = new ArrayList<>();
    WalReader.replay(FS, dir, out::add);
    return out;
  }

  private Path segment() throws IOException {
    return WalReader.segments(FS, dir).get(0);
  }

  private static void flip(Path file, long offset, int mask) throws IOException {
    try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
      f.seek(offset);
      int b = f.read();
      f.seek(offset);
      f.write(b ^ mask);
    }
  }

  @Test
  void damagedLengthInTheMiddleIsCorruptionNotATornTail() throws IOException {
    List<Long> starts = write(300);
    Path seg = segment();
    long size = Files.size(seg);
    // every bit of record #10's length field, one at a time
    for (int bit = 0; bit < 32; bit++) {
      long at = starts.get(9) + bit / 8;
      flip(seg, at, 1 << (bit % 8));
      CorruptionException e = assertThrows(CorruptionException.class, this::replay,
          "bit " + bit + " of record #10's length");
      assertTrue(e.getMessage().contains(seg.getFileName().toString())
          && e.getMessage().contains("offset " + starts.get(9)), e.getMessage());
      assertEquals(size, Files.size(seg), "nothing is truncated on corruption");
      flip(seg, at, 1 << (bit % 8));
    }
    assertEquals(300, replay().size(), "undamaged again: every write is there");
  }

  @Test
  void damageToTheLastWholeRecordIsCorruption() throws IOException {
    List<Long> starts = write(20);
    Path seg = segment();
    long last = starts.get(19);
    long size = Files.size(seg);
    for (long at = last; at < size; at++) {
      flip(seg, at, 0x10);
      assertThrows(CorruptionException.class, this::replay, "byte " + (at - last)
          + " of the last record");
      flip(seg, at, 0x10);
    }
    assertEquals(20, replay().size());
  }

  @Test
  void damagedSegmentHeaderIsCorruption() throws IOException {
    write(5);
    Path seg = segment();
    for (int at = 0; at < WalFormat.HEADER_SIZE; at++) {
      flip(seg, at, 0x01);
      assertThrows(CorruptionException.class, this::replay, "header byte " + at);
      flip(seg, at, 0x01);
    }
    assertEquals(5, replay().size());
  }

  @Test
  void aRecordCutShortAtTheEndIsATornTail() throws IOException {
    List<Long> starts = write(20);
    Path seg = segment();
    long size = Files.size(seg);
    for (long cut = size - 1; cut > starts.get(19); cut--) {
      try (RandomAccessFile f = new RandomAccessFile(seg.toFile(), "rw")) {
        f.setLength(cut);
      }
      assertEquals(19, replay().size(), "cut at " + cut);
      assertEquals(starts.get(19).longValue(), Files.size(seg), "truncated to the whole records");
      write(0); // keeps the test simple: a fresh segment is written after each replay
      Files.delete(WalReader.segments(FS, dir).get(1));
      try (RandomAccessFile f = new RandomAccessFile(seg.toFile(), "rw")) {
        f.setLength(size); // zero-extended: also a torn tail
      }
      assertEquals(19, replay().size());
    }
  }

  @Test
  void aMissingSegmentIsCorruption() throws IOException {
    for (int i = 0; i < 3; i++) {
      write(3);
    }
    List<Path> segs = WalReader.segments(FS, dir);
    assertEquals(3, segs.size());
    Files.delete(segs.get(1));
    CorruptionException e = assertThrows(CorruptionException.class, this::replay);
    assertTrue(e.getMessage().contains("missing"), e.getMessage());
  }

  @Test
  void salvageKeepsEveryIntactRecordAndSetsTheDamageAside() throws IOException {
    List<Long> starts = write(100);
    Path seg = segment();
    flip(seg, starts.get(40) + 2, 0x80); // record #41's length
    flip(seg, starts.get(70) + 20, 0x01); // record #71's payload
    assertThrows(CorruptionException.class, this::replay);
    List<WalReader.Salvaged> s = WalReader.salvage(FS, dir);
    assertEquals(1, s.size());
    assertEquals(starts.get(40).longValue(), s.get(0).firstDamageOffset());
    assertTrue(Files.exists(seg.resolveSibling(seg.getFileName() + ".damaged")));
    List<WalEdit> kept = replay();
    assertEquals(98, kept.size());
    assertTrue(kept.stream().noneMatch(e -> e.sequenceId() == 41 || e.sequenceId() == 71));
  }

  @Test
  void versionOneSegmentsAreStillRead() throws IOException {
    // a segment as the first release wrote it: 8-byte record headers, CRC over length+payload
    ByteWriter w = new ByteWriter(1024);
    w.putLong(WalFormat.MAGIC).putInt(1).putInt(0);
    for (int i = 1; i <= 3; i++) {
      ByteWriter payload = new ByteWriter(64);
      edit(i).encode(payload);
      byte[] len = {0, 0, 0, (byte) payload.size()};
      CRC32C crc = new CRC32C();
      crc.update(len);
      crc.update(payload.array(), 0, payload.size());
      w.put(len, 0, 4).putInt((int) crc.getValue()).put(payload.array(), 0, payload.size());
    }
    Files.write(dir.resolve(WalFormat.segmentName(1)), w.toByteArray());
    List<WalEdit> edits = replay();
    assertEquals(3, edits.size());
    assertEquals(edit(2).cells(), edits.get(1).cells());
    write(2); // appends go to a new version-2 segment; both replay
    assertEquals(5, replay().size());
  }
}
