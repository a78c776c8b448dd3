package io.basaltdb.engine.region;

import java.util.Arrays;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Exclusive per-row locks for a region's writers, striped by row hash (rows sharing a stripe
 * merely wait for each other). Readers never lock: MVCC gives them a consistent view. A
 * single-row write locks one stripe; a write of several rows ({@link MultiRegionWrite}) locks
 * its stripes in (region, {@link #stripe}) order, never by row order: two rows of one stripe
 * would otherwise let two writers each hold a stripe the other waits for. The locks are
 * reentrant, so a writer holding a row's stripe may lock it again as part of a larger write.
 */
final class RowLocks {
  private static final int STRIPES = 1024; // a power of two
  private final Lock[] stripes = new Lock[STRIPES];

  RowLocks() {
    for (int i = 0; i < STRIPES; i++) {
      stripes[i] = new ReentrantLock();
    }
  }

  /** The stripe of {@code row}: the order in which a write of several rows locks them. */
  static int stripe(byte[] row) {
    int h = Arrays.hashCode(row);
    h ^= (h >>> 20) ^ (h >>> 12);
    h ^= (h >>> 7) ^ (h >>> 4);
    return h & (STRIPES - 1);
  }

  Lock lockRow(byte[] row) {
    Lock l = stripes[stripe(row)];
    l.lock();
    return l;
  }
}
