package io.basaltdb.engine.region;

import io.basaltdb.engine.store.Store;
import io.basaltdb.engine.store.StoreView;
import java.util.List;
import java.util.concurrent.locks.StampedLock;

/**
 * Consistent read snapshots of a region: store views and a read point taken with no memstore
 * swap in between, so every write at or below the read point is in the views. Readers take
 * them optimistically (a stamp, retried under the read lock if a flush swapped meanwhile);
 * a flush swaps memstores through {@link #swap}. The read point is taken after the views: a
 * view taken after a compaction installed its output comes with a read point at or above the
 * one that compaction resolved cells at. Thread-safe.
 */
final class ReadSnapshots {
  private final StampedLock swapLock = new StampedLock();

  /** Fills {@code views} (one per store) and returns the read point that goes with them. */
  long acquire(List<Store> stores, List<StoreView> views, Mvcc mvcc) {
    long stamp = swapLock.tryOptimisticRead();
    for (Store s : stores) {
      views.add(s.acquireView());
    }
    long rp = mvcc.readPoint();
    if (stamp != 0 && swapLock.validate(stamp)) {
      return rp;
    }
    views.forEach(StoreView::close); // a flush swapped memstores meanwhile: take them again
    views.clear();
    long read = swapLock.readLock();
    try {
      for (Store s : stores) {
        views.add(s.acquireView());
      }
      return mvcc.readPoint();
    } finally {
      swapLock.unlockRead(read);
    }
  }

  /** Runs a memstore swap with no snapshot being taken meanwhile. */
  void swap(Runnable swap) {
    long stamp = swapLock.writeLock();
    try {
      swap.run();
    } finally {
      swapLock.unlockWrite(stamp);
    }
  }
}
