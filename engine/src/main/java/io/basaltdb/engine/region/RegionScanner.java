package io.basaltdb.engine.region;

import io.basaltdb.storage.Cell;
import io.basaltdb.storage.ClosedException;
import io.basaltdb.engine.cell.CellComparator;
import io.basaltdb.engine.cell.UpToSequence;
import io.basaltdb.engine.cell.CellIterator;
import io.basaltdb.engine.read.CellResolver;
import io.basaltdb.engine.read.MergingIterator;
import io.basaltdb.engine.store.Store;
import io.basaltdb.engine.store.StoreView;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Rows of a region in key order, between a start row (inclusive) and a stop row (exclusive;
 * empty = the region's end), at one read point: a consistent snapshot, unaffected by writes,
 * flushes and compactions that happen while it is open (it holds its files). Each row's cells
 * come family by family, then column by column, newest version first.
 *
 * <p>Not thread-safe. Must be closed.
 */
public final class RegionScanner implements RowScanner {
  private final List<StoreView> views;
  private final List<CellResolver> resolvers = new ArrayList<>();
  private final Cell[] pending;
  private final byte[][] families;
  private final io.basaltdb.storage.filter.Filter filter;
  private final long readPoint;
  private boolean closed;
  private final boolean ownsViews;
  /** Where this scanner adds what it did when it closes (null: nowhere), and its counts. */
  private final io.basaltdb.storage.ScanMetrics metrics;
  private long seeks;
  private long rows;
  private long cells;
  /** The cells of the row last collected: the next row's list starts that large. */
  private int lastRowCells = 4;

  /** Takes ownership of {@code views} (one per store, acquired by the caller). */
  RegionScanner(List<Store> stores, List<StoreView> views, ReadSpec spec, byte[] startRow,
      byte[] stopRow, byte[] getRow, long readPoint, long nowMillis) {
    this(stores, views, spec, startRow, stopRow, getRow, readPoint, nowMillis, true);
  }

  /** With {@code ownsViews} false the views stay open when this scanner closes. */
  RegionScanner(List<Store> stores, List<StoreView> views, ReadSpec spec, byte[] startRow,
      byte[] stopRow, byte[] getRow, long readPoint, long nowMillis, boolean ownsViews) {
    this.ownsViews = ownsViews;
    this.views = views;
    this.readPoint = readPoint;
    this.filter = spec.filter();
    this.metrics = spec.metrics();
    List<byte[]> fams = new ArrayList<>();
    List<byte[]> onlyRows = filter == null ? null : filter.onlyRows();
    try {
      for (int i = 0; i < stores.size(); i++) {
        Store s = stores.get(i);
        var query = spec.queryFor(s.family());
        List<CellIterator> sources = s.sources(views.get(i), startRow, stopRow, getRow,
            onlyRows, query.qualifiers(), spec.minTimestamp(), metrics);
        AtPoint at = atPoint(sources, spec, s.family(), readPoint);
        if (at == null) {
          continue; // a point read that no memstore or file of this store can answer
        }
        CellIterator merged = at.cells();
        long point = at.point();
        merged.seek(CellComparator.firstOnRow(startRow, s.family()));
        CellResolver r = new CellResolver(merged, io.basaltdb.engine.read.RetentionRules.of(s.options()), nowMillis, point,
            CellResolver.Mode.READ, query);
        r.setStopRow(stopRow.length == 0 ? null : stopRow);
        resolvers.add(r);
        fams.add(s.family());
      }
    } catch (RuntimeException e) {
      if (ownsViews) {
        views.forEach(StoreView::close);
      }
      throw e;
    }
    families = fams.toArray(new byte[0][]);
    seeks = 1;
    pending = new Cell[resolvers.size()];
    for (int i = 0; i < pending.length; i++) {
      pending[i] = resolvers.get(i).next();
    }
  }

  /** A store's cells as a read at a point sees them, and the point to resolve them at. */
  record AtPoint(CellIterator cells, long point) {}

  /**
   * The store's {@code sources} merged as {@code spec} reads them at {@code readPoint}: with the
   * transaction's own cells of {@code family} (then resolved at an unbounded point, the stored
   * ones above the read point hidden first), or the cut's writes in flight hidden; null when
   * there is nothing to read.
   */
  static AtPoint atPoint(List<CellIterator> sources, ReadSpec spec, byte[] family,
      long readPoint) {
    CellIterator own = spec.overlay() == null ? null : spec.overlay().source(family);
    SnapshotCut cut = spec.snapshot();
    if (own != null) { // a transaction's own cells, above every point: the stored ones
      List<CellIterator> both = new ArrayList<>(2); // hide theirs above the point themselves
      if (!sources.isEmpty()) {
        both.add(new UpToSequence(merge(sources), readPoint,
            cut == null ? SnapshotCut.NONE : cut.inFlight()));
      }
      both.add(own);
      return new AtPoint(merge(both), Long.MAX_VALUE);
    }
    if (sources.isEmpty()) {
      return null;
    }
    if (cut != null && cut.inFlight().length > 0) {
      // the writes in flight at the cut are hidden before the resolver sees them
      return new AtPoint(new UpToSequence(merge(sources), readPoint, cut.inFlight()), readPoint);
    }
    return new AtPoint(merge(sources), readPoint);
  }

  private static CellIterator merge(List<CellIterator> sources) {
    return sources.size() == 1 ? sources.get(0) : new MergingIterator(sources);
  }

  public long readPoint() {
    return readPoint;
  }

  /** The next row's cells (after the filter, if any), or null when the range is exhausted. */
  @Override
  public List<Cell> next() {
    if (closed) {
      throw new ClosedException("region scanner");
    }
    while (true) {
      if (filter != null && filter.filterAllRemaining()) {
        return null;
      }
      byte[] row = nextRow();
      if (row == null) {
        return null;
      }
      if (filter == null) {
        return counted(collect(row));
      }
      filter.reset();
      if (filter.filterRowKey(row)) {
        byte[] hint = filter.nextRowHint(row);
        seekTo(hint != null && CellComparator.compareRows(hint, row) > 0 ? hint
            : java.util.Arrays.copyOf(row, row.length + 1));
        continue;
      }
      List<Cell> kept = collect(row);
      int n = 0; // the kept cells, filtered in place (the list is this row's own)
      for (int i = 0; i < kept.size(); i++) {
        Cell c = kept.get(i);
        if (filter.filterCell(c)) {
          kept.set(n++, filter.transformCell(c));
        }
      }
      if (n < kept.size()) {
        kept.subList(n, kept.size()).clear();
      }
      if (kept.isEmpty() || filter.filterRow(kept)) {
        continue;
      }
      filter.rowReturned();
      return counted(kept);
    }
  }

  private byte[] nextRow() {
    byte[] row = null;
    for (Cell c : pending) {
      if (c != null && (row == null || CellComparator.compareRows(c.row(), row) < 0)) {
        row = c.row();
      }
    }
    return row;
  }

  /** Seeks every family's reader to {@code row} (a filter's hint): rows before it are skipped. */
  private List<Cell> counted(List<Cell> row) {
    rows++;
    cells += row.size();
    return row;
  }

  private void seekTo(byte[] row) {
    seeks++;
    for (int i = 0; i < pending.length; i++) {
      if (pending[i] != null && CellComparator.compareRows(pending[i].row(), row) < 0) {
        resolvers.get(i).seekToRow(row, families[i]);
        pending[i] = resolvers.get(i).next();
      }
    }
  }

  /** A fresh list of the row's cells, sized as the last row's were (rows look alike). */
  private List<Cell> collect(byte[] row) {
    List<Cell> out = new ArrayList<>(lastRowCells);
    for (int i = 0; i < pending.length; i++) {
      CellResolver r = resolvers.get(i);
      while (pending[i] != null && Arrays.equals(pending[i].row(), row)) {
        out.add(pending[i]);
        pending[i] = r.next();
      }
    }
    lastRowCells = Math.max(1, out.size());
    return out;
  }

  @Override
  public void close() {
    if (!closed) {
      closed = true;
      if (metrics != null) {
        metrics.regions.incrementAndGet();
        metrics.seeks.addAndGet(seeks);
        metrics.rowsReturned.addAndGet(rows);
        metrics.cellsReturned.addAndGet(cells);
        for (CellResolver r : resolvers) {
          r.input().addTo(metrics);
        }
      }
      for (CellResolver r : resolvers) {
        r.input().close();
      }
      if (ownsViews) {
        views.forEach(StoreView::close);
      }
    }
  }
}
