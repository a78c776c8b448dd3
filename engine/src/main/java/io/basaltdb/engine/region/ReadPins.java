package io.basaltdb.engine.region;

import java.util.TreeMap;

/**
 * The snapshots readers have pinned across a database's regions ({@code ReadSnapshot}), and
 * the point each compaction resolves cells at. A pin is a {@link SnapshotCut} taken when
 * pinned, held by its floor (every write at or below it seen); a compaction resolves at the
 * smaller of its region's read point and the smallest floor, so no version a pinned cut sees is
 * dropped. Both are read under this object's monitor, which makes the race harmless: a
 * compaction that took its point c (its region's read point then) before a pin saw all of its
 * region's writes at or below c complete, so none of them is in the later cut's writes in
 * flight, and the cut's point is above c: the cut sees the region as a read at c or above
 * would. Thread-safe.
 */
public final class ReadPins {
  private final DatabaseMvcc order;
  /** Pinned floors and how many pins hold each. */
  private final TreeMap<Long, Integer> pins = new TreeMap<>();

  public ReadPins(DatabaseMvcc order) {
    this.order = order;
  }

  /** Takes a cut of the database and pins it; {@link #unpin} it once. */
  public synchronized SnapshotCut pin() {
    SnapshotCut c = order.cut();
    pins.merge(c.floor(), 1, Integer::sum);
    return c;
  }

  /**
   * Pins {@code cut} once more, for a second holder of a cut already pinned (so no compaction
   * has resolved past it); {@link #unpin} each pin once.
   */
  public synchronized void pinAgain(SnapshotCut cut) {
    if (!pins.containsKey(cut.floor())) {
      throw new IllegalStateException("cut " + cut + " is not pinned");
    }
    pins.merge(cut.floor(), 1, Integer::sum);
  }

  public synchronized void unpin(SnapshotCut cut) {
    pins.computeIfPresent(cut.floor(), (p, n) -> n == 1 ? null : n - 1);
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
