package io.basaltdb.engine.store;

import io.basaltdb.storage.Cell;
import io.basaltdb.engine.cell.CellIterator;
import io.basaltdb.engine.file.BlockFileReader;
import io.basaltdb.engine.file.FileInfo;
import io.basaltdb.engine.memstore.MemStore;
import java.util.ArrayList;
import java.util.List;

/**
 * What a read takes from one store's view (memstores and files at one moment, {@link StoreView}):
 * the cell sources it merges, with the files that cannot hold what it asks skipped (key range,
 * time range, bloom filter), and the last row before a row, for reverse scans. Stateless: the
 * view holds the state, and the store's statistics count the skipped files.
 */
final class ViewSources {
  private ViewSources() {}

  /**
   * The sources of a read over the view: the memstores and files that may hold cells in
   * {@code [startRow, stopRow)} (empty stop = to the end), and for a point read
   * ({@code getRow} non-null) only files whose bloom filter may hold the row or one of
   * {@code qualifiers}, and files not wholly older than {@code minTimestamp}. A scan of a few
   * given rows ({@code onlyRows}, at most {@link #BLOOM_ROWS} of them; null: any rows) reads
   * only files whose bloom filter may hold one of them.
   */
  static List<CellIterator> sources(StoreView v, byte[] family, StoreStats stats,
      byte[] startRow, byte[] stopRow, byte[] getRow, List<byte[]> onlyRows,
      java.util.NavigableSet<byte[]> qualifiers, long minTimestamp,
      io.basaltdb.storage.ScanMetrics counts) {
    if (onlyRows != null && onlyRows.size() > BLOOM_ROWS) {
      onlyRows = null; // more bloom probes than a file's seek costs
    }
    List<CellIterator> its = new ArrayList<>();
    if (getRow == null) {
      if (v.active.mayHoldRows(startRow, stopRow)) {
        its.add(v.active.iterator());
      }
      for (int i = 0; i < v.flushing.size(); i++) { // indexed: no iterator per read
        MemStore m = v.flushing.get(i);
        if (m.mayHoldRows(startRow, stopRow)) {
          its.add(m.iterator());
        }
      }
    } else {
      its.addAll(memstoreSources(v, family, getRow));
    }
    its.addAll(fileSources(v, stats, startRow, stopRow, getRow, onlyRows, qualifiers,
        minTimestamp, counts));
    return its;
  }

  /**
   * The memstores holding a cell of {@code row}, each as an iterator already at the row's first
   * cell of {@code family} (one skip-list search answers both).
   */
  static List<CellIterator> memstoreSources(StoreView v, byte[] family, byte[] row) {
    Cell target = io.basaltdb.engine.cell.CellComparator.firstOnRow(row, family);
    List<CellIterator> its = new ArrayList<>(1 + v.flushing.size());
    addIfPresent(its, v.active.iteratorAtRow(row, target));
    for (int i = 0; i < v.flushing.size(); i++) {
      addIfPresent(its, v.flushing.get(i).iteratorAtRow(row, target));
    }
    return its;
  }

  /** The files of {@link #sources}, without the memstores. */
  static List<CellIterator> fileSources(StoreView v, StoreStats stats, byte[] startRow,
      byte[] stopRow, byte[] getRow, List<byte[]> onlyRows,
      java.util.NavigableSet<byte[]> qualifiers, long minTimestamp,
      io.basaltdb.storage.ScanMetrics counts) {
    List<CellIterator> its = new ArrayList<>(v.files.size());
    for (int i = 0; i < v.files.size(); i++) {
      StoreFile f = v.files.get(i);
      FileInfo info = f.info();
      if (info.maxTimestamp() < minTimestamp) {
        stats.filesSkippedByTime.incrementAndGet();
        if (counts != null) {
          counts.filesSkippedByTime.incrementAndGet();
        }
        continue;
      }
      if (!overlaps(info, startRow, stopRow)) {
        continue;
      }
      if (getRow != null && !mightContain(f.reader(), getRow, qualifiers)
          || getRow == null && onlyRows != null && !mightContainAny(f.reader(), onlyRows,
              qualifiers)) {
        stats.filesSkippedByBloom.incrementAndGet();
        if (counts != null) {
          counts.filesSkippedByBloom.incrementAndGet();
        }
        continue;
      }
      if (counts != null) {
        counts.filesRead.incrementAndGet();
      }
      its.add(f.reader().scanner());
    }
    return its;
  }

  /**
   * Whether every cell, put or delete marker, of the files of the view whose key range holds
   * {@code row} is older than {@code timestamp}: a point read that found in the memstores a
   * version of each column it wants at least that new then reads none of them, and they are
   * counted into {@code counts} (null: not counted) as passed over by time.
   */
  static boolean filesOlderThan(StoreView v, byte[] row, long timestamp,
      io.basaltdb.storage.ScanMetrics counts) {
    int holding = 0;
    for (int i = 0; i < v.files.size(); i++) {
      FileInfo info = v.files.get(i).info();
      if (java.util.Arrays.compareUnsigned(info.firstCell().row(), row) <= 0
          && java.util.Arrays.compareUnsigned(info.lastCell().row(), row) >= 0) {
        if (info.maxTimestamp() >= timestamp) {
          return false;
        }
        holding++;
      }
    }
    if (counts != null) {
      counts.filesSkippedByTime.addAndGet(holding);
    }
    return true;
  }

