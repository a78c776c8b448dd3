package io.basaltdb.engine.memstore;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basaltdb.storage.Cell;
import io.basaltdb.storage.CellType;
import io.basaltdb.engine.Seeds;
import io.basaltdb.engine.cell.CellComparator;
import io.basaltdb.engine.cell.CellIterator;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.NavigableSet;
import java.util.Random;
import java.util.TreeSet;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * The memstore against a model, a sorted set of cells in {@link CellComparator} order (what it
 * was before columns and version chains): the same cells in the same order, and every seek,
 * step, row lookup and count agrees, over seeded random cells from small domains (so columns
 * collide, versions pile up, delete markers sort among puts, and rows are prefixes of each
 * other), with rows found through the row index or, as wide rows are, through the skip list;
 * and iterations while writers add see every cell added before they began, in order.
 */
class MemStoreModelTest {
  private static final byte[][] ROWS = {bytes(), bytes(0), bytes('a'), bytes('a', 0),
      bytes('a', 'b'), bytes('b'), bytes(0xff), bytes(0xff, 0xff), bytes('a', 'b', 'c', 'd', 'e',
      'f', 'g', 'h'), bytes('a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i')};
  private static final byte[][] FAMILIES = {bytes('f'), bytes('g')};
  private static final byte[][] QUALIFIERS = {bytes(), bytes('q'), bytes('q', 0), bytes('r')};

  private static byte[] bytes(int... b) {
    byte[] out = new byte[b.length];
    for (int i = 0; i < b.length; i++) {
      out[i] = (byte) b[i];
    }
    return out;
  }

  private static Cell randomCell(Random r) {
    return randomCell(r, FAMILIES.length);
  }

  /** A cell of one of the first {@code families} families (one: as in a store's memstore). */
  private static Cell randomCell(Random r, int families) {
    CellType type = CellType.values()[r.nextInt(CellType.values().length)];
    long ts = r.nextInt(10) == 0 ? Long.MAX_VALUE - 1 : r.nextInt(6);
    return new Cell(ROWS[r.nextInt(ROWS.length)], FAMILIES[r.nextInt(families)],
        QUALIFIERS[r.nextInt(QUALIFIERS.length)], ts, type, 1 + r.nextInt(40), bytes(1));
  }

  /** A seek target: a cell, or the first/last possible cell of a row or column. */
  private static Cell randomTarget(Random r) {
    byte[] row = ROWS[r.nextInt(ROWS.length)];
    byte[] family = FAMILIES[r.nextInt(FAMILIES.length)];
    byte[] qualifier = QUALIFIERS[r.nextInt(QUALIFIERS.length)];
    return switch (r.nextInt(4)) {
      case 0 -> CellComparator.firstOnRow(row, family);
      case 1 -> CellComparator.firstOnColumn(row, family, qualifier);
      case 2 -> CellComparator.lastOnColumn(row, family, qualifier);
      default -> randomCell(r);
    };
  }

  @Test
  void agreesWithASortedSetOfCells() {
    long seed = Seeds.seed("MemStoreModelTest.agreesWithASortedSetOfCells");
    Random r = new Random(seed);
    for (int round = 0; round < 40; round++) {
      // rows of more than 2 columns left to the skip list in odd rounds, as wide rows are
      MemStore m = round % 2 == 0 ? new MemStore() : new MemStore(2);
      // one family in half the rounds, as a store's memstore holds (reads still ask others)
      int families = round % 4 < 2 ? FAMILIES.length : 1;
      NavigableSet<Cell> model = new TreeSet<>(CellComparator.INSTANCE);
      int ops = 1 + r.nextInt(round < 10 ? 20 : 600);
      for (int i = 0; i < ops; i++) {
        if (r.nextInt(8) == 0 && !model.isEmpty()) {
          Cell gone = r.nextBoolean() ? randomCell(r) : pick(model, r);
          model.remove(gone);
          m.remove(gone);
        } else {
          Cell c = randomCell(r, families);
          model.add(c);
          m.add(c);
        }
      }
      String at = "seed " + seed + " round " + round;
      agree(m, model, r, at);
      // frozen (no more writes), the same answers come from its sorted arrays
      m.freeze();
      assertTrue(m.isFrozen(), at);
      agree(m, model, r, at + " frozen");
      Cell more = randomCell(r);
      assertThrows(IllegalStateException.class, () -> m.add(more), at);
      if (!model.isEmpty()) { // nothing is taken back from it either
        Cell held = pick(model, r);
        assertThrows(IllegalStateException.class, () -> m.remove(held), at);
        assertEquals(new ArrayList<>(model), all(m), at);
      }
    }
  }

  /** Every answer of {@code m} agrees with the model's: contents, counts, row look-ups, seeks. */
  private static void agree(MemStore m, NavigableSet<Cell> model, Random r, String at) {
    assertEquals(new ArrayList<>(model), all(m), at);
    assertEquals(model.size(), m.cellCount(), at);
    assertEquals(model.isEmpty(), m.isEmpty(), at);
    assertSame(model.isEmpty() ? null : model.last().row(), m.lastRow(), at);
    for (int i = 0; i < 50; i++) {
      byte[] row = ROWS[r.nextInt(ROWS.length)];
      byte[] family = FAMILIES[r.nextInt(FAMILIES.length)];
      Cell lower = model.lower(CellComparator.firstOnRow(row, family));
      assertTrue(Arrays.equals(lower == null ? null : lower.row(), m.lastRowBefore(row, family)),
          at + " lastRowBefore");
      Cell target = randomTarget(r);
      CellIterator atRow = m.iteratorAtRow(row, target);
      Cell ceiling = model.ceiling(target);
      if (ceiling != null && Arrays.equals(ceiling.row(), row)) {
        assertSame(ceiling, atRow.current(), at + " iteratorAtRow");
      } else {
        assertNull(atRow, at + " iteratorAtRow");
      }
    }
    walk(m, model, r, at);
  }

