package io.basaltdb.engine.region;

import io.basaltdb.storage.RegionStats;
import io.basaltdb.engine.store.Store;
import io.basaltdb.engine.store.StoreFile;
import java.util.Collection;

/**
 * Sums over a region's stores: memstore bytes, the oldest unflushed edit, file bytes, and the
 * region's {@link RegionStats}. Stateless; each figure is a snapshot of its moment.
 */
final class StoreTotals {
  private StoreTotals() {}

  static long memstoreBytes(Collection<Store> stores) {
    long total = 0;
    for (Store s : stores) {
      total += s.memstoreBytes();
    }
    return total;
  }

  /** The smallest sequence id not yet in a file, or Long.MAX_VALUE when all is flushed. */
  static long oldestUnflushedSequenceId(Collection<Store> stores) {
    long min = Long.MAX_VALUE;
    for (Store s : stores) {
      min = Math.min(min, s.oldestUnflushedSequenceId());
    }
    return min;
  }

  static long fileBytes(Collection<Store> stores) {
    long total = 0;
    for (Store s : stores) {
      for (StoreFile f : s.filesSnapshot()) {
        total += f.length();
      }
    }
    return total;
  }

  static RegionStats stats(String name, Collection<Store> stores, long reads, long writes,
      long blockedWrites) {
    long files = 0;
    long fileBytes = 0;
    long cells = 0;
    for (Store s : stores) {
      cells += s.cellCount();
      for (StoreFile f : s.filesSnapshot()) {
        files++;
        fileBytes += f.length();
      }
    }
    return new RegionStats(name, memstoreBytes(stores), files, fileBytes, reads, writes,
        blockedWrites, cells);
  }
}
