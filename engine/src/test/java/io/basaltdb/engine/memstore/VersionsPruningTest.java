package io.basaltdb.engine.memstore;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.basaltdb.storage.Cell;
import io.basaltdb.storage.CellType;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The pruning rule of a one-version family's column ({@link Versions.Pruning}): after the first
 * put at or below the settled point, the cells at or below it go; markers and puts before that
 * put stay, and so does a later cell above the point; a registered reader lowers the point;
 * too many readers stop pruning; a column of two cells reads no point at all.
 */
class VersionsPruningTest {
  private static final byte[] ROW = {'r'};
  private static final byte[] FAMILY = {'f'};
  private static final byte[] QUALIFIER = {'q'};

  private static Cell cell(long ts, CellType type, long seq) {
    return new Cell(ROW, FAMILY, QUALIFIER, ts, type, seq, new byte[] {(byte) seq});
  }

  private static Cell put(long ts, long seq) {
    return cell(ts, CellType.PUT, seq);
  }

  /** The column's value after adding {@code cells} in order, unpruned. */
  private static Object column(Cell... cells) {
    Object v = null;
    for (Cell c : cells) {
      v = Versions.with(v, c);
    }
    return v;
  }

  /** The sequence ids of a column's cells, in the column's order. */
  private static List<Long> seqs(Object value) {
    List<Long> out = new ArrayList<>();
    for (Versions.Node n = Versions.chain(value); n != null; n = n.next) {
      out.add(n.cell.sequenceId());
    }
    return out;
  }

  private static Versions.Pruning pruning(long settled, ReaderPoints readers) {
    return new Versions.Pruning(() -> settled, readers);
  }

  @Test
  void everythingAfterTheFirstSettledPutGoes() {
    Object v = column(put(1, 1), put(2, 2), put(3, 3), put(4, 4), put(5, 5), put(6, 6));
    Versions.Pruning p = pruning(5, new ReaderPoints());
    assertEquals(List.of(6L, 5L), seqs(p.apply(v)), "the write in flight and the settled put");
    assertEquals(4, p.cells);
    assertEquals(4 * put(1, 1).heapSize(), p.bytes);
  }

  @Test
  void aLowerPointKeepsMore() {
    Object v = column(put(1, 1), put(2, 2), put(3, 3), put(4, 4), put(5, 5), put(6, 6));
    assertEquals(List.of(6L, 5L, 4L, 3L), seqs(pruning(3, new ReaderPoints()).apply(v)));
  }

  @Test
  void aMarkerBeforeTheSettledPutKeepsTheColumn() {
    // newest first: the put in flight, a column delete, a version delete, then two puts
    Object v = column(put(1, 1), put(2, 2), cell(3, CellType.DELETE, 3),
        cell(4, CellType.DELETE_COLUMN, 4), put(5, 5));
    assertEquals(List.of(5L, 4L, 3L, 2L, 1L), seqs(pruning(4, new ReaderPoints()).apply(v)));
    // a family delete at 1141211 (seq 2) hides the put at 1138812 (seq 1), not the older
    // put at 1128747 written after it (seq 3): RandomModelTest, seed 7284834112483
    Object w = column(new Cell(ROW, FAMILY, new byte[0], 1138812, CellType.PUT, 1, new byte[1]),
        new Cell(ROW, FAMILY, new byte[0], 1141211, CellType.DELETE_FAMILY, 2, new byte[0]),
        new Cell(ROW, FAMILY, new byte[0], 1128747, CellType.PUT, 3, new byte[1]),
        new Cell(ROW, FAMILY, new byte[0], 1144153, CellType.PUT, 4, new byte[1]));
    assertEquals(List.of(4L, 2L, 1L, 3L), seqs(pruning(3, new ReaderPoints()).apply(w)));
  }

  /**
   * A family delete in another column (the empty qualifier's) may hide a column's settled put
   * and spare an older put written after the delete: a memstore holding a family marker
   * prunes nothing.
   */
  @Test
  void aFamilyMarkerInTheMemstoreStopsItsPruning() {
    MemStore m = new MemStore();
    java.util.function.LongSupplier settled = () -> 10;
    m.add(put(100, 1), settled);
    m.add(new Cell(ROW, FAMILY, new byte[0], 200, CellType.DELETE_FAMILY, 2, new byte[0]),
        settled);
    m.add(put(50, 3), settled); // not hidden by the delete: written after it
    m.add(put(10, 4), settled);
    m.add(put(5, 5), settled);
    assertEquals(0, m.prunedCells(), "the put at 50 is what a read returns");
    assertEquals(5, m.cellCount());
  }

