package io.basaltdb.engine.read;

import io.basaltdb.storage.Cell;
import io.basaltdb.storage.CellType;
import io.basaltdb.engine.cell.CellComparator;
import io.basaltdb.engine.cell.CellIterator;
import java.util.Arrays;

/**
 * The version, TTL and tombstone rules in one place, shared by reads and compactions.
 * Consumes a merged, sorted stream of one family's cells and yields the survivors.
 *
 * <h2>Rules (the engine's semantics)</h2>
 * <ul>
 *   <li>A delete marker covers only writes made before it: a put is covered when a marker of
 *       a higher sequence id matches it — DELETE_FAMILY/DELETE_COLUMN with timestamp at or
 *       above the put's, DELETE_FAMILY_VERSION/DELETE at exactly the put's timestamp. So a
 *       put after a delete is visible, and dropping markers at major compaction changes
 *       nothing a reader sees.
 *   <li>Puts of one column at the same timestamp: the highest sequence id wins, the others
 *       are gone.
 *   <li>A column's live versions are its puts not covered by a family or column delete, newest
 *       first. The first {@code VERSIONS} of them occupy the version slots; a put covered by a
 *       <em>version</em> delete still occupies its slot (so deleting the newest version does
 *       not bring back one that was already beyond {@code VERSIONS}). A slot's put is visible
 *       unless version-deleted or expired (timestamp older than TTL) — expired ones stay
 *       visible while among the newest {@code MIN_VERSIONS} slots.
 *   <li>Reads then apply the query: qualifiers, time range and versions wanted.
 * </ul>
 *
 * <h2>Modes</h2>
 * {@code READ} hides cells above the read point and yields visible puts. Compactions get the
 * smallest read point of any open scanner: cells above it are kept untouched and otherwise
 * ignored. {@code MINOR} (a subset of files, or a flushed memstore) keeps markers and drops only
 * what is gone whatever the other files hold: puts covered by a family/column delete,
 * same-timestamp losers, expired puts when MIN_VERSIONS is 0, and puts beyond the first
 * {@code VERSIONS} slots of their column here (other files can only add versions ahead of them
 * or cover them: a marker that covers a put covers the older ones, and a version-deleted put
 * keeps its slot). {@code MAJOR} (every file) keeps the visible puts, drops
 * DELETE_COLUMN and DELETE_FAMILY markers with everything they cover, and keeps a
 * version-deleted put that still holds a version slot together with the marker deleting it:
 * dropping both would let an older put written later (a higher sequence id, so outside this
 * compaction) move up into the freed slot. DELETE_FAMILY_VERSION markers are always kept (rare,
 * and they sort apart from the puts they delete). Not thread-safe.
 */
public final class CellResolver {
  public enum Mode { READ, MINOR, MAJOR }

  /**
   * Sequence ids from here up are a transaction's own uncommitted cells, merged into its reads
   * ({@code region.ReadOverlay}; the overlay passes only those its read may see, and the region
   * scanner then hides the stored cells above the read point itself and resolves at an
   * unbounded one). No committed write ever gets one (2^62 writes).
   */
  public static final long OWN_WRITES = 1L << 62;

  /** Steps over unwanted cells before {@link #skipToWantedColumn} seeks instead. */
  private static final int STEPS_BEFORE_SEEK = 4;

  private final CellIterator in;
  private final RetentionRules rules;
  private final long expiry;
  private final long readPoint;
  private final Mode mode;
  private final ColumnQuery query;
  private byte[] stopRow;

  private final MarkerList familyMarkers = new MarkerList();
  private final MarkerList columnMarkers = new MarkerList();
  private byte[] row;
  private byte[] qualifier;
  private boolean hasLastPut;
  private long lastPutTs;
  private int slots;
  private int returned;
  /** The last wanted column of the last row to read is done: nothing more to return. */
  private boolean finished;
  private final java.util.ArrayDeque<Cell> out = new java.util.ArrayDeque<>();

  public CellResolver(CellIterator in, RetentionRules rules, long nowMillis, long readPoint,
      Mode mode, ColumnQuery query) {
    this.in = in;
    this.rules = rules;
    this.expiry = rules.expiryBoundary(nowMillis);
    this.readPoint = readPoint;
    this.mode = mode;
    this.query = query == null ? ColumnQuery.LATEST_ALL : query;
  }

  /** Stop (return null) at the first row {@code >= stopRow}; null means no stop. */
  public void setStopRow(byte[] stopRow) {
    this.stopRow = stopRow;
  }