  /** Random seeks and steps on one cursor, each compared with the model's answer. */
  private static void walk(MemStore m, NavigableSet<Cell> model, Random r, String at) {
    CellIterator it = m.iterator();
    it.seekToFirst();
    Cell expected = model.isEmpty() ? null : model.first();
    for (int i = 0; i < 400; i++) {
      assertSame(expected, it.current(), at + " step " + i);
      if (r.nextInt(3) == 0) {
        Cell target = randomTarget(r);
        it.seek(target);
        expected = model.ceiling(target);
      } else if (expected != null) {
        it.next();
        expected = model.higher(expected);
      } else {
        it.seekToFirst();
        expected = model.isEmpty() ? null : model.first();
      }
    }
  }

  private static List<Cell> all(MemStore m) {
    List<Cell> out = new ArrayList<>();
    m.cells().forEach(out::add);
    return out;
  }

  private static Cell pick(NavigableSet<Cell> model, Random r) {
    int n = r.nextInt(model.size());
    for (Cell c : model) {
      if (n-- == 0) {
        return c;
      }
    }
    throw new AssertionError();
  }

  @Test
  void aReaderSeesEveryCellAddedBeforeItBeganInOrderWhileWritersAdd() throws Exception {
    long seed = Seeds.seed("MemStoreModelTest.aReaderSeesEveryCellAddedBeforeItBegan");
    MemStore m = new MemStore();
    List<Cell> added = new CopyOnWriteArrayList<>();
    AtomicInteger sequence = new AtomicInteger();
    AtomicReference<Throwable> failed = new AtomicReference<>();
    long end = System.nanoTime() + 1_000_000_000L;
    List<Thread> threads = new ArrayList<>();
    for (int w = 0; w < 2; w++) {
      Random r = new Random(seed + w);
      threads.add(new Thread(() -> {
        while (System.nanoTime() < end) {
          Cell c = new Cell(ROWS[r.nextInt(3)], FAMILIES[0], QUALIFIERS[1 + r.nextInt(2)],
              r.nextInt(3), CellType.PUT, sequence.incrementAndGet(), bytes(1));
          m.add(c);
          added.add(c);
        }
      }));
    }
    for (int t = 0; t < 2; t++) {
      threads.add(new Thread(() -> {
        try {
          while (System.nanoTime() < end) {
            List<Cell> before = new ArrayList<>(added);
            List<Cell> seen = all(m);
            for (int i = 1; i < seen.size(); i++) {
              assertTrue(CellComparator.INSTANCE.compare(seen.get(i - 1), seen.get(i)) < 0,
                  "out of order at " + i);
            }
            NavigableSet<Cell> set = new TreeSet<>(CellComparator.INSTANCE);
            set.addAll(seen);
            for (Cell c : before) {
              assertTrue(set.contains(c), "a cell added before the iteration is missing: " + c);
            }
          }
        } catch (Throwable e) {
          failed.compareAndSet(null, e);
        }
      }));
    }
    threads.forEach(Thread::start);
    for (Thread t : threads) {
      t.join();
    }
    assertNull(failed.get(), "seed " + seed);
    assertEquals(added.size(), all(m).size());
    assertEquals(added.size(), m.cellCount());
  }

  /**
   * Writers racing to create the same columns of the same rows (and to push a row past the
   * index's width): every cell whose add returned is found by a read of its row.
   */
  @Test
  void aRowReadFindsEveryCellAddedBeforeItWhileWritersCreateColumns() throws Exception {
    long seed = Seeds.seed("MemStoreModelTest.aRowReadFindsEveryCellAdded");
    for (int width : new int[] {MemStore.INDEXED_COLUMNS, 3}) {
      MemStore m = new MemStore(width);
      List<Cell> added = new CopyOnWriteArrayList<>();
      AtomicInteger sequence = new AtomicInteger();
      AtomicReference<Throwable> failed = new AtomicReference<>();
      long end = System.nanoTime() + 500_000_000L;
      List<Thread> threads = new ArrayList<>();
      for (int w = 0; w < 2; w++) {
        Random r = new Random(seed + w);
        threads.add(new Thread(() -> {
          while (System.nanoTime() < end) {
            Cell c = new Cell(ROWS[r.nextInt(ROWS.length)], FAMILIES[0],
                bytes('q', r.nextInt(6)), r.nextInt(3), CellType.PUT,
                sequence.incrementAndGet(), bytes(1));
            m.add(c);
            added.add(c);
          }
        }));
      }
      Random pick = new Random(seed - 1);
      threads.add(new Thread(() -> {
        try {
          while (System.nanoTime() < end) {
            if (added.isEmpty()) {
              continue;
            }
            Cell c = added.get(pick.nextInt(added.size()));
            CellIterator it = m.iteratorAtRow(c.row(), CellComparator.firstOnRow(c.row(),
                c.family()));
            boolean found = false;
            for (Cell at = it == null ? null : it.current(); at != null
                && Arrays.equals(at.row(), c.row()); it.next(), at = it.current()) {
              found |= at.equals(c); // the same cell, its key arrays the column's
            }
            assertTrue(found, "a cell added before the read is missing: " + c);
          }
        } catch (Throwable e) {
          failed.compareAndSet(null, e);
        }
      }));
      threads.forEach(Thread::start);
      for (Thread t : threads) {
        t.join();
      }
      assertNull(failed.get(), "seed " + seed + " width " + width);
      assertEquals(added.size(), m.cellCount());
    }
  }
}
