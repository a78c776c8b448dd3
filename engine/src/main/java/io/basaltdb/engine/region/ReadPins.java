package io.basaltdb.engine.region;

import java.util.Arrays;

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
  /**
   * Pinned floors, ascending, the first {@code size} of them, and how many pins hold each. A
   * new cut's floor is the highest (see {@link DatabaseMvcc#floor}), so a pin adds at the end
   * (no boxed keys or tree nodes: a transaction pins one per begin).
   */
  private long[] floors = new long[8];
  private int[] holders = new int[8];
  private int size;

  public ReadPins(DatabaseMvcc order) {
    this.order = order;
  }

  /** Takes a cut of the database and pins it; {@link #unpin} it once. */
  public synchronized SnapshotCut pin() {
    SnapshotCut c = order.cut();
    add(c.floor());
    return c;
  }

  /**
   * Pins {@code cut} once more, for a second holder of a cut already pinned (so no compaction
   * has resolved past it); {@link #unpin} each pin once.
   */
  public synchronized void pinAgain(SnapshotCut cut) {
    int i = Arrays.binarySearch(floors, 0, size, cut.floor());
    if (i < 0) {
      throw new IllegalStateException("cut " + cut + " is not pinned");
    }
    holders[i]++;
  }

  public synchronized void unpin(SnapshotCut cut) {
    int i = Arrays.binarySearch(floors, 0, size, cut.floor());
    if (i >= 0 && --holders[i] == 0) {
      System.arraycopy(floors, i + 1, floors, i, size - i - 1);
      System.arraycopy(holders, i + 1, holders, i, size - i - 1);
      size--;
    }
  }

  /** One more pin of {@code floor}, kept in order (at the end, but for a race of two cuts). */
  private void add(long floor) {
    int i = Arrays.binarySearch(floors, 0, size, floor);
    if (i >= 0) {
      holders[i]++;
      return;
    }
    i = -i - 1;
    if (size == floors.length) {
      floors = Arrays.copyOf(floors, size * 2);
      holders = Arrays.copyOf(holders, size * 2);
    }
    System.arraycopy(floors, i, floors, i + 1, size - i);
    System.arraycopy(holders, i, holders, i + 1, size - i);
    floors[i] = floor;
    holders[i] = 1;
    size++;
  }

  /** The point a compaction of a region whose MVCC is {@code mvcc} may resolve cells at. */
  synchronized long compactionPoint(Mvcc mvcc) {
    long point = Math.min(mvcc.readPoint(), order.floor());
    return size == 0 ? point : Math.min(point, floors[0]);
  }

  /** How many pins are held (tests, stats). */
  public synchronized int count() {
    int n = 0;
    for (int i = 0; i < size; i++) {
      n += holders[i];
    }
    return n;
  }
}
