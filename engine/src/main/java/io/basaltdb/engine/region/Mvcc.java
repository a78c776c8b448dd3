package io.basaltdb.engine.region;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;

/**
 * Multi-version concurrency control for one region. A write begins (taking the next sequence
 * id, in order), applies its cells, then completes; the read point is the largest sequence id
 * such that every write of the region up to it has completed. Readers ignore cells above their
 * read point, so a row mutation is seen whole or not at all.
 *
 * <p>Thread-safe: {@code this} guards the queue; the read point is volatile.
 */
public final class Mvcc {
  /** An in-flight write. */
  public static final class WriteEntry {
    private final long seq;
    private boolean done;

    WriteEntry(long seq) {
      this.seq = seq;
    }

    public long sequenceId() {
      return seq;
    }
  }

  private final ArrayDeque<WriteEntry> pending = new ArrayDeque<>();
  private volatile long readPoint;

  public Mvcc(long initialReadPoint) {
    this.readPoint = initialReadPoint;
  }

  public long readPoint() {
    return readPoint;
  }

  /** Takes the next sequence id from {@code source} and queues the write, atomically. */
  public synchronized WriteEntry begin(LongSupplier source) {
    WriteEntry e = new WriteEntry(source.getAsLong());
    pending.addLast(e);
    return e;
  }

  /**
   * Begins one write in each of {@code ordered} (distinct regions' MVCCs, in the one order every
   * caller uses: region name) with one sequence id, taken while holding all their monitors, so
   * that each queue stays in sequence order. Returns the entries, in the same order.
   */
  static List<WriteEntry> beginAll(List<Mvcc> ordered, LongSupplier source) {
    List<WriteEntry> out = new ArrayList<>(ordered.size());
    beginHolding(ordered, 0, source, out);
    return out;
  }

  private static void beginHolding(List<Mvcc> ms, int i, LongSupplier source,
      List<WriteEntry> out) {
    if (i == ms.size()) {
      long seq = source.getAsLong();
      for (Mvcc m : ms) {
        WriteEntry e = new WriteEntry(seq);
        m.pending.addLast(e); // every monitor is held
        out.add(e);
      }
      return;
    }
    synchronized (ms.get(i)) {
      beginHolding(ms, i + 1, source, out);
    }
  }

  /** Marks the write done and advances the read point as far as the queue allows. */
  public synchronized void complete(WriteEntry e) {
    e.done = true;
    boolean advanced = false;
    while (!pending.isEmpty() && pending.peekFirst().done) {
      readPoint = pending.pollFirst().seq;
      advanced = true;
    }
    if (advanced) {
      notifyAll();
    }
  }

  /** Completes the write and waits until readers can see it (read-your-writes). */
  public void completeAndWait(WriteEntry e) {
    complete(e);
    awaitReadPoint(e.seq);
  }

  /** The sequence id of the last write begun (completed or not); the read point if none is pending. */
  public synchronized long lastBegun() {
    return pending.isEmpty() ? readPoint : pending.peekLast().seq;
  }

  /** Waits until readers see every write up to {@code seq}. */
  public void awaitReadPoint(long seq) {
    if (readPoint < seq) {
      waitWhile(() -> readPoint < seq);
    }
  }

  /**
   * Waits until every write of this region with a sequence id at or below {@code point} has
   * completed (a consistent read at {@code point} may then begin). The queue's head is never a
   * completed write, so it is the oldest in flight.
   */
  public void awaitSettled(long point) {
    if (readPoint < point) {
      waitWhile(() -> readPoint < point && !pending.isEmpty() && pending.peekFirst().seq <= point);
    }
  }

  /** Waits (uninterruptibly, keeping the interrupt) while {@code blocked}, read under the monitor. */
  private synchronized void waitWhile(java.util.function.BooleanSupplier blocked) {
    boolean interrupted = false;
    while (blocked.getAsBoolean()) {
      try {
        wait();
      } catch (InterruptedException ie) {
        interrupted = true;
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }

  /** The smallest sequence id of a write not yet completed, or Long.MAX_VALUE. */
  public synchronized long oldestPending() {
    return pending.isEmpty() ? Long.MAX_VALUE : pending.peekFirst().seq;
  }

  /** Raises the read point (recovery) when nothing is in flight. */
  public synchronized void advanceTo(long seq) {
    if (pending.isEmpty() && seq > readPoint) {
      readPoint = seq;
    }
  }
}
