package io.basaltdb.engine.region;

import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The read points readers have pinned across a database's regions ({@code ReadSnapshot}), and
 * the point each compaction resolves cells at. A pinned point is the database's newest
 * sequence id when pinned; a compaction resolves at the smaller of its region's read point and
 * the smallest pin, so no version visible at a pinned point is dropped. Both are read under
 * this object's monitor, which makes the race harmless: a compaction that took its point
 * before a pin took one at or below the sequence id then, which is at or below the pin.
 * Thread-safe.
 */
public final class ReadPins {
  private final AtomicLong sequence;
  private final TreeMap<Long, Integer> pins = new TreeMap<>();

  public ReadPins(AtomicLong sequence) {
    this.sequence = sequence;
  }

  /** Pins the newest sequence id given to a write and returns it; {@link #unpin} it once. */
  public synchronized long pin() {
    long p = sequence.get();
    pins.merge(p, 1, Integer::sum);
    return p;
  }

  /**
   * Pins {@code point} once more, for a second holder of a point already pinned (so no
   * compaction has resolved past it); {@link #unpin} each pin once.
   */
  public synchronized void pinAgain(long point) {
    if (!pins.containsKey(point)) {
      throw new IllegalStateException("point " + point + " is not pinned");
    }
    pins.merge(point, 1, Integer::sum);
  }

  public synchronized void unpin(long point) {
    pins.computeIfPresent(point, (p, n) -> n == 1 ? null : n - 1);
  }

  /** The point a compaction of a region whose MVCC is {@code mvcc} may resolve cells at. */
  synchronized long compactionPoint(Mvcc mvcc) {
    long rp = mvcc.readPoint();
    return pins.isEmpty() ? rp : Math.min(rp, pins.firstKey());
  }

  /** How many pins are held (tests, stats). */
  public synchronized int count() {
    return pins.values().stream().mapToInt(Integer::intValue).sum();
  }
}
