package io.basaltdb.engine;

import io.basaltdb.storage.Cell;
import io.basaltdb.storage.InvalidArgumentException;
import io.basaltdb.storage.StorageTransaction;
import io.basaltdb.storage.TableName;
import io.basaltdb.storage.TransactionTooLargeException;
import io.basaltdb.engine.cell.CellComparator;
import io.basaltdb.engine.cell.CellIterator;
import io.basaltdb.engine.read.CellResolver;
import io.basaltdb.engine.region.ReadOverlay;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.NavigableSet;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A transaction's uncommitted writes ({@link Transaction}, {@link ClientTransaction}): cells
 * already stamped (families as the table names them, timestamps resolved), each write given a
 * sequence id of its own from {@link CellResolver#OWN_WRITES} up, kept per table and family
 * ({@link OwnCells}), and logged in write order so that {@link #rollbackTo} can take back what
 * came after a mark. Per table, each row's basis: the snapshot cut the transaction had when it
 * first wrote the row. The cells' heap is bounded by {@link
 * StorageTransaction#MAX_PENDING_BYTES}.
 *
 * <p>Thread-safety: one writer (the transaction's, under its monitor); readers may iterate the
 * cells meanwhile ({@link OwnCells}).
 */
final class OwnWrites {
  private record Written(Families families, Cell cell) {}

  /**
   * A row's basis (the cut it was first written at) and its newest own sequence id (an upper
   * bound after a rollback to a mark).
   */
  private static final class RowWritten {
    final io.basaltdb.engine.region.SnapshotCut basis;
    long newest;

    RowWritten(io.basaltdb.engine.region.SnapshotCut basis) {
      this.basis = basis;
    }
  }

  /** One table's own writes: its cells per family, and each row's basis. */
  private static final class Own {
    final Families families = new Families();
    /**
     * Per row written (by its bytes): its basis and its newest own sequence id. Concurrent: a
     * statement's reads on other threads ask {@code mayHoldRow} while the writer adds rows, and
     * a miss there would leave a row's own cells out of a point read.
     */
    final ConcurrentHashMap<ByteBuffer, RowWritten> rows = new ConcurrentHashMap<>();
  }

  /**
   * A table's own cells per family, in family order: a table has few families, found by a scan
   * of an array that the writer replaces whole when it adds one or a family's cells move to a
   * larger form ({@link OwnCells#add}), so a statement's parallel region scans read it while
   * the writer adds to it (a concurrent skip list here was a few percent of a small
   * transaction's write).
   */
  private static final class Families {
    private record Entry(byte[] family, OwnCells cells) {}

    private volatile Entry[] entries = new Entry[0];

    OwnCells get(byte[] family) {
      for (Entry e : entries) {
        if (e.family() == family || Arrays.equals(e.family(), family)) {
          return e.cells();
        }
      }
      return null;
    }

    /** Adds {@code cell} to its family's cells, made if it has none (by the one writer). */
    void add(Cell cell) {
      Entry[] old = entries;
      int at = 0;
      while (at < old.length && old[at].family() != cell.family()
          && Arrays.compareUnsigned(old[at].family(), cell.family()) < 0) {
        at++;
      }
      if (at < old.length && (old[at].family() == cell.family()
          || Arrays.equals(old[at].family(), cell.family()))) {
        OwnCells now = old[at].cells().add(cell);
        if (now != old[at].cells()) {
          Entry[] changed = old.clone();
          changed[at] = new Entry(old[at].family(), now);
          entries = changed;
        }
        return;
      }
      Entry[] more = new Entry[old.length + 1];
      System.arraycopy(old, 0, more, 0, at);
      more[at] = new Entry(cell.family(), OwnCells.empty().add(cell));
      System.arraycopy(old, at, more, at + 1, old.length - at);
      entries = more;
    }

    /** Takes {@code cell} back from its family's cells. */
    void remove(Cell cell) {
      OwnCells cells = get(cell.family());
      if (cells != null) {
        cells.remove(cell);
      }
    }

    /** Each family with its cells, in family order. */
    void forEach(java.util.function.BiConsumer<byte[], OwnCells> action) {
      for (Entry e : entries) {
        action.accept(e.family(), e.cells());
      }
    }
  }

  private final Map<TableName, Own> own = new HashMap<>();
  /** The table last looked up and its writes (most transactions write one table). */
  private TableName lastTable;
  private Own lastOwn;
  private final List<Written> log = new ArrayList<>();
  private long nextSequence = CellResolver.OWN_WRITES;
  private long pendingBytes;
  /** Changes when own writes are taken back: what was read over them may differ now. */
  private long generation;

  /** The newest own sequence id given (a statement's reads see the own writes up to it). */
  long newest() {
    return nextSequence - 1;
  }

  boolean isEmpty() {
    return log.isEmpty();
  }

  int mark() {
    return log.size();
  }

  /** Takes back every own cell written after {@code mark}. */
  void rollbackTo(int mark) {
    if (mark < 0 || mark > log.size()) {
      throw new InvalidArgumentException("no mark " + mark + " in this transaction (" + log.size()
          + " writes)");
    }
    generation++;
    while (log.size() > mark) {
      Written w = log.remove(log.size() - 1);
      w.families().remove(w.cell());
      pendingBytes -= w.cell().heapSize() + 40;
    }
  }

  void clear() {
    generation++;
    own.clear();
    lastTable = null;
    lastOwn = null;
    log.clear();
    pendingBytes = 0;
  }

  /**
   * Forgets every own write of {@code table} (a commit that writes its rows another way took
   * them): marks made before no longer take them back.
   */
  void forget(TableName table) {
    Own o = own.remove(table);
    if (o == null) {
      return;
    }
    generation++;
    lastTable = null;
    lastOwn = null;
    log.removeIf(w -> {
      if (w.families() != o.families) {
        return false;
      }
      pendingBytes -= w.cell().heapSize() + 40;
      return true;
    });
  }

  /** The table's own writes, or null. */
  private Own ownOf(TableName table) {
    if (table == lastTable) {
      return lastOwn;
    }
    Own o = own.get(table);
    if (o != null) {
      lastTable = table;
      lastOwn = o;
    }
    return o;
  }

  /** The tables written. */
  Set<TableName> tables() {
    return own.keySet();
  }

  /**
   * Keeps {@code cells} (stamped but for their sequence id) as one write of {@code row} of
   * {@code table}, whose basis is {@code basis} unless the row was written before; returns them
   * with their sequence id. Past the bound nothing is kept: {@link
   * TransactionTooLargeException}.
   */
  List<Cell> keep(TableName table, byte[] row, List<Cell> cells,
      io.basaltdb.engine.region.SnapshotCut basis) {
    Own o = ownOf(table);
    if (o == null) {
      own.put(table, o = new Own());
    }
    long seq = nextSequence++;
    int mark = log.size();
    List<Cell> kept = new ArrayList<>(cells.size());
    boolean inOrder = true;
    for (Cell c : cells) {
      Cell s = new Cell(row, c.family(), c.qualifier(), c.timestamp(), c.type(), seq, c.value());
      inOrder &= kept.isEmpty()
          || CellComparator.INSTANCE.compare(kept.get(kept.size() - 1), s) < 0;
      kept.add(s);
    }
    // added in cell order: rows written in key order then stay an appended run (OwnCells.Run)
    for (Cell s : inOrder ? kept : sorted(kept)) {
      o.families.add(s);
      log.add(new Written(o.families, s));
      pendingBytes += s.heapSize() + 40;
    }
    if (pendingBytes > StorageTransaction.MAX_PENDING_BYTES) {
      rollbackTo(mark);
      throw new TransactionTooLargeException("a transaction's uncommitted writes passed "
          + (StorageTransaction.MAX_PENDING_BYTES >> 20) + " MiB at row " + Cell.printable(row)
          + " of table " + table + ": commit more often");
    }
    o.rows.computeIfAbsent(ByteBuffer.wrap(row), r -> new RowWritten(basis)).newest = seq;
    return kept;
  }

  private static List<Cell> sorted(List<Cell> cells) {
    List<Cell> copy = new ArrayList<>(cells);
    copy.sort(CellComparator.INSTANCE);
    return copy;
  }

  /** The newest own sequence id written to {@code row} of {@code table}, or -1: none. */
  long newestOf(TableName table, byte[] row) {
    Own o = ownOf(table);
    RowWritten w = o == null ? null : o.rows.get(ByteBuffer.wrap(row));
    return w == null ? -1 : w.newest;
  }

  /** Changes whenever own writes are taken back ({@link #rollbackTo}, {@link #clear}). */
  long generation() {
    return generation;
  }

  /** The snapshot point {@code row} of {@code table} was first written at, or null. */
  io.basaltdb.engine.region.SnapshotCut basis(TableName table, byte[] row) {
    Own o = ownOf(table);
    RowWritten w = o == null ? null : o.rows.get(ByteBuffer.wrap(row));
    return w == null ? null : w.basis;
  }

  /** The own cells of {@code table} up to sequence {@code upTo}, for region scans; or null. */
  ReadOverlay overlay(TableName table, long upTo) {
    Own o = ownOf(table);
    if (o == null) {
      return null;
    }
    Families families = o.families;
    return new ReadOverlay() {
      @Override
      public CellIterator source(byte[] family) {
        OwnCells m = families.get(family);
        return m == null || m.isEmpty() ? null : new io.basaltdb.engine.cell.UpToSequence(m.iterator(), upTo);
      }

      @Override
      public boolean mayHoldRow(byte[] row) {
        return o.rows.containsKey(ByteBuffer.wrap(row));
      }

      @Override
      public byte[] lastRowBefore(byte[] family, byte[] row) {
        OwnCells m = families.get(family);
        if (m == null) {
          return null;
        }
        return row.length == 0 ? m.lastRow() : m.lastRowBefore(row, family);
      }
    };
  }

  /** The own cells of {@code row} in {@code family} up to {@code upTo}, in cell order. */
  List<Cell> cells(TableName table, byte[] family, byte[] row, long upTo) {
    Own o = ownOf(table);
    OwnCells m = o == null ? null : o.families.get(family);
    List<Cell> out = new ArrayList<>();
    if (m == null) {
      return out;
    }
    try (CellIterator it = new io.basaltdb.engine.cell.UpToSequence(m.iterator(), upTo)) {
      it.seek(CellComparator.firstOnRow(row, family));
      for (Cell c = it.current(); c != null && Arrays.equals(c.row(), row); it.next(),
          c = it.current()) {
        out.add(c);
      }
    }
    return out;
  }

  /** The rows of {@code table} with own cells up to {@code upTo} in {@code [start, stop)}. */
  NavigableSet<byte[]> rows(TableName table, byte[] start, byte[] stop, long upTo) {
    NavigableSet<byte[]> rows = new TreeSet<>(Arrays::compareUnsigned);
    Own o = ownOf(table);
    if (o == null) {
      return rows;
    }
    o.families.forEach((family, m) -> {
      try (CellIterator it = new io.basaltdb.engine.cell.UpToSequence(m.iterator(), upTo)) {
        it.seek(CellComparator.firstOnRow(start, family));
        for (Cell c = it.current(); c != null; it.next(), c = it.current()) {
          if (stop.length > 0 && Arrays.compareUnsigned(c.row(), stop) >= 0) {
            break;
          }
          rows.add(c.row());
        }
      }
    });
    return rows;
  }

  /**
   * Per row of {@code table}, the own cells a commit writes. All of them get one sequence id
   * then, at which no delete marker covers a put (they are equal), so what a later own write
   * undid is left out here: a put replaced by a later put of its column and timestamp, and a put
   * covered by a later own delete marker. What is left, written at one sequence id over the
   * committed cells, reads as the own writes read over them. The write that commits them gives
   * them its sequence id (a row written once keeps its cells as they were kept here).
   */
  TreeMap<byte[], List<Cell>> netCells(TableName table) {
    TreeMap<byte[], List<Cell>> rows = new TreeMap<>(Arrays::compareUnsigned);
    Own o = ownOf(table);
    if (o == null) {
      return rows;
    }
    o.families.forEach((f, m) -> {
      List<Cell> family = new ArrayList<>();
      byte[] row = null;
      for (Cell c : m.cells()) {
        if (row != null && !Arrays.equals(row, c.row())) {
          addNet(rows, row, family);
          family = new ArrayList<>();
        }
        row = c.row();
        family.add(c);
      }
      if (row != null) {
        addNet(rows, row, family);
      }
    });
    return rows;
  }

  /** {@code cells}: one row's own cells of one family. */
  private static void addNet(TreeMap<byte[], List<Cell>> rows, byte[] row, List<Cell> cells) {
    if (oneWrite(cells)) { // the usual row written once: nothing of it covered, in cell order
      List<Cell> kept = rows.get(row);
      if (kept == null) {
        rows.put(row, cells); // as kept (the commit stamps its own sequence id on them)
      } else {
        kept.addAll(cells);
      }
      return;
    }
    List<Cell> newestFirst = new ArrayList<>(cells);
    newestFirst.sort((a, b) -> Long.compare(b.sequenceId(), a.sequenceId()));
    Covering later = new Covering();
    List<Cell> kept = new ArrayList<>();
    int i = 0;
    while (i < newestFirst.size()) {
      int j = i;
      long seq = newestFirst.get(i).sequenceId();
      while (j < newestFirst.size() && newestFirst.get(j).sequenceId() == seq) {
        j++;
      }
      List<Cell> write = newestFirst.subList(i, j); // one own write: its markers cover none of its puts
      for (Cell c : write) {
        if (c.type().isDelete() || !later.covers(c)) {
          kept.add(new Cell(row, c.family(), c.qualifier(), c.timestamp(), c.type(), 0,
              c.value()));
        }
      }
      write.forEach(later::add);
      i = j;
    }
    kept.sort(CellComparator.INSTANCE);
    rows.computeIfAbsent(row, r -> new ArrayList<>()).addAll(kept);
  }

  /** Whether {@code cells} are all of one own write (one sequence id). */
  private static boolean oneWrite(List<Cell> cells) {
    long seq = cells.get(0).sequenceId();
    for (int i = 1; i < cells.size(); i++) {
      if (cells.get(i).sequenceId() != seq) {
        return false;
      }
    }
    return true;
  }

  /** What the own writes after some point cover of one row and family's earlier puts. */
  private static final class Covering {
    private record Version(java.nio.ByteBuffer column, long timestamp) {}

    private long familyDeleted = -1;
    private final Map<java.nio.ByteBuffer, Long> columnDeleted = new HashMap<>();
    private final Set<Version> versionDeleted = new HashSet<>();
    private final Set<Long> familyVersionDeleted = new HashSet<>();
    private final Set<Version> written = new HashSet<>();

    void add(Cell c) {
      java.nio.ByteBuffer column = java.nio.ByteBuffer.wrap(c.qualifier());
      switch (c.type()) {
        case DELETE_FAMILY -> familyDeleted = Math.max(familyDeleted, c.timestamp());
        case DELETE_FAMILY_VERSION -> familyVersionDeleted.add(c.timestamp());
        case DELETE_COLUMN -> columnDeleted.merge(column, c.timestamp(), Math::max);
        case DELETE -> versionDeleted.add(new Version(column, c.timestamp()));
        default -> written.add(new Version(column, c.timestamp()));
      }
    }

    /** Whether a put made before these writes is gone: replaced or deleted by them. */
    boolean covers(Cell put) {
      java.nio.ByteBuffer column = java.nio.ByteBuffer.wrap(put.qualifier());
      Version v = new Version(column, put.timestamp());
      return written.contains(v) || versionDeleted.contains(v)
          || put.timestamp() <= familyDeleted
          || put.timestamp() <= columnDeleted.getOrDefault(column, -1L)
          || familyVersionDeleted.contains(put.timestamp());
    }
  }
}
