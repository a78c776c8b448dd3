package io.basaltdb.engine.compaction;

import java.util.ArrayList;
import java.util.List;

/**
 * Chooses files for a minor compaction, in the manner of HBase's exploring policy. Files are
 * given oldest first. Every contiguous window of {@code minFiles..maxFiles} files is examined;
 * a window qualifies when no file in it is larger than {@code ratio} times the sum of the
 * others in the window. The qualifying window with the most files wins, ties going to the
 * smallest total size (least I/O for the same reduction in file count). When nothing qualifies
 * but the store has too many files ({@code blockingFiles}), the smallest window of
 * {@code minFiles} is chosen anyway, so the file count stays bounded.
 *
 * <p>Stateless: decisions depend only on the sizes given.
 */
public final class CompactionPolicy {
  private final int minFiles;
  private final int maxFiles;
  private final double ratio;
  private final int blockingFiles;

  public CompactionPolicy(int minFiles, int maxFiles, double ratio, int blockingFiles) {
    this.minFiles = minFiles;
    this.maxFiles = maxFiles;
    this.ratio = ratio;
    this.blockingFiles = blockingFiles;
  }

  /** Indexes [from, to) of the chosen window in {@code sizes}, or null for none. */
  public int[] select(List<Long> sizes) {
    int n = sizes.size();
    if (n < minFiles) {
      return null;
    }
    int[] best = null;
    long bestSize = Long.MAX_VALUE;
    int[] smallest = null;
    long smallestSize = Long.MAX_VALUE;
    for (int from = 0; from < n; from++) {
      for (int to = from + minFiles; to <= Math.min(n, from + maxFiles); to++) {
        long total = 0;
        for (int i = from; i < to; i++) {
          total += sizes.get(i);
        }
        if (to - from == minFiles && total < smallestSize) {
          smallest = new int[] {from, to};
          smallestSize = total;
        }
        if (!qualifies(sizes, from, to, total)) {
          continue;
        }
        int count = to - from;
        int bestCount = best == null ? 0 : best[1] - best[0];
        if (count > bestCount || (count == bestCount && total < bestSize)) {
          best = new int[] {from, to};
          bestSize = total;
        }
      }
    }
    if (best == null && n >= blockingFiles) {
      return smallest;
    }
    return best;
  }

  private boolean qualifies(List<Long> sizes, int from, int to, long total) {
    for (int i = from; i < to; i++) {
      long s = sizes.get(i);
      if (s > ratio * (total - s)) {
        return false;
      }
    }
    return true;
  }

  /** The window as a sub-list. */
  public static <T> List<T> window(List<T> items, int[] w) {
    return w == null ? List.of() : new ArrayList<>(items.subList(w[0], w[1]));
  }
}
