package io.basaltdb.sql.exec.read;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basaltdb.sql.pushdown.KeyRange;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Whether a scan's ranges lie in one region, told from the regions' start rows alone. */
class RegionSplitsTest {
  private static final List<byte[]> STARTS = List.of(b(), b(10), b(20)); // [,10) [10,20) [20,)

  private static byte[] b(int... v) {
    byte[] out = new byte[v.length];
    for (int i = 0; i < v.length; i++) {
      out[i] = (byte) v[i];
    }
    return out;
  }

  private static KeyRange range(byte[] start, byte[] stop) {
    return new KeyRange(start, stop);
  }

  @Test
  void rangesInsideOneRegion() {
    assertTrue(RegionSplits.withinOneRegion(List.of(b()), List.of(KeyRange.ALL)), "one region");
    assertTrue(RegionSplits.withinOneRegion(STARTS, List.of(range(b(11), b(15)))));
    assertTrue(RegionSplits.withinOneRegion(STARTS, List.of(range(b(10), b(20)))),
        "a stop is exclusive: up to the next region's start");
    assertTrue(RegionSplits.withinOneRegion(STARTS, List.of(range(b(), b(3)),
        range(b(5), b(9)))), "two ranges of the first region");
    assertTrue(RegionSplits.withinOneRegion(STARTS, List.of(range(b(25), b()))),
        "unbounded in the last region");
    assertTrue(RegionSplits.withinOneRegion(STARTS, List.of(range(b(15), b(12)))),
        "an empty range lies nowhere");
  }

  @Test
  void rangesOverSeveralRegions() {
    assertFalse(RegionSplits.withinOneRegion(STARTS, List.of(KeyRange.ALL)));
    assertFalse(RegionSplits.withinOneRegion(STARTS, List.of(range(b(15), b(20, 0)))),
        "past the region's end");
    assertFalse(RegionSplits.withinOneRegion(STARTS, List.of(range(b(15), b()))),
        "unbounded in a middle region");
    assertFalse(RegionSplits.withinOneRegion(STARTS, List.of(range(b(1), b(2)),
        range(b(21), b(22)))), "two ranges of two regions");
  }
}
