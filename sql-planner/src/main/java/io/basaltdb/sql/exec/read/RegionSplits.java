package io.basaltdb.sql.exec.read;

import io.basaltdb.sql.pushdown.KeyRange;
import io.basaltdb.storage.RegionInfo;
import io.basaltdb.storage.Storage;
import io.basaltdb.storage.TableName;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A scan's key ranges cut at the table's region boundaries, region by region in key order,
 * with the cells of each region (an estimate of the work): the unit of parallel region scans
 * and per-region aggregation.
 *
 * @param ranges per region touched, its part of the ranges
 * @param cells per region touched, its cell count
 */
record RegionSplits(List<List<KeyRange>> ranges, List<Long> cells) {
  static RegionSplits byRegion(Storage db, TableName table, List<KeyRange> ranges) {
    List<List<KeyRange>> out = new ArrayList<>();
    List<Long> cells = new ArrayList<>();
    for (RegionInfo region : db.admin().regions(table)) {
      List<KeyRange> mine = new ArrayList<>();
      for (KeyRange r : ranges) {
        KeyRange clipped = new KeyRange(max(r.start(), region.startRow()),
            minStop(r.stop(), region.endRow()));
        if (!clipped.isEmpty()) {
          mine.add(clipped);
        }
      }
      if (!mine.isEmpty()) {
        out.add(mine);
        cells.add(region.stats().cellCount());
      }
    }
    return new RegionSplits(out, cells);
  }

  /**
   * Whether every range lies in one region of those starting at {@code starts} (key order, the
   * first empty): a scan that cannot be spread, told without asking the regions' figures.
   */
  static boolean withinOneRegion(List<byte[]> starts, List<KeyRange> ranges) {
    int region = -1;
    for (KeyRange r : ranges) {
      if (r.isEmpty()) {
        continue;
      }
      int i = starts.size() - 1;
      while (i > 0 && Arrays.compareUnsigned(starts.get(i), r.start()) > 0) {
        i--;
      }
      boolean last = i == starts.size() - 1;
      if (!last && (r.stop().length == 0
          || Arrays.compareUnsigned(r.stop(), starts.get(i + 1)) > 0)) {
        return false; // past the region's end
      }
      if (region >= 0 && region != i) {
        return false;
      }
      region = i;
    }
    return true;
  }

  long totalCells() {
    return cells.stream().mapToLong(Long::longValue).sum();
  }

  private static byte[] max(byte[] a, byte[] b) {
    return Arrays.compareUnsigned(a, b) >= 0 ? a : b;
  }

  /** The nearer of two exclusive stops, empty meaning unbounded. */
  private static byte[] minStop(byte[] a, byte[] b) {
    if (a.length == 0) {
      return b;
    }
    if (b.length == 0) {
      return a;
    }
    return Arrays.compareUnsigned(a, b) <= 0 ? a : b;
  }
}
