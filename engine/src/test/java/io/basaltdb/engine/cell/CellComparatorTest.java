package io.basaltdb.engine.cell;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.basaltdb.storage.Cell;
import io.basaltdb.storage.CellType;
import io.basaltdb.engine.Seeds;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The comparator's row order, which decides by the cells' 8-byte row prefixes when they differ,
 * is the unsigned lexicographic order of the row bytes: checked on random short rows rich in
 * zero bytes and common prefixes (where zero padding could mislead), against the arrays.
 */
class CellComparatorTest {
  private static final byte[] F = {'f'};

  private static byte[] row(Random r) {
    byte[] b = new byte[r.nextInt(13)];
    for (int i = 0; i < b.length; i++) {
      int k = r.nextInt(4);
      b[i] = (byte) (k == 0 ? 0 : k == 1 ? 0xff : k == 2 ? 'a' : r.nextInt(256));
    }
    return b;
  }

  private static Cell cell(byte[] row) {
    return new Cell(row, F, new byte[] {'q'}, 1, CellType.PUT, 1, null);
  }

  @Test
  void rowsOrderAsTheirUnsignedBytes() {
    long seed = Seeds.seed("CellComparatorTest");
    Random r = new Random(seed);
    for (int i = 0; i < 200_000; i++) {
      byte[] a = row(r);
      byte[] b = r.nextInt(4) == 0 ? Arrays.copyOf(a, r.nextInt(a.length + 2)) : row(r);
      int expected = Integer.signum(Arrays.compareUnsigned(a, b));
      assertEquals(expected, Integer.signum(CellComparator.INSTANCE.compare(cell(a), cell(b))),
          Arrays.toString(a) + " vs " + Arrays.toString(b) + " (seed=" + seed + ")");
    }
  }
}