  /**
   * A family delete of another row leaves this row's pruning alone (a table that sees DELETEs
   * keeps pruning its rewritten rows); a family delete of this row, added later, stops it.
   */
  @Test
  void onlyTheRowsOwnFamilyMarkersStopItsPruning() {
    MemStore m = new MemStore();
    java.util.function.LongSupplier settled = () -> 10;
    byte[] other = {'q'};
    m.add(new Cell(other, FAMILY, new byte[0], 200, CellType.DELETE_FAMILY, 1, new byte[0]),
        settled);
    m.add(put(100, 2), settled);
    m.add(put(110, 3), settled);
    m.add(put(120, 4), settled); // settled: 4; the puts at 110 and 100 behind it go
    assertEquals(2, m.prunedCells(), "another row's family delete hides nothing here");
    m.add(new Cell(ROW, FAMILY, new byte[0], 300, CellType.DELETE_FAMILY, 5, new byte[0]),
        settled);
    m.add(put(50, 6), settled); // not hidden by the delete: written after it
    m.add(put(10, 7), settled);
    assertEquals(2, m.prunedCells(), "the put at 50 is what a read returns");
    assertEquals(5, m.cellCount());
  }

  @Test
  void familyMarkersAfterTheSettledPutStay() {
    // the empty qualifier's column: its puts and the family's markers, which cover the puts of
    // the family's other columns (RandomModelTest, seed 90287525874169, lost one in a flush)
    byte[] none = {};
    Object v = null;
    for (Cell c : List.of(new Cell(ROW, FAMILY, none, 100, CellType.PUT, 1, new byte[] {1}),
        new Cell(ROW, FAMILY, none, 90, CellType.DELETE_FAMILY, 2, new byte[0]),
        new Cell(ROW, FAMILY, none, 80, CellType.DELETE_FAMILY_VERSION, 3, new byte[0]),
        new Cell(ROW, FAMILY, none, 70, CellType.DELETE, 4, new byte[0]),
        new Cell(ROW, FAMILY, none, 60, CellType.PUT, 5, new byte[] {5}),
        new Cell(ROW, FAMILY, none, 200, CellType.PUT, 6, new byte[] {6}))) {
      v = Versions.with(v, c);
    }
    Versions.Pruning p = pruning(5, new ReaderPoints());
    // newest first: the put in flight (6), the settled put (1), then the two family markers;
    // the column's own delete (4) and older put (5) go
    assertEquals(List.of(6L, 1L, 2L, 3L), seqs(p.apply(v)));
    assertEquals(2, p.cells);
  }

  @Test
  void aLaterCellAboveThePointStays() {
    // written with an older timestamp after the settled put: a write conflict to find
    Object v = column(put(5, 1), put(20, 2), put(10, 6), put(30, 7));
    Versions.Pruning p = pruning(5, new ReaderPoints());
    assertEquals(List.of(7L, 2L, 6L), seqs(p.apply(v)), "ts 30, 20, 10: only ts 5 goes");
    assertEquals(1, p.cells);
  }

  @Test
  void nothingSettledNothingGoes() {
    Object v = column(put(1, 4), put(2, 5), put(3, 6));
    assertSame(v, pruning(3, new ReaderPoints()).apply(v));
    Object markers = column(cell(1, CellType.DELETE_COLUMN, 1), cell(2, CellType.DELETE, 2),
        put(3, 3));
    assertSame(markers, pruning(2, new ReaderPoints()).apply(markers), "no settled put");
  }

  @Test
  void aRegisteredReaderLowersThePointUntilItLeaves() {
    Object v = column(put(1, 1), put(2, 2), put(3, 3), put(4, 4), put(5, 5), put(6, 6));
    ReaderPoints readers = new ReaderPoints();
    int token = readers.enter(2);
    assertEquals(List.of(6L, 5L, 4L, 3L, 2L), seqs(pruning(5, readers).apply(v)));
    readers.exit(token);
    assertEquals(List.of(6L, 5L), seqs(pruning(5, readers).apply(v)));
  }

  @Test
  void readersPastTheSlotsStopPruning() {
    Object v = column(put(1, 1), put(2, 2), put(3, 3));
    ReaderPoints readers = new ReaderPoints();
    List<Integer> tokens = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      tokens.add(readers.enter(10));
    }
    assertSame(v, pruning(5, readers).apply(v));
    tokens.forEach(readers::exit);
    assertEquals(Long.MAX_VALUE, readers.lowest(), "every reader left");
    assertEquals(List.of(3L), seqs(pruning(5, readers).apply(v)));
  }

  @Test
  void aColumnOfTwoCellsReadsNoPoint() {
    AtomicInteger reads = new AtomicInteger();
    Versions.Pruning p = new Versions.Pruning(() -> {
      reads.incrementAndGet();
      return 10;
    }, new ReaderPoints());
    Object two = column(put(1, 1), put(2, 2));
    assertSame(two, p.apply(two));
    assertEquals(0, reads.get());
    Object three = column(put(1, 1), put(2, 2), put(3, 3));
    p.apply(three);
    p.apply(three); // a retry of the same add
    assertEquals(1, reads.get(), "the point is read once per add");
  }
}
