package io.basaltdb.engine.region;

import com.google.common.util.concurrent.Striped;
import java.util.Arrays;
import java.util.concurrent.locks.Lock;

/**
 * Exclusive per-row locks for a region's writers, striped by row hash (rows sharing a stripe
 * merely wait for each other; a mutation locks exactly one row, so no deadlock). Readers never
 * lock: MVCC gives them a consistent view.
 */
final class RowLocks {
  private final Striped<Lock> stripes = Striped.lock(1024);

  Lock lockRow(byte[] row) {
    Lock l = stripes.get(Arrays.hashCode(row));
    l.lock();
    return l;
  }
}
