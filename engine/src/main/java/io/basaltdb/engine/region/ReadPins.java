package io.basaltdb.engine.region;

import java.util.TreeMap;

/**
 * The snapshots readers have pinned across a database's regions ({@code ReadSnapshot}), and
 * the point each compaction resolves cells at. A pin is a {@link SnapshotCut} taken when
 * pinned, held by its floor (every write at or below it seen); a compaction resolves at the
 * smallest of its region's read point, the pinned floors and the floor of a cut taken now, so
 * no version a cut sees is dropped. The last bound matters: a write of this region may be
 * complete here (below the region's read point) yet in flight for the database (another region
 * of the same write still applying, or its completion not yet told), and a cut taken then hides
 * it, so it must still see the version that write shadows. All three are read under this
 * object's monitor, which makes the race with a pin harmless: a cut pinned after a compaction
 * took its point c has a floor of at least c (no later cut has a lower floor than one taken
 * now), so it sees every write at or below c, as the compaction assumed. Thread-safe.
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
    long point = Math.min(mvcc.readPoint(), order.floor());
    return pins.isEmpty() ? point : Math.min(point, pins.firstKey());
  }

  /** How many pins are held (tests, stats). */
  public synchronized int count() {
    return pins.values().stream().mapToInt(Integer::intValue).sum();
  }
}
