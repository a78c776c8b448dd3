package io.basaltdb.engine.region;

import io.basaltdb.storage.Cell;
import io.basaltdb.engine.store.Store;
import io.basaltdb.engine.store.StoreView;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The read side of a {@link Region}: gets and scans, forward and reversed, each over store
 * views and a read point taken together ({@link ReadSnapshots}) or a database snapshot's point,
 * clipped to the region's rows; and the row as the holder of its lock must see it (staged
 * writes included). Keeps the region's read count. The region checks that it is open before
 * calling. Thread-safe.
 */
final class RegionReads {
  private static final byte[] EMPTY = new byte[0];

  private final Region region;
  private final ReadSnapshots snapshots;
  private final Mvcc mvcc;
  private final RegionContext ctx;
  private final AtomicLong count = new AtomicLong();

  RegionReads(Region region, ReadSnapshots snapshots, Mvcc mvcc, RegionContext ctx) {
    this.region = region;
    this.snapshots = snapshots;
    this.mvcc = mvcc;
    this.ctx = ctx;
  }

  long count() {
    return count.get();
  }

  private void counted() {
    count.incrementAndGet();
    ctx.totals().reads.increment();
  }

  /** The row's cells as {@code spec} asks; empty when the row has none. */
  List<Cell> get(byte[] row, ReadSpec spec) {
    return getRow(row, spec, false);
  }

  /**
   * The row as its lock holder must see it: every write to it, staged ones included (they all
   * staged under this lock before it was taken, and none is in flight now). Reading at an
   * unbounded read point is exact for this one row only.
   */
  List<Cell> getLocked(byte[] row, ReadSpec spec) {
    return getRow(row, spec, true);
  }

  private List<Cell> getRow(byte[] row, ReadSpec spec, boolean staged) {
    if (spec.filter() == null) {
      counted();
      List<Store> selected = selectStores(spec);
      List<StoreView> views = new ArrayList<>(selected.size());
      long rp = staged ? snapshots.acquire(selected, views, mvcc) : acquire(spec, selected, views);
      try {
        return PointGet.read(selected, views, spec, row, staged ? Long.MAX_VALUE : rp,
            ctx.options().clock().millis());
      } finally {
        views.forEach(StoreView::close);
      }
    }
    byte[] stop = Arrays.copyOf(row, row.length + 1);
    try (RegionScanner s = openScanner(spec, row, stop, row, staged)) {
      List<Cell> r = s.next();
      return r == null ? List.of() : r;
    }
  }

  /**
   * Whether any cell in {@code [startRow, stopRow)} (clipped to the region; empty stop: its
   * end), put or delete marker, was written by a write {@code cut} does not see (above its
   * point, or in flight when it was taken), staged writes included: memstores and files not
   * newer than the cut's floor are not read, and the first such cell answers (a commit's write
   * conflicts, under the rows' locks; a serializable transaction's reads).
   */
  boolean writtenAfter(byte[] startRow, byte[] stopRow, SnapshotCut cut) {
    RegionDescriptor d = region.descriptor();
    byte[] start = Arrays.compareUnsigned(startRow, d.startRow()) < 0 ? d.startRow() : startRow;
    byte[] stop = stopRow;
    byte[] end = d.endRow();
    if (end.length > 0 && (stop.length == 0 || Arrays.compareUnsigned(stop, end) > 0)) {
      stop = end;
    }
    if (stop.length > 0 && Arrays.compareUnsigned(start, stop) >= 0) {
      return false;
    }
    List<Store> stores = region.stores();
    List<StoreView> views = new ArrayList<>(stores.size());
    snapshots.acquire(stores, views, mvcc, cut.floor());
    try {
      return writtenAfter(stores, views, start, stop, cut);
    } finally {
      views.forEach(StoreView::close);
    }
  }

  /** Whether a store, read through its view, holds a write in the rows {@code cut} misses. */
  private static boolean writtenAfter(List<Store> stores, List<StoreView> views, byte[] start,
      byte[] stop, SnapshotCut cut) {
    for (int i = 0; i < stores.size(); i++) {
      if (stores.get(i).writtenAfter(views.get(i), start, stop, cut.point(), cut.inFlight())) {
        return true;
      }
    }
    return false;
  }