  public CellIterator input() {
    return in;
  }

  /** Moves to the first cell of {@code row} (of this store's {@code family}) or after. */
  public void seekToRow(byte[] targetRow, byte[] family) {
    out.clear();
    row = null;
    finished = false;
    in.seek(CellComparator.firstOnRow(targetRow, family));
  }

  /** The next surviving cell, or null at the end of the input or the stop row. */
  public Cell next() {
    if (!out.isEmpty()) {
      return out.poll();
    }
    if (finished) {
      return null;
    }
    while (true) {
      Cell c = in.current();
      if (c == null) {
        return null;
      }
      if (row == null || !Arrays.equals(row, c.row())) {
        if (stopRow != null && CellComparator.compareRows(c.row(), stopRow) >= 0) {
          return null;
        }
        row = c.row();
        familyMarkers.clear();
        startColumn(c.qualifier());
      } else if (!Arrays.equals(qualifier, c.qualifier())) {
        startColumn(c.qualifier());
      }
      if (c.sequenceId() > readPoint) {
        in.next();
        if (mode == Mode.READ) {
          continue;
        }
        return c;
      }
      if (mode == Mode.READ && !c.type().isFamilyMarker() && !query.wants(c.qualifier())) {
        if (c.qualifier().length == 0) {
          in.next(); // family markers may follow under the empty qualifier: do not seek past them
        } else {
          skipToWantedColumn(c);
        }
        continue;
      }
      if (c.type().isDelete()) {
        (c.type().isFamilyMarker() ? familyMarkers : columnMarkers).add(c);
        in.next();
        if (mode == Mode.MINOR || (mode == Mode.MAJOR && c.type() == CellType.DELETE_FAMILY_VERSION)) {
          return c;
        }
        if (mode == Mode.MAJOR && c.type() == CellType.DELETE && newerWriteFollows(c)) {
          columnMarkers.markEmitted(c);
          return c; // a put kept above the read point follows; re-emitting later would be out of order
        }
        continue;
      }
      Cell out = resolvePut(c);
      if (out != null) {
        return out;
      }
    }
  }

  /** True when the next input cell is a write of the same column and timestamp above the read point. */
  private boolean newerWriteFollows(Cell marker) {
    Cell n = in.current();
    return n != null && n.sequenceId() > readPoint && n.timestamp() == marker.timestamp()
        && Arrays.equals(n.qualifier(), marker.qualifier()) && Arrays.equals(n.row(), marker.row());
  }

  private void startColumn(byte[] q) {
    qualifier = q;
    columnMarkers.clear();
    hasLastPut = false;
    slots = 0;
    returned = 0;
  }

  /** Decides one visible put; advances the input; returns it if it survives. */
  private Cell resolvePut(Cell c) {
    boolean dup = hasLastPut && lastPutTs == c.timestamp();
    hasLastPut = true;
    lastPutTs = c.timestamp();
    in.next();
    if (dup || familyMarkers.coversRange(c) || columnMarkers.coversRange(c)) {
      return null;
    }
    Cell familyVersionMarker = familyMarkers.versionMarkerFor(c);
    Cell columnVersionMarker = columnMarkers.versionMarkerFor(c);
    boolean versionDeleted = familyVersionMarker != null || columnVersionMarker != null;
    boolean expired = c.timestamp() < expiry;
    int slot = slots++;
    if (mode == Mode.MINOR) { // beyond VERSIONS here, beyond it whatever other files hold
      return slot >= rules.maxVersions() || expired && rules.minVersions() == 0 ? null : c;
    }
    boolean holdsSlot = slot < rules.maxVersions() && (!expired || slot < rules.minVersions());
    if (!holdsSlot) {
      return null;
    }
    if (versionDeleted) {
      if (mode != Mode.MAJOR) {
        return null;
      }
      if (familyVersionMarker == null && columnMarkers.claimEmit(columnVersionMarker)) {
        out.add(c);
        return columnVersionMarker; // sorts right before the put: same column and timestamp
      }
      return c;
    }
    if (mode == Mode.MAJOR) {
      return c;
    }
    if (!query.inTimeRange(c.timestamp()) || returned >= query.maxVersions()) {
      return null;
    }
    returned++;
    if (returned >= query.maxVersions()) {
      skipRestOfColumn(c);
    }
    return c;
  }

