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
 * one that compaction resolved cells at. The views register as readers of their active
 * memstores at a bound read before them ({@link Store#acquireView}), so a memstore's pruning
 * leaves what the read sees. Thread-safe.
 */
final class ReadSnapshots {
  private final StampedLock swapLock = new StampedLock();

  /** Fills {@code views} (one per store) and returns the read point that goes with them. */
  long acquire(List<Store> stores, List<StoreView> views, Mvcc mvcc) {
    return acquire(stores, views, mvcc, Long.MAX_VALUE);
  }

  /**
   * As {@link #acquire(List, List, Mvcc)}, for a read that may read at {@code lowest} (a
   * snapshot's floor) rather than at the point returned: the views register the lower.
   */
  long acquire(List<Store> stores, List<StoreView> views, Mvcc mvcc, long lowest) {
    long stamp = swapLock.tryOptimisticRead();
    // the views register a bound read before them: the read point below is read after
    long bound = Math.min(lowest, mvcc.readPoint());
    views(stores, views, bound);
    long rp = mvcc.readPoint();
    if (stamp != 0 && swapLock.validate(stamp)) {
      return rp;
    }
    views.forEach(StoreView::close); // a flush swapped memstores meanwhile: take them again
    views.clear();
    long read = swapLock.readLock();
    try {
      views(stores, views, Math.min(lowest, rp));
      return mvcc.readPoint();
    } finally {
      swapLock.unlockRead(read);
    }
  }

  /**
   * A view of each store; if one is closed (its region closing for a split, a disable or the
   * database's close) none: the read was let in before the region closed and must look its
   * region up again (a closed store's view has no files, so reading it would miss rows).
   */
  private static void views(List<Store> stores, List<StoreView> views, long bound) {
    try {
      for (Store s : stores) {
        views.add(s.acquireView(bound));
      }
    } catch (io.basaltdb.storage.ClosedException e) {
      views.forEach(StoreView::close);
      views.clear();
      throw new RegionClosedException(e.getMessage().replace(" is closed", "") + " (region closing)");
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
