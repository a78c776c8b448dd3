package io.basaltdb.engine.file;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basaltdb.storage.BloomType;
import io.basaltdb.storage.Cell;
import io.basaltdb.storage.CellType;
import io.basaltdb.storage.Compression;
import io.basaltdb.storage.CorruptionException;
import io.basaltdb.engine.cache.BlockCache;
import io.basaltdb.engine.cell.CellComparator;
import io.basaltdb.engine.cell.CellIterator;
import io.basaltdb.engine.io.NioFileSystem;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Round trips of the block file: blocks, restarts, multi-level index, LZ4, bloom. */
class BlockFileTest {
  static final byte[] FAM = "f".getBytes(StandardCharsets.UTF_8);

  @TempDir Path tmp;

  static List<Cell> randomCells(Random rnd, int n) {
    TreeSet<Cell> set = new TreeSet<>(CellComparator.INSTANCE);
    CellType[] types = CellType.values();
    while (set.size() < n) {
      byte[] row = String.format("row%06d", rnd.nextInt(n)).getBytes(StandardCharsets.UTF_8);
      byte[] q = ("q" + rnd.nextInt(8)).getBytes(StandardCharsets.UTF_8);
      byte[] v = new byte[rnd.nextInt(40)];
      rnd.nextBytes(v);
      CellType t = types[rnd.nextInt(types.length)];
      set.add(new Cell(row, FAM, t.isFamilyMarker() ? new byte[0] : q, rnd.nextInt(1000), t,
          rnd.nextInt(100000), t == CellType.PUT ? v : new byte[0]));
    }
    return new ArrayList<>(set);
  }

  private BlockFileReader write(Path p, List<Cell> cells, WriterOptions o) {
    try (BlockFileWriter w = new BlockFileWriter(NioFileSystem.INSTANCE, p, FAM, o, 42)) {
      for (Cell c : cells) {
        w.append(c);
      }
      w.finish();
    }
    return BlockFileReader.open(NioFileSystem.INSTANCE, p, new BlockCache(1 << 20));
  }

  @ParameterizedTest
  @CsvSource({"1024,LZ4", "1024,NONE", "65536,LZ4", "4096,NONE"})
  void roundTripAndSeek(int blockSize, Compression compression) {
    long seed = io.basaltdb.engine.Seeds.seed("BlockFileTest.roundTripAndSeek");
    Random rnd = new Random(seed);
    List<Cell> cells = randomCells(rnd, 20000);
    BlockFileReader r = write(tmp.resolve("a.blk"), cells,
        new WriterOptions(blockSize, compression, BloomType.ROWCOL, 0.01));
    if (blockSize == 1024) {
      assertTrue(r.indexLevels() >= 2, "small blocks must give a multi-level index, got "
          + r.indexLevels() + " levels for " + r.dataBlockCount() + " blocks");
    }
    assertEquals(cells.size(), r.info().cellCount());
    assertEquals(cells.get(0), withValue(r.info().firstCell(), cells.get(0)));
    assertEquals(cells.get(cells.size() - 1),
        withValue(r.info().lastCell(), cells.get(cells.size() - 1)));
    TreeSet<Cell> sorted = new TreeSet<>(CellComparator.INSTANCE);
    sorted.addAll(cells);
    CellIterator it = r.scanner();
    it.seekToFirst();
    for (Cell c : cells) {
      assertEquals(c, it.current());
      it.next();
    }
    assertNull(it.current());
    // cells handed out stay as they were while the scanner's cursors move to other blocks
    // (a scanner reuses its cursors and their buffers; the cells share none of them)
    List<Cell[]> handedOut = new ArrayList<>();
    for (int i = 0; i < 2000; i++) {
      int k = rnd.nextInt(cells.size());
      it.seek(cells.get(k));
      assertEquals(cells.get(k), it.current(), "seek to an existing cell, seed=" + seed);
      handedOut.add(new Cell[] {it.current(), cells.get(k)});
      for (int j = k + 1; j < Math.min(cells.size(), k + 200); j++) {
        it.next();
        assertEquals(cells.get(j), it.current(), "next after seek, seed=" + seed);
      }
      Cell probe = CellComparator.firstOnRow(cells.get(k).row(), FAM);
      it.seek(probe);
      Cell expected = sorted.ceiling(probe);
      assertEquals(expected, it.current(), "seek to a row start, seed=" + seed);
    }
    for (Cell[] pair : handedOut) {
      assertEquals(pair[1], pair[0], "a cell changed after its scanner moved on, seed=" + seed);
    }
    // forward seeks of every distance: a hop of a few cells, further inside the same block,
    // into a later block; to cells and to row starts between them
    CellIterator fwd = r.scanner();
    fwd.seekToFirst();
    for (int k = 0; k < cells.size(); k += 1 + rnd.nextInt(rnd.nextBoolean() ? 12 : 3000)) {
      Cell target = rnd.nextBoolean() ? cells.get(k)
          : CellComparator.firstOnRow(cells.get(k).row(), FAM);
      fwd.seek(target);
      assertEquals(sorted.ceiling(target), fwd.current(), "forward seek, seed=" + seed);
    }
    Cell past = CellComparator.firstOnRow("zzz".getBytes(StandardCharsets.UTF_8), FAM);
    fwd.seek(past);
    assertNull(fwd.current());
    it.seek(past);
    assertNull(it.current());
    r.close();
  }