  /**
   * Seeks past the column's remaining versions, but only if there are any, and never past the
   * empty qualifier, under which the row's family markers sort (by timestamp, among its puts).
   */
  private void skipRestOfColumn(Cell c) {
    if (c.qualifier().length == 0) {
      return;
    }
    if (lastWantedColumnOfLastRow(c)) {
      finished = true; // a point read done: no seek of every source past the older versions
      return;
    }
    Cell n = in.current();
    if (n != null && Arrays.equals(n.qualifier(), c.qualifier()) && Arrays.equals(n.row(), c.row())) {
      in.seek(CellComparator.lastOnColumn(c.row(), c.family(), c.qualifier()));
    }
  }

  private boolean lastWantedColumnOfLastRow(Cell c) {
    byte[] r = c.row();
    return stopRow != null && stopRow.length == r.length + 1 && stopRow[r.length] == 0
        && Arrays.equals(stopRow, 0, r.length, r, 0, r.length)
        && query.qualifiers() != null && query.higher(c.qualifier()) == null;
  }

  /**
   * Moves past the unwanted column of {@code c} (the current cell) to the next wanted column of
   * its row, or the next row. A few steps first, as HBase's store scanner tries before it
   * seeks: the next cell is usually the next column (one version each), and a step costs
   * less than a seek (a search in each source) and its seek key. Steps only over cells the
   * seek would pass: of this row (the input holds one family) and before the wanted column.
   */
  private void skipToWantedColumn(Cell c) {
    byte[] next = query.higher(c.qualifier());
    byte[] r = c.row();
    for (int i = 0; i < STEPS_BEFORE_SEEK; i++) {
      in.next();
      Cell n = in.current();
      if (n == null || n.row() != r && !Arrays.equals(n.row(), r)
          || next != null && Arrays.compareUnsigned(n.qualifier(), next) >= 0) {
        return; // where the seek would land: the next row, or the wanted column (or after)
      }
    }
    if (next != null) {
      in.seek(CellComparator.firstOnColumn(c.row(), c.family(), next));
    } else {
      byte[] nextRow = Arrays.copyOf(c.row(), c.row().length + 1);
      in.seek(CellComparator.firstOnRow(nextRow, c.family()));
    }
  }

  /** Delete markers seen in the current row (family) or column; usually zero or one. */
  private static final class MarkerList {
    private static final long[] NO_LONGS = {};
    private static final boolean[] NO_FLAGS = {};
    private static final Cell[] NO_CELLS = {};

    // empty until the first marker: most reads meet none
    private long[] ts = NO_LONGS;
    private long[] seq = NO_LONGS;
    private boolean[] range = NO_FLAGS;
    private Cell[] cells = NO_CELLS;
    private boolean[] emitted = NO_FLAGS;
    private int n;

    void clear() {
      Arrays.fill(cells, 0, n, null);
      n = 0;
    }

    void add(Cell m) {
      if (n == ts.length) {
        int size = Math.max(4, n * 2);
        ts = Arrays.copyOf(ts, size);
        seq = Arrays.copyOf(seq, size);
        range = Arrays.copyOf(range, size);
        cells = Arrays.copyOf(cells, size);
        emitted = Arrays.copyOf(emitted, size);
      }
      cells[n] = m;
      emitted[n] = false;
      ts[n] = m.timestamp();
      seq[n] = m.sequenceId();
      range[n] = m.type() == CellType.DELETE_COLUMN || m.type() == CellType.DELETE_FAMILY;
      n++;
    }

    boolean coversRange(Cell put) {
      for (int i = 0; i < n; i++) {
        if (range[i] && put.timestamp() <= ts[i] && put.sequenceId() < seq[i]) {
          return true;
        }
      }
      return false;
    }

    void markEmitted(Cell m) {
      for (int i = n - 1; i >= 0; i--) {
        if (cells[i] == m) {
          emitted[i] = true;
        }
      }
    }

    /** True (and remembers it) the first time a kept marker is to be written out. */
    boolean claimEmit(Cell m) {
      for (int i = n - 1; i >= 0; i--) {
        if (cells[i] == m) {
          boolean first = !emitted[i];
          emitted[i] = true;
          return first;
        }
      }
      return false;
    }

    /** A one-version marker that deletes {@code put}, or null. */
    Cell versionMarkerFor(Cell put) {
      for (int i = 0; i < n; i++) {
        if (!range[i] && put.timestamp() == ts[i] && put.sequenceId() < seq[i]) {
          return cells[i];
        }
      }
      return null;
    }
  }
}
