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
 *
 * <p>Each stripe also keeps the newest sequence id written to a row of it ({@link #wrote}),
 * and the region the database's newest id when it opened ({@link #opened}: its rows' earlier
 * writes, replayed, in its files or a parent's before a split, are at or below it), so a
 * transaction's conflict check knows without reading that a row of a stripe unwritten since its
 * cut was not written since: {@link #unwrittenSince}. A stripe's id is read and written under
 * its lock.
 */
final class RowLocks {
  private static final int STRIPES = 1024; // a power of two
  private final Lock[] stripes = new Lock[STRIPES];
  /** Per stripe, the newest sequence id written to its rows since the region opened. */
  private final long[] newestWrite = new long[STRIPES];
  /** At least every sequence id the region's rows held when it opened; none known till then. */
  private volatile long openedAt = Long.MAX_VALUE;

  RowLocks() {
    for (int i = 0; i < STRIPES; i++) {
      stripes[i] = new ReentrantLock();
    }
  }

  /** The region opened, its rows holding no sequence id above {@code newest}. */
  void opened(long newest) {
    openedAt = newest;
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

  /** A write with sequence id {@code seq} of {@code row}, whose lock is held. */
  void wrote(byte[] row, long seq) {
    int s = stripe(row);
    if (newestWrite[s] < seq) {
      newestWrite[s] = seq;
    }
  }

  /**
   * Whether {@code row} (its lock held) surely holds no write {@code cut} does not see: no
   * write to its stripe is above the cut's floor. False says only "maybe": read the row.
   */
  boolean unwrittenSince(byte[] row, SnapshotCut cut) {
    return Math.max(newestWrite[stripe(row)], openedAt) <= cut.floor();
  }
}
