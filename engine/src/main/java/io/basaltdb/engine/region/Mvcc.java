package io.basaltdb.engine.region;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * Multi-version concurrency control for one region. A write begins (taking the next sequence
 * id of its database, in order), applies its cells, then completes; the read point is the
 * largest sequence id such that every write of the region up to it has completed. Readers
 * ignore cells above their read point, so a row mutation is seen whole or not at all. Each
 * write also counts in its database's {@link DatabaseMvcc}, which knows the writes in flight
 * that a consistent snapshot must not see.
 *
 * <p>Thread-safe: {@code this} guards the queue; the read point is volatile.
 */
public final class Mvcc {
  /** An in-flight write. */
  public static final class WriteEntry {
    private final long seq;
    private final DatabaseMvcc.Write write;
    private boolean done;

    WriteEntry(DatabaseMvcc.Write write) {
      this.seq = write.seq;
      this.write = write;
    }

    public long sequenceId() {
      return seq;
    }
  }

  private final DatabaseMvcc order;
  private final ArrayDeque<WriteEntry> pending = new ArrayDeque<>();
  private volatile long readPoint;

  public Mvcc(DatabaseMvcc order) {
    this.order = order;
    this.readPoint = order.newest();
  }

  public long readPoint() {
    return readPoint;
  }

  /** Takes the database's next sequence id and queues the write, atomically. */
  public synchronized WriteEntry begin() {
    WriteEntry e = new WriteEntry(order.begin(1));
    pending.addLast(e);
    return e;
  }

  /**
   * Begins one write in each of {@code ordered} (distinct regions' MVCCs, in the one order every
   * caller uses: region name) with one sequence id, taken while holding all their monitors, so
   * that each queue stays in sequence order. Returns the entries, in the same order.
   */
  static List<WriteEntry> beginAll(List<Mvcc> ordered, DatabaseMvcc order) {
    List<WriteEntry> out = new ArrayList<>(ordered.size());
    beginHolding(ordered, 0, order, out);
    return out;
  }

  private static void beginHolding(List<Mvcc> ms, int i, DatabaseMvcc order,
      List<WriteEntry> out) {
    if (i == ms.size()) {
      DatabaseMvcc.Write w = order.begin(ms.size());
      for (Mvcc m : ms) {
        WriteEntry e = new WriteEntry(w);
        m.pending.addLast(e); // every monitor is held
        out.add(e);
      }
      return;
    }
    synchronized (ms.get(i)) {
      beginHolding(ms, i + 1, order, out);
    }
  }

  /**
   * Marks the write done (once; again is a no-op), advances the read point as far as the
   * queue allows and tells the database the write's part here is done.
   */
  public void complete(WriteEntry e) {
    synchronized (this) {
      if (e.done) {
        return;
      }
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
    order.partDone(e.write);
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