  /**
   * The first of {@code rows} (rows of this region) written by a write its cut in {@code cuts}
   * does not see (as {@link #writtenAfter}), or -1: a commit's write conflicts, its rows of
   * one region checked over one acquisition of the stores' views.
   */
  int firstWrittenAfter(List<byte[]> rows, List<SnapshotCut> cuts) {
    List<Store> stores = region.stores();
    List<StoreView> views = new ArrayList<>(stores.size());
    long lowest = Long.MAX_VALUE;
    for (SnapshotCut c : cuts) {
      lowest = Math.min(lowest, c.floor());
    }
    snapshots.acquire(stores, views, mvcc, lowest);
    try {
      for (int r = 0; r < rows.size(); r++) {
        byte[] row = rows.get(r);
        if (writtenAfter(stores, views, row, Arrays.copyOf(row, row.length + 1), cuts.get(r))) {
          return r;
        }
      }
      return -1;
    } finally {
      views.forEach(StoreView::close);
    }
  }

  /** {@code [startRow, stopRow)} clipped to the region (empty stop = region end). */
  RegionScanner scan(ReadSpec spec, byte[] startRow, byte[] stopRow) {
    RegionDescriptor d = region.descriptor();
    byte[] start = startRow == null || Arrays.compareUnsigned(startRow, d.startRow()) < 0
        ? d.startRow() : startRow;
    byte[] stop = stopRow == null ? EMPTY : stopRow;
    byte[] end = d.endRow();
    if (end.length > 0 && (stop.length == 0 || Arrays.compareUnsigned(stop, end) > 0)) {
      stop = end;
    }
    return openScanner(spec, start, stop, null, false);
  }

  /** Rows in descending order below {@code upperExclusive} down to {@code lowerInclusive}. */
  RowScanner scanReversed(ReadSpec spec, byte[] upperExclusive, byte[] lowerInclusive) {
    counted();
    RegionDescriptor d = region.descriptor();
    byte[] upper = upperExclusive == null ? EMPTY : upperExclusive;
    byte[] end = d.endRow();
    if (end.length > 0 && (upper.length == 0 || Arrays.compareUnsigned(upper, end) > 0)) {
      upper = end;
    }
    byte[] lower = lowerInclusive == null
        || Arrays.compareUnsigned(lowerInclusive, d.startRow()) < 0
        ? d.startRow() : lowerInclusive;
    List<Store> selected = selectStores(spec);
    List<StoreView> views = new ArrayList<>(selected.size());
    long rp = acquire(spec, selected, views);
    return new ReverseRegionScanner(selected, views, spec, upper, lower, rp,
        ctx.options().clock().millis());
  }

  private RegionScanner openScanner(ReadSpec spec, byte[] start, byte[] stop, byte[] getRow,
      boolean staged) {
    counted();
    List<Store> selected = selectStores(spec);
    List<StoreView> views = new ArrayList<>(selected.size());
    long rp = staged ? snapshots.acquire(selected, views, mvcc) : acquire(spec, selected, views);
    return new RegionScanner(selected, views, spec, start, stop, getRow,
        staged ? Long.MAX_VALUE : rp, ctx.options().clock().millis());
  }

  /**
   * Takes the views of {@code selected} and returns the point to read them at: the region's
   * read point, or a snapshot's (every write its cut sees completed before the cut was taken,
   * so the views hold them all; the compactions behind the views kept what it sees; the
   * scanners hide the cut's writes in flight).
   */
  private long acquire(ReadSpec spec, List<Store> selected, List<StoreView> views) {
    SnapshotCut cut = spec.snapshot();
    long rp = snapshots.acquire(selected, views, mvcc,
        cut == null ? Long.MAX_VALUE : cut.floor());
    long point = spec.snapshotPoint();
    return point >= 0 ? point : rp;
  }

  private List<Store> selectStores(ReadSpec spec) {
    if (spec.allFamilies()) {
      return region.stores();
    }
    List<Store> selected = new ArrayList<>();
    for (byte[] f : spec.families().keySet()) {
      selected.add(region.storeOf(f));
    }
    return selected;
  }
}
