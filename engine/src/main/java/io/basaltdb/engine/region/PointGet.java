package io.basaltdb.engine.region;

import io.basaltdb.engine.cell.CellComparator;
import io.basaltdb.engine.cell.CellIterator;
import io.basaltdb.engine.read.CellResolver;
import io.basaltdb.engine.read.ColumnQuery;
import io.basaltdb.engine.read.RetentionRules;
import io.basaltdb.engine.store.Store;
import io.basaltdb.engine.store.StoreView;
import io.basaltdb.storage.Cell;
import io.basaltdb.storage.ScanMetrics;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * One row read by its key without a filter: each store's memstores first (with a transaction's
 * own cells), and its files only when the memstores cannot answer alone. They can when the read
 * wants one version of named columns and found every one of them with a timestamp above the
 * newest timestamp of every file that may hold the row: no cell of those files can then be a
 * newer version, win a tie of timestamps, or be a delete marker covering what was found (a
 * marker covers only puts at or below its own timestamp). That is the usual case of a row
 * written since the last flush, and the files' bloom filters, block index and blocks are then
 * not touched (LevelDB's Get stops at the memtable the same way; HBase's lazy seek orders files
 * by their newest timestamp for the same reason). Otherwise the row is read from memstores and
 * files merged, exactly as a {@link RegionScanner} reads it. Stateless.
 */
final class PointGet {
  private PointGet() {}

  /**
   * The row's cells, family by family, as {@code spec} (whose filter is null) reads them at
   * {@code readPoint} over {@code views} (one per store, left open).
   */
  static List<Cell> read(List<Store> stores, List<StoreView> views, ReadSpec spec, byte[] row,
      long readPoint, long nowMillis) {
    if (spec.overlay() != null && !spec.overlay().mayHoldRow(row)) {
      // no own cell of the row: read the stored ones at the same cut and point alone (an
      // insert's check of a new key then resolves once, with no own cursor, not twice)
      spec = spec.withOverlay(null, spec.snapshot());
    }
    byte[] stop = Arrays.copyOf(row, row.length + 1);
    ScanMetrics metrics = spec.metrics();
    List<Cell> out = new ArrayList<>();
    for (int i = 0; i < stores.size(); i++) {
      Store s = stores.get(i);
      StoreView v = views.get(i);
      ColumnQuery query = spec.queryFor(s.family());
      if (metrics == null && memstoresMayAnswer(query)
          && throughRowIndex(s, v, spec, query, row, readPoint, nowMillis, out)) {
        continue;
      }
      List<CellIterator> memstores = s.memstoreSources(v, row);
      int before = out.size();
      if (memstoresMayAnswer(query) && (!memstores.isEmpty() || spec.overlay() != null)) {
        long oldest = resolve(memstores, s, spec, query, row, stop, readPoint, nowMillis, out,
            metrics);
        if (out.size() - before == query.qualifiers().size()
            && s.filesOlderThan(v, row, oldest, metrics)) {
          continue;
        }
        out.subList(before, out.size()).clear(); // the files may change the answer: read all
        memstores = s.memstoreSources(v, row);
      }
      List<CellIterator> all = new ArrayList<>(memstores);
      all.addAll(s.fileSources(v, row, stop, query.qualifiers(), spec.minTimestamp(), metrics));
      resolve(all, s, spec, query, row, stop, readPoint, nowMillis, out, metrics);
    }
    if (metrics != null) {
      metrics.regions.incrementAndGet();
      metrics.seeks.incrementAndGet();
      if (!out.isEmpty()) {
        metrics.rowsReturned.incrementAndGet();
        metrics.cellsReturned.addAndGet(out.size());
      }
    }
    return out;
  }

  /**
   * Adds the row's cells of the store from its memstore's row index alone ({@link
   * Store#newestInMemstore}: no cursor, no resolver) when that holds a put the read sees of every
   * wanted column, none expired or outside the time range, all newer than every file that may
   * hold the row (as above), and the read has no own cells of the row; else adds nothing and
   * returns false. A hot row, rewritten since the last flush, is read this way.
   */
  private static boolean throughRowIndex(Store s, StoreView v, ReadSpec spec, ColumnQuery query,
      byte[] row, long readPoint, long nowMillis, List<Cell> out) {
    if (spec.overlay() != null) { // it holds a cell of the row (see read)
      return false;
    }
    byte[][] qualifiers = query.sortedQualifiers();
    Cell[] found = new Cell[qualifiers.length];
    SnapshotCut cut = spec.snapshot();
    if (s.newestInMemstore(v, row, qualifiers, readPoint,
        cut == null ? SnapshotCut.NONE : cut.inFlight(), found) != qualifiers.length) {
      return false;
    }
    long expiry = RetentionRules.of(s.options()).expiryBoundary(nowMillis);
    long oldest = Long.MAX_VALUE;
    for (Cell c : found) {
      if (c.timestamp() < expiry || !query.inTimeRange(c.timestamp())) {
        return false;
      }
      oldest = Math.min(oldest, c.timestamp());
    }
    if (!s.filesOlderThan(v, row, oldest, null)) {
      return false;
    }
    java.util.Collections.addAll(out, found);
    s.stats().rowsReadThroughIndex.increment();
    return true;
  }

  /** One version of named columns: what the memstores alone may answer. */
  private static boolean memstoresMayAnswer(ColumnQuery query) {
    return query.maxVersions() == 1 && query.qualifiers() != null
        && !query.qualifiers().isEmpty();
  }

  /**
   * Adds the row's cells of the store as {@code sources} (and the spec's overlay) give them to
   * {@code out} and returns the oldest timestamp among them (Long.MAX_VALUE when none); closes
   * the sources, counting what they did into {@code metrics} (null: not counted).
   */
  private static long resolve(List<CellIterator> sources, Store s, ReadSpec spec,
      ColumnQuery query, byte[] row, byte[] stop, long readPoint, long nowMillis,
      List<Cell> out, ScanMetrics metrics) {
    RegionScanner.AtPoint at = RegionScanner.atPoint(sources, spec, s.family(), readPoint);
    if (at == null) {
      return Long.MAX_VALUE;
    }
    long oldest = Long.MAX_VALUE;
    try (CellIterator cells = at.cells()) {
      cells.seek(CellComparator.firstOnRow(row, s.family()));
      CellResolver r = new CellResolver(cells, RetentionRules.of(s.options()), nowMillis,
          at.point(), CellResolver.Mode.READ, query);
      r.setStopRow(stop);
      for (Cell c = r.next(); c != null; c = r.next()) {
        out.add(c);
        oldest = Math.min(oldest, c.timestamp());
      }
      if (metrics != null) {
        cells.addTo(metrics);
      }
    }
    return oldest;
  }
}