  /** Whether the file's rows meet {@code [startRow, stopRow)} (empty or null stop: no end). */
  private static boolean overlaps(FileInfo info, byte[] startRow, byte[] stopRow) {
    return (stopRow == null || stopRow.length == 0
        || java.util.Arrays.compareUnsigned(info.firstCell().row(), stopRow) < 0)
        && java.util.Arrays.compareUnsigned(info.lastCell().row(), startRow) >= 0;
  }

  /**
   * Whether the view holds a cell (put or delete marker) in {@code [startRow, stopRow)} (empty
   * stop: to the end) with a sequence id above {@code point} or among {@code hidden} (ascending,
   * at or below it: writes a snapshot did not see): memstores and files whose newest sequence
   * id is below all of those are not read.
   */
  static boolean writtenAfter(StoreView v, byte[] family, byte[] startRow, byte[] stopRow,
      long point, long[] hidden) {
    long floor = io.basaltdb.engine.cell.UpToSequence.floor(point, hidden);
    List<MemStore> memstores = new ArrayList<>(v.flushing);
    memstores.add(v.active);
    boolean oneRow = stopRow.length == startRow.length + 1 && stopRow[startRow.length] == 0
        && java.util.Arrays.equals(stopRow, 0, startRow.length, startRow, 0, startRow.length);
    for (MemStore m : memstores) {
      if (m.maxSequenceId() <= floor || !m.mayHoldRows(startRow, stopRow)) {
        continue;
      }
      CellIterator it = oneRow // found through the memstore's row index when it has the row
          ? m.iteratorAtRow(startRow, io.basaltdb.engine.cell.CellComparator.firstOnRow(
              startRow, family))
          : m.iterator();
      if (it != null && newer(it, family, startRow, stopRow, point, hidden)) {
        return true;
      }
    }
    for (StoreFile f : v.files) {
      FileInfo info = f.info();
      if (info.maxSequenceId() <= floor
          || stopRow.length > 0 && java.util.Arrays.compareUnsigned(info.firstCell().row(),
              stopRow) >= 0
          || java.util.Arrays.compareUnsigned(info.lastCell().row(), startRow) < 0) {
        continue;
      }
      if (newer(f.reader().scanner(), family, startRow, stopRow, point, hidden)) {
        return true;
      }
    }
    return false;
  }

  private static boolean newer(CellIterator it, byte[] family, byte[] startRow, byte[] stopRow,
      long point, long[] hidden) {
    try (it) {
      it.seek(io.basaltdb.engine.cell.CellComparator.firstOnRow(startRow, family));
      for (Cell c = it.current(); c != null; it.next(), c = it.current()) {
        if (stopRow.length > 0 && java.util.Arrays.compareUnsigned(c.row(), stopRow) >= 0) {
          return false;
        }
        if (io.basaltdb.engine.cell.UpToSequence.hides(c.sequenceId(), point, hidden)) {
          return true;
        }
      }
      return false;
    }
  }

  /**
   * The last row before {@code row} (an empty row: the last row of all) that any memstore or
   * file of the view holds, visible or not, or null.
   */
  static byte[] lastRowBefore(StoreView v, byte[] family, byte[] row) {
    if (row.length == 0) {
      byte[] best = v.active.lastRow();
      for (MemStore m : v.flushing) {
        best = later(best, m.lastRow());
      }
      for (StoreFile f : v.files) {
        best = later(best, f.info().lastCell().row());
      }
      return best;
    }
    byte[] best = v.active.lastRowBefore(row, family);
    for (MemStore m : v.flushing) {
      best = later(best, m.lastRowBefore(row, family));
    }
    for (StoreFile f : v.files) {
      best = later(best, f.reader().lastRowBefore(row));
    }
    return best;
  }

  private static byte[] later(byte[] a, byte[] b) {
    if (a == null) {
      return b;
    }
    return b != null && java.util.Arrays.compareUnsigned(b, a) > 0 ? b : a;
  }

  private static void addIfPresent(List<CellIterator> its, CellIterator it) {
    if (it != null) {
      its.add(it);
    }
  }

  /** Rows of a scan of given rows checked against each file's bloom filter, at most. */
  static final int BLOOM_ROWS = 64;

  private static boolean mightContainAny(BlockFileReader r, List<byte[]> rows,
      java.util.NavigableSet<byte[]> qualifiers) {
    if (r.info().bloomType() == io.basaltdb.storage.BloomType.NONE) {
      return true;
    }
    for (byte[] row : rows) {
      if (mightContain(r, row, qualifiers)) {
        return true;
      }
    }
    return false;
  }

  private static boolean mightContain(BlockFileReader r, byte[] row,
      java.util.NavigableSet<byte[]> qualifiers) {
    if (qualifiers == null || qualifiers.isEmpty()
        || r.info().bloomType() != io.basaltdb.storage.BloomType.ROWCOL) {
      return r.mightContainRow(row);
    }
    if (r.mightContainColumn(row, new byte[0])) {
      return true; // family delete markers live under the empty qualifier
    }
    for (byte[] q : qualifiers) {
      if (r.mightContainColumn(row, q)) {
        return true;
      }
    }
    return false;
  }

}
