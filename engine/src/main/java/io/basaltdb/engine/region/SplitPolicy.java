package io.basaltdb.engine.region;

import io.basaltdb.engine.store.Store;
import io.basaltdb.engine.store.StoreFile;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Set;

/**
 * When and where a region splits (the policy; {@code Region.splitInto} and the database carry
 * it out): once its store files together pass the split size, at the last row of the middle
 * data block of its largest file, unless that row would leave a daughter empty; and the copy
 * of a region's files into its daughters' stores. Stateless.
 */
final class SplitPolicy {
  private SplitPolicy() {}

  static boolean shouldSplit(Collection<Store> stores, long splitBytes) {
    return StoreTotals.fileBytes(stores) >= splitBytes;
  }

  /** The split row, or null when the region cannot be split now. */
  static byte[] splitRow(Collection<Store> stores, RegionDescriptor d) {
    StoreFile largest = null;
    for (Store s : stores) {
      for (StoreFile f : s.filesSnapshot()) {
        if (largest == null || f.length() > largest.length()) {
          largest = f;
        }
      }
    }
    if (largest == null) {
      return null;
    }
    byte[] mid = largest.reader().midRow();
    byte[] first = largest.info().firstCell().row();
    if (mid == null || Arrays.compareUnsigned(mid, first) <= 0
        || Arrays.compareUnsigned(mid, d.startRow()) <= 0
        || (d.endRow().length > 0 && Arrays.compareUnsigned(mid, d.endRow()) >= 0)) {
      return null;
    }
    return mid;
  }

  /**
   * Copies the cells of every store file not in {@code copied} ("family/file") into the
   * daughters' stores, each its half of the region at {@code splitRow}, and records them there.
   */
  static void copyToDaughters(Collection<Store> stores, RegionDescriptor d, Path lowDir,
      Path highDir, byte[] splitRow, Set<String> copied) {
    for (Store s : stores) {
      List<StoreFile> todo = new ArrayList<>();
      for (StoreFile f : s.filesSnapshot()) {
        if (!copied.contains(s.familyName() + "/" + f.name())) {
          todo.add(f);
        }
      }
      s.copyRangeTo(todo, lowDir.resolve(s.familyName()), d.startRow(), splitRow);
      s.copyRangeTo(todo, highDir.resolve(s.familyName()), splitRow, d.endRow());
      todo.forEach(f -> copied.add(s.familyName() + "/" + f.name()));
    }
  }
}
