package io.basaltdb.engine.memstore;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.basaltdb.engine.Seeds;
import io.basaltdb.engine.cell.CellComparator;
import io.basaltdb.storage.Cell;
import io.basaltdb.storage.CellType;
import java.util.Random;
import java.util.concurrent.ConcurrentSkipListMap;
import org.junit.jupiter.api.Test;

/**
 * A frozen memstore's search against a linear one: for seeded random columns, enough of them
 * that the sampled first step matters (rows of 0 to 24 bytes that share their first eight or
 * sixteen bytes in long runs, are prefixes of each other or end in zero bytes, in one family or
 * two), every target (a row's first cell, a column's first or last, a cell) is found at the
 * first column at or after it.
 */
class FrozenColumnsTest {
  private static final byte[][] FAMILIES = {{'f'}, {'g'}};
  private static final byte[][] QUALIFIERS = {{}, {'q'}, {'q', 0}, {'r'}};

  @Test
  void searchFindsTheFirstColumnAtOrAfterTheTarget() {
    long seed = Seeds.seed("FrozenColumnsTest.searchFindsTheFirstColumnAtOrAfterTheTarget");
    Random r = new Random(seed);
    for (int round = 0; round < 30; round++) {
      int families = 1 + round % 2;
      ConcurrentSkipListMap<Cell, Object> columns =
          new ConcurrentSkipListMap<>(MemStore::compareColumns);
      int n = round < 3 ? round * 17 : 1 + r.nextInt(5_000);
      for (int i = 0; i < n; i++) {
        Cell c = randomCell(r, families);
        columns.put(c, c);
      }
      FrozenColumns frozen = FrozenColumns.of(columns);
      Cell[] keys = columns.keySet().toArray(new Cell[0]);
      assertEquals(keys.length, frozen.size());
      for (int t = 0; t < 2_000; t++) {
        Cell target = randomTarget(r, families);
        int expected = 0;
        while (expected < keys.length && MemStore.compareColumns(keys[expected], target) < 0) {
          expected++;
        }
        assertEquals(expected, frozen.search(target),
            () -> "round with " + keys.length + " columns, target " + target);
      }
    }
  }

  /** Rows from a few prefixes of 0, 8 and 16 bytes, so long runs share their numbers. */
  private static byte[] randomRow(Random r) {
    int shared = new int[] {0, 8, 16}[r.nextInt(3)];
    int length = shared + r.nextInt(9) - (shared == 0 ? 0 : r.nextInt(4));
    byte[] row = new byte[Math.max(0, length)];
    for (int i = 0; i < row.length; i++) {
      row[i] = i < shared ? (byte) ('a' + (shared == 16 && i == 3 ? 1 : 0))
          : (byte) new int[] {0, 1, 'm', 0xff}[r.nextInt(4)];
    }
    return row;
  }

  private static Cell randomCell(Random r, int families) {
    return new Cell(randomRow(r), FAMILIES[r.nextInt(families)],
        QUALIFIERS[r.nextInt(QUALIFIERS.length)], r.nextInt(6), CellType.PUT, 1, new byte[] {1});
  }

  private static Cell randomTarget(Random r, int families) {
    byte[] row = randomRow(r);
    byte[] family = FAMILIES[r.nextInt(families)];
    byte[] qualifier = QUALIFIERS[r.nextInt(QUALIFIERS.length)];
    return switch (r.nextInt(4)) {
      case 0 -> CellComparator.firstOnRow(row, family);
      case 1 -> CellComparator.firstOnColumn(row, family, qualifier);
      case 2 -> CellComparator.lastOnColumn(row, family, qualifier);
      default -> randomCell(r, families);
    };
  }
}
