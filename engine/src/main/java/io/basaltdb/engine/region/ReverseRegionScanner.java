package io.basaltdb.engine.region;

import io.basaltdb.storage.Cell;
import io.basaltdb.storage.ClosedException;
import io.basaltdb.engine.cell.CellComparator;
import io.basaltdb.engine.store.Store;
import io.basaltdb.engine.store.StoreView;
import java.util.Arrays;
import java.util.List;

/**
 * Rows of a region in descending key order, below an upper bound (exclusive; empty = the
 * region's end) and down to a lower bound (inclusive), at one read point over views held for
 * the whole scan. Each step asks every memstore and file for the last row before the current
 * one (through the block index), then reads that row forward with the usual rules and filter;
 * a row with nothing visible is passed over. Not thread-safe. Must be closed.
 */
public final class ReverseRegionScanner implements RowScanner {
  private final List<Store> stores;
  private final List<StoreView> views;
  private final ReadSpec spec;
  private final byte[] lower;
  private final long readPoint;
  private final long nowMillis;
  private byte[] upper;
  private boolean closed;

  ReverseRegionScanner(List<Store> stores, List<StoreView> views, ReadSpec spec, byte[] upper,
      byte[] lower, long readPoint, long nowMillis) {
    this.stores = stores;
    this.views = views;
    this.spec = spec;
    this.upper = upper;
    this.lower = lower;
    this.readPoint = readPoint;
    this.nowMillis = nowMillis;
  }

  @Override
  public List<Cell> next() {
    if (closed) {
      throw new ClosedException("region scanner");
    }
    while (true) {
      if (spec.filter() != null && spec.filter().filterAllRemaining()) {
        return null;
      }
      byte[] row = null;
      for (int i = 0; i < stores.size(); i++) {
        byte[] r = stores.get(i).lastRowBefore(views.get(i), upper);
        if (r != null && (row == null || CellComparator.compareRows(r, row) > 0)) {
          row = r;
        }
        byte[] own = spec.overlay() == null ? null
            : spec.overlay().lastRowBefore(stores.get(i).family(), upper);
        if (own != null && (row == null || CellComparator.compareRows(own, row) > 0)) {
          row = own;
        }
      }
      if (row == null || CellComparator.compareRows(row, lower) < 0) {
        return null;
      }
      upper = row;
      try (RegionScanner one = new RegionScanner(stores, views, spec, row,
          Arrays.copyOf(row, row.length + 1), row, readPoint, nowMillis, false)) {
        List<Cell> cells = one.next();
        if (cells != null) {
          return cells;
        }
      }
    }
  }

  @Override
  public void close() {
    if (!closed) {
      closed = true;
      views.forEach(StoreView::close);
    }
  }
}
