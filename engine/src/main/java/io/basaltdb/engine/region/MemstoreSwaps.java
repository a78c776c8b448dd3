package io.basaltdb.engine.region;

import io.basaltdb.engine.memstore.MemStore;
import io.basaltdb.engine.store.Store;
import io.basaltdb.engine.store.StoreFile;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.ReentrantLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * A {@link Region}'s memstore swaps: a flush (the active memstores swapped out, the log
 * synced, each store's swapped memstores written to a new file) and a freeze (swapped out,
 * then, once the writes begun before completed, read as sorted arrays until the next flush).
 * Both take the region's flush lock, so one runs at a time and flushes install in swap order;
 * the swap itself happens under the region's update lock, taken exclusively (no write is
 * between its sequence id and its memstore insert), and through its read snapshots (no read
 * takes store views across it). The region keeps the locks, the stores and the gate; this
 * class only what a swap does with them.
 */
final class MemstoreSwaps {
  private final Region region;
  private final RegionContext ctx;
  private final Mvcc mvcc;
  private final ReadSnapshots snapshots;
  private final ReentrantLock flushLock;
  private final ReentrantReadWriteLock updatesLock;
  private final FlushRequests requests;
  /** Set by a write that skipped the log; a flush takes it (the log's trim waits for it). */
  private final AtomicBoolean unloggedEdits;

  MemstoreSwaps(Region region, RegionContext ctx, Mvcc mvcc, ReadSnapshots snapshots,
      ReentrantLock flushLock, ReentrantReadWriteLock updatesLock, FlushRequests requests,
      AtomicBoolean unloggedEdits) {
    this.region = region;
    this.ctx = ctx;
    this.mvcc = mvcc;
    this.snapshots = snapshots;
    this.flushLock = flushLock;
    this.updatesLock = updatesLock;
    this.requests = requests;
    this.unloggedEdits = unloggedEdits;
  }

  /** Flushes every store's memstore to a new file; returns the number of files written. */
  int flush() {
    flushLock.lock();
    try {
      if (region.isClosed()) {
        requests.flushRequestTaken();
        return 0;
      }
      try {
        ctx.wal().checkWritable();
      } catch (RuntimeException e) {
        requests.flushRequestTaken();
        throw e;
      }
      Runnable hook = region.beforeFlushSwap;
      if (hook != null) {
        hook.run();
      }
      List<Store.Snapshot> snaps = new ArrayList<>();
      List<Store> order = new ArrayList<>(region.stores());
      boolean hadUnlogged;
      updatesLock.writeLock().lock();
      try {
        hadUnlogged = unloggedEdits.getAndSet(false); // SKIP writes from now on mark it again
        snapshots.swap(() -> {
          long point = ctx.order().newest();
          for (Store s : order) {
            snaps.add(s.snapshot(point));
          }
        });
      } finally {
        // the request taken back once the memstores are swapped, not before: a write before
        // the swap added to what this flush writes, and a request it made meanwhile would
        // flush the next few milliseconds of writes as a file of their own
        requests.flushRequestTaken();
        updatesLock.writeLock().unlock();
      }
      region.flushesRun.incrementAndGet();
      int files = 0;
      try {
        // every edit in the snapshots was appended before its memstore insert: syncing the log
        // first means no file ever holds an edit the log could still lose (ASYNC writes stay
        // a prefix of the log) nor one whose sync failed
        ctx.wal().syncAll();
        long resolveAt = region.smallestReadPoint();
        for (int i = 0; i < order.size(); i++) {
          long bytes = snaps.get(i).cellBytes(); // as the budget was told
          StoreFile f = order.get(i).flush(snaps.get(i), resolveAt);
          ctx.budget().release(bytes);
          if (f != null) {
            files++;
          }
        }
      } catch (RuntimeException e) {
        if (hadUnlogged) {
          unloggedEdits.set(true);
        }
        // the snapshots stay in memory and in the log; the database takes no more writes
        // until reopened, when the log replays them
        ctx.wal().poison(e);
        throw e;
      }
      ctx.scheduler().flushed(region);
      if (region.needsCompaction()) {
        requests.requestCompaction();
      }
      if (!region.writesBlocked()
          && SplitPolicy.shouldSplit(region.stores(), ctx.options().regionSplitBytes())) {
        ctx.scheduler().requestSplit(region);
      }
      return files;
    } finally {
      flushLock.unlock();
      requests.flushEnded();
    }
  }

  /** The newest write begun when {@link #freezeIfIdle} last looked, or -1. */
  private long idleSince = -1;

  /**
   * Called about once a second, by one thread: when no write began here since the last call
   * and the active memstores hold at least {@code minCells} cells, freezes them ({@link
   * #freeze}) or, when memstores frozen earlier still wait for a flush, asks for one (which
   * writes them all: at most one generation is frozen at a time) if the active ones hold an
   * eighth of the flush size, so a region written in small bursts does not make a small file
   * per burst. A region being written is left alone: its memstores go on taking writes until
   * their flush.
   */
  void freezeIfIdle(int minCells) {
    long newest = mvcc.lastBegun();
    boolean idle = newest == idleSince;
    idleSince = newest;
    if (!idle || region.isClosed() || minCells <= 0) {
      return;
    }
    int cells = 0;
    long bytes = 0;
    boolean swapped = false;
    for (Store s : region.stores()) {
      cells += s.activeCellCount();
      bytes += s.activeMemstoreBytes();
      swapped |= s.swappedOutMemstores() > 0;
    }
    if (cells < minCells) {
      return;
    }
    if (!swapped) {
      ctx.scheduler().requestFreeze(region);
    } else if (bytes >= ctx.options().flushSizeBytes() / 8) {
      requests.requestFlush(); // else left to the skip list: bursts would each make a small file
    }
  }

  /**
   * Swaps each store's active memstore out, to be read from memory as sorted arrays ({@link
   * MemStore#freeze}) until the next flush writes it: the skip list's search, a cache miss per
   * step, was most of a point read of a memstore of a few hundred thousand cells. The swap
   * happens as a flush's does (under the update lock, through {@link ReadSnapshots#swap}); the
   * memstores are frozen once the writes begun before it completed, so none adds to them or
   * takes a failed cell back from them after. Nothing is written: the log keeps their edits
   * (their sequence ids stay unflushed). Returns how many memstores were frozen.
   */
  int freeze() {
    List<MemStore> swapped = new ArrayList<>();
    long begun;
    flushLock.lock(); // a flush in progress writes what it swapped first
    try {
      if (region.isClosed()) {
        return 0;
      }
      List<Store> order = new ArrayList<>(region.stores());
      long[] point = new long[1];
      updatesLock.writeLock().lock();
      try {
        snapshots.swap(() -> {
          point[0] = mvcc.lastBegun();
          for (Store s : order) {
            MemStore m = s.swapForFreezing();
            if (m != null) {
              swapped.add(m);
            }
          }
        });
      } finally {
        updatesLock.writeLock().unlock();
      }
      begun = point[0];
    } finally {
      flushLock.unlock();
    }
    mvcc.awaitReadPoint(begun); // not under the flush lock: a write waiting for room needs a flush
    swapped.forEach(MemStore::freeze);
    return swapped.size();
  }
}
