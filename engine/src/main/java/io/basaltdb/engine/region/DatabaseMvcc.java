package io.basaltdb.engine.region;

import java.util.LinkedHashSet;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The order of writes across a whole database: hands out sequence ids (one per write, whatever
 * regions it spans) and knows which writes are in flight (begun, not yet completed in every
 * region they span). A consistent snapshot is a {@link SnapshotCut}: the newest id when taken
 * and the ids then in flight, which the snapshot never sees (PostgreSQL's snapshot, with its
 * list of transactions in progress). So a snapshot read never waits for a write still syncing
 * the log, a write acknowledged before the cut is in it (it completed), and a write spanning
 * regions is seen whole or not at all; no writer waits for another region's writes.
 *
 * <p>Invariants: {@link #inFlight} holds exactly the writes begun and not completed, in
 * sequence order (ids are taken under this monitor). Lock order: a region's {@link Mvcc}
 * monitor before this one, never the reverse. Thread-safe.
 */
public final class DatabaseMvcc {
  /** A write in flight: its sequence id and how many regions' parts are still to complete. */
  static final class Write {
    final long seq;
    private int parts;

    private Write(long seq, int parts) {
      this.seq = seq;
      this.parts = parts;
    }
  }

  private final AtomicLong sequence = new AtomicLong();
  private final LinkedHashSet<Write> inFlight = new LinkedHashSet<>();
  /** Threads in {@link #awaitNoneInFlight}: only then does a completion notify. */
  private int drainWaiters;

  /** The newest sequence id given to a write (every later write gets a higher one). */
  public long newest() {
    return sequence.get();
  }

  /** Raises the sequence to at least {@code seq} (recovery, a region opened with older data). */
  public void raiseTo(long seq) {
    sequence.accumulateAndGet(seq, Math::max);
  }

  /** Takes the next sequence id for a write of {@code parts} regions' parts. */
  synchronized Write begin(int parts) {
    Write w = new Write(sequence.incrementAndGet(), parts);
    inFlight.add(w);
    return w;
  }

  /** One part of {@code w} completed (applied, or failed and taken back). */
  synchronized void partDone(Write w) {
    if (--w.parts == 0) {
      inFlight.remove(w);
      if (drainWaiters > 0 && inFlight.isEmpty()) {
        notifyAll();
      }
    }
  }

  /**
   * Waits until no write is in flight, at most {@code timeoutMillis}; true if none is. Only
   * meaningful while new writes are held back (a backup's cut holds every region's update
   * lock): otherwise new writes may keep it busy.
   */
  public synchronized boolean awaitNoneInFlight(long timeoutMillis) throws InterruptedException {
    long deadline = System.nanoTime() + timeoutMillis * 1_000_000L;
    drainWaiters++;
    try {
      while (!inFlight.isEmpty()) {
        long left = (deadline - System.nanoTime()) / 1_000_000L;
        if (left <= 0) {
          return false;
        }
        wait(left);
      }
      return true;
    } finally {
      drainWaiters--;
    }
  }

  /**
   * The floor of a cut taken now ({@link SnapshotCut#floor}): every write at or below it has
   * completed. No later cut has a lower floor: the writes it will find in flight are in flight
   * now or begin later, above the newest id.
   */
  public synchronized long floor() {
    return inFlight.isEmpty() ? sequence.get() : inFlight.iterator().next().seq - 1;
  }

  /** The newest sequence id and the writes in flight, taken together. */
  public synchronized SnapshotCut cut() {
    long point = sequence.get();
    if (inFlight.isEmpty()) {
      return new SnapshotCut(point, SnapshotCut.NONE);
    }
    long[] ids = new long[inFlight.size()];
    int i = 0;
    for (Write w : inFlight) {
      ids[i++] = w.seq;
    }
    return new SnapshotCut(point, ids);
  }
}
