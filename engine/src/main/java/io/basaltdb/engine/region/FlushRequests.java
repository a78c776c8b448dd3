package io.basaltdb.engine.region;

import io.basaltdb.engine.store.Store;
import java.util.Collection;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;

/**
 * A region's requests for background work and its writers' back-pressure. Invariant: at most
 * one flush and one compaction request of the region are outstanding with the scheduler (a
 * compaction's request is taken back when it starts, a flush's once it has swapped the
 * memstores out, so a write during the work asks again, and a write the flush takes does
 * not); a
 * writer finding the region's memstores over twice the flush size waits for flushes (counted
 * in {@link #blockedWrites}), woken when one ends.
 */
final class FlushRequests {
  private final Region region;
  private final RegionContext ctx;
  private final AtomicBoolean flushRequested = new AtomicBoolean();
  private final AtomicBoolean compactionRequested = new AtomicBoolean();
  private final AtomicLong blockedWrites = new AtomicLong();
  private final Object flushDone = new Object();

  FlushRequests(Region region, RegionContext ctx) {
    this.region = region;
    this.ctx = ctx;
  }

  void requestFlush() {
    if (flushRequested.compareAndSet(false, true)) {
      ctx.scheduler().requestFlush(region);
    }
  }

  void requestCompaction() {
    if (compactionRequested.compareAndSet(false, true)) {
      ctx.scheduler().requestCompaction(region);
    }
  }

  /**
   * A flush has swapped the memstores out (or gave up before it could): later writes may ask
   * for the next one.
   */
  void flushRequestTaken() {
    flushRequested.set(false);
  }

  /** A compaction starts: later flushes may ask for the next one. */
  void compactionStarting() {
    compactionRequested.set(false);
  }

  /** A flush ended (or gave up): writers waiting for room look again. */
  void flushEnded() {
    synchronized (flushDone) {
      flushDone.notifyAll();
    }
  }

  /** Asks for a flush when a store's active and frozen memstores reach the flush size. */
  void maybeRequestFlush(Collection<Store> stores) {
    long limit = ctx.options().flushSizeBytes();
    for (Store s : stores) {
      if (s.unflushedMemstoreBytes() >= limit) {
        requestFlush();
        return;
      }
    }
  }

  /** Asks for a flush; throws if background work has failed, since waiting would be forever. */
  void requestFlushOrFail() {
    Throwable t = ctx.scheduler().failure();
    if (t != null) {
      throw new io.basaltdb.storage.BasaltException(
          "cannot accept writes: a background flush or compaction failed: " + t, t);
    }
    requestFlush();
  }

  /** Back-pressure: a region holding over twice the flush size waits for its flush. */
  void waitIfTooBig(LongSupplier memstoreBytes, BooleanSupplier closed) {
    long blocking = 2 * ctx.options().flushSizeBytes();
    if (memstoreBytes.getAsLong() < blocking) {
      return;
    }
    blockedWrites.incrementAndGet();
    while (memstoreBytes.getAsLong() >= blocking && !closed.getAsBoolean()) {
      requestFlushOrFail();
      synchronized (flushDone) {
        try {
          flushDone.wait(10);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return;
        }
      }
    }
  }

  long blockedWrites() {
    return blockedWrites.get();
  }
}