  private static Cell withValue(Cell key, Cell original) {
    return new Cell(key.row(), key.family(), key.qualifier(), key.timestamp(), key.type(),
        key.sequenceId(), original.value());
  }

  @Test
  void bloomFalsePositiveRateWithinTwiceTarget() {
    double target = 0.01;
    List<Cell> cells = new ArrayList<>();
    for (int i = 0; i < 50000; i++) {
      cells.add(Cell.put(String.format("key%08d", i * 2).getBytes(StandardCharsets.UTF_8), FAM,
          "q".getBytes(StandardCharsets.UTF_8), 1, new byte[] {1}).stamped(1, 1));
    }
    BlockFileReader r = write(tmp.resolve("b.blk"), cells,
        new WriterOptions(65536, Compression.LZ4, BloomType.ROW, target));
    for (Cell c : cells) {
      assertTrue(r.mightContainRow(c.row()), "no false negatives");
    }
    int fp = 0;
    int probes = 100000;
    for (int i = 0; i < probes; i++) {
      if (r.mightContainRow(String.format("key%08d", i * 2 + 1).getBytes(StandardCharsets.UTF_8))) {
        fp++;
      }
    }
    double rate = fp / (double) probes;
    System.out.println("bloom false-positive rate " + rate + " (target " + target + ")");
    assertTrue(rate <= 2 * target, "false-positive rate " + rate + " > 2 x " + target);
    assertTrue(rate > 0, "a real filter has some false positives at this size");
    r.close();
  }

  @Test
  void rowColBloomTellsColumnsApart() {
    List<Cell> cells = new ArrayList<>();
    for (int i = 0; i < 1000; i++) {
      cells.add(Cell.put(String.format("r%05d", i).getBytes(StandardCharsets.UTF_8), FAM,
          "present".getBytes(StandardCharsets.UTF_8), 1, new byte[0]).stamped(1, 1));
    }
    BlockFileReader r = write(tmp.resolve("c.blk"), cells,
        new WriterOptions(4096, Compression.NONE, BloomType.ROWCOL, 0.01));
    int hits = 0;
    for (int i = 0; i < 1000; i++) {
      byte[] row = String.format("r%05d", i).getBytes(StandardCharsets.UTF_8);
      assertTrue(r.mightContainColumn(row, "present".getBytes(StandardCharsets.UTF_8)));
      if (r.mightContainColumn(row, "absent".getBytes(StandardCharsets.UTF_8))) {
        hits++;
      }
    }
    assertTrue(hits < 50, "absent columns mostly rejected, got " + hits + "/1000");
    r.close();
  }

  @Test
  void outOfOrderAppendIsRefused() {
    List<Cell> cells = randomCells(new Random(1), 10);
    try (BlockFileWriter w = new BlockFileWriter(NioFileSystem.INSTANCE, tmp.resolve("d.blk"), FAM, WriterOptions.DEFAULT, 1)) {
      w.append(cells.get(5));
      assertThrows(IllegalStateException.class, () -> w.append(cells.get(2)));
    }
  }

  @Test
  void missingFileIsNamed() {
    CorruptionException e = assertThrows(CorruptionException.class,
        () -> BlockFileReader.open(NioFileSystem.INSTANCE, tmp.resolve("nope.blk"), new BlockCache(0)));
    assertTrue(e.getMessage().contains("nope.blk"), e.getMessage());
  }
}
