package io.basaltdb.engine.memstore;

import io.basaltdb.storage.Cell;
import io.basaltdb.engine.cell.CellComparator;
import io.basaltdb.engine.cell.CellIterator;
import io.basaltdb.engine.cell.UpToSequence;
import io.basaltdb.storage.CellType;
import io.basaltdb.engine.memstore.Versions.Node;
import io.basaltdb.engine.memstore.Versions.Slot;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Iterator;
import java.util.Map;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiFunction;
import java.util.function.LongSupplier;

/**
 * The in-memory sorted buffer of one store: cells in {@link CellComparator} order, held as a
 * concurrent skip list of <em>columns</em> (row, family, qualifier) whose value is the
 * column's one cell or, once it has several, its versions in an immutable sorted chain. A scan
 * searches one node per column, however many versions a hot row was given since the last
 * flush, and skipping a column's older versions is one step to the next column.
 *
 * <p>Beside the skip list, a {@link RowIndex} of the rows rewritten since the last flush, up to
 * {@link #INDEXED_COLUMNS} columns: a point read of such a row and a write to a column it
 * already has find it by one hash lookup. A writer that added to a column of an indexed row it
 * did not find through the index (its creator not done yet) then indexes the column, so once
 * an add returns (before its write can commit) its cell is reachable through the index if its
 * row is indexed, and through the skip list always.
 *
 * <p>Writers add concurrently (a column's value or slot is replaced by compare-and-set,
 * copying the chain's cells before the new one: a new version usually goes first); readers
 * iterate without locks and see, in each column, the value it had when they came to it (MVCC
 * read points hide writes not yet committed, which are the only ones that can appear
 * meanwhile). A cell taken back (a write whose log sync failed) leaves its column; a column
 * left empty leaves the skip list, unless it is a slot, which stays, empty (readers pass it).
 * Once swapped out for flushing it receives no more writes; swapped out by an idle region, it is
 * {@link #freeze frozen} once the writes staged into it complete: read from sorted arrays.
 * Tracks its heap size, cell count, the range of sequence ids it holds and the range of rows it
 * has been given: a read whose key range misses the rows skips the memstore, as it skips a
 * file. The row range is widened before a cell is added, so a reader whose read point covers
 * the cell's write, taken after the write committed, sees the range that includes it; a cell
 * taken back leaves the range as it was. Reads go through a {@link ColumnCursor}. In a family
 * keeping one version, an add drops its column's versions no read can return any more ({@link
 * Versions.Pruning}), leaving what the readers registered by {@link #enterReader} may read.
 */
public final class MemStore {
  /** Bytes a cell costs beyond its own: its share of a skip-list node, or its chain node. */
  private static final int CELL_OVERHEAD = 40;
  /** Rows with more columns than this are not indexed: a slot array is copied per new column. */
  static final int INDEXED_COLUMNS = 64;
  /** The empty family: the first column of a row, whatever its families, sorts after it. */
  private static final byte[] NO_BYTES = {};

  /** Orders cells by column only: the keys of {@link #columns}. */
  private static final Comparator<Cell> BY_COLUMN = MemStore::compareColumns;

  /**
   * Each column's value: its one {@link Cell}, a {@link Node} chain of two or more, or, once its
   * row is indexed, a {@link Slot} holding either; keyed by the column's first cell. Null once
   * {@link #frozen} holds them (readers already over it keep their own reference).
   */
  private volatile ConcurrentSkipListMap<Cell, Object> columns =
      new ConcurrentSkipListMap<>(BY_COLUMN);
  private final RowIndex index;
  /** The columns as sorted arrays once {@link #freeze frozen}: reads search them instead. */
  private volatile FrozenColumns frozen;

  public MemStore() {
    this(INDEXED_COLUMNS);
  }

  /** With rows of more than {@code indexedColumns} columns left out of the index (tests). */
  MemStore(int indexedColumns) {
    this.index = new RowIndex(indexedColumns);
  }
  /** Bytes of the cells held (what {@link #add} and {@link #remove} report). */
  private final AtomicLong cellBytes = new AtomicLong();
  private final AtomicLong prunedCells = new AtomicLong();
  /**
   * Set, before its cell is added, by the first family delete marker (a family's or a family
   * version's) added here: from then on a column is pruned only if its row's family holds none
   * ({@link Versions.Pruning}); until then nobody looks.
   */
  private volatile boolean familyMarkers;
  private final java.util.function.Predicate<Cell> rowFamilyMarkers =
      c -> familyMarkers && rowHoldsFamilyMarker(c);
  private final ReaderPoints readers = new ReaderPoints();
  private final AtomicLong cellCount = new AtomicLong();
  private final AtomicLong minSeq = new AtomicLong(Long.MAX_VALUE);
  private final AtomicLong maxSeq = new AtomicLong(0);
  /** The smallest and largest row given, null while nothing was. */
  private volatile byte[] firstRow;
  private volatile byte[] lastRow;
  private static final VarHandle FIRST_ROW;
  private static final VarHandle LAST_ROW;

  static {
    try {
      var lookup = MethodHandles.lookup();
      FIRST_ROW = lookup.findVarHandle(MemStore.class, "firstRow", byte[].class);
      LAST_ROW = lookup.findVarHandle(MemStore.class, "lastRow", byte[].class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  static int compareColumns(Cell a, Cell b) {
    long pa = a.rowPrefix();
    long pb = b.rowPrefix();
    if (pa != pb) {
      return Long.compareUnsigned(pa, pb);
    }
    int c = CellComparator.compareRows(a.row(), b.row());
    if (c != 0) {
      return c;
    }
    if (a.family() != b.family()) {
      c = Arrays.compareUnsigned(a.family(), b.family());
      if (c != 0) {
        return c;
      }
    }
    return Arrays.compareUnsigned(a.qualifier(), b.qualifier());
  }

  /**
   * The remapping of one add to a column the skip list holds: its value with {@code cell} in
   * place (into its slot when it has one: the slot stays the value), pruned by {@code pruning}
   * when given. May run more than once.
   */
  private static final class Adding implements BiFunction<Cell, Object, Object> {
    final Cell cell;
    final Versions.Pruning pruning;
    boolean added;
    /** The column had a slot, or two cells or more before this one. */
    boolean slotOrHot;

    Adding(Cell cell, Versions.Pruning pruning) {
      this.cell = cell;
      this.pruning = pruning;
    }

    @Override
    public Object apply(Cell column, Object value) {
      if (value instanceof Slot s) { // a slot stays the value: no retry follows this
        added = s.add(cell, pruning);
        slotOrHot = true;
        return s;
      }
      slotOrHot = Versions.severalCells(value);
      Object with = Versions.with(value, cell);
      added = with != value; // set again by a retry after the value changed meanwhile
      return added && pruning != null ? pruning.apply(with) : with;
    }
  }

  /**
   * Whether the row and family of {@code c} hold a family marker here (in the empty qualifier's
   * column); true once frozen (no lookup then; nothing is added to a frozen memstore anyway).
   */
  private boolean rowHoldsFamilyMarker(Cell c) {
    ConcurrentSkipListMap<Cell, Object> m = columns;
    if (m == null) {
      return true;
    }
    Object markers = m.get(CellComparator.firstOnRow(c.row(), c.family()));
    return markers != null && Versions.holdsFamilyMarker(markers);
  }

  /** Adds a cell (see {@link #add(Cell, LongSupplier)}), pruning nothing. */
  public long add(Cell c) {
    return add(c, null);
  }

  /**
   * Adds a stamped cell of a write not yet complete. With {@code settled} (a family that keeps
   * one version), the versions of its column no read can return any more go ({@link
   * Versions.Pruning}): {@code settled} gives a point no pinned snapshot, write in flight or
   * region read point is below. Returns by how much the cells held changed, in bytes (negative
   * when more went than came).
   */
  public long add(Cell c, LongSupplier settled) {
    if (frozen != null) {
      throw new IllegalStateException("a frozen memstore takes no writes");
    }
    widenRows(c.row());
    if (c.type().isFamilyMarker() && !familyMarkers) {
      familyMarkers = true; // before the marker is in: a pruner that sees it sees the flag
    }
    Versions.Pruning pruning = null; // made once the cell goes to a column that has cells
    RowKey key = index.on() ? new RowKey(c.row()) : null; // no row indexed yet: no hash at all
    Slot slot = key == null ? null : index.slot(key, c);
    boolean added;
    if (slot != null) {
      pruning = settled == null ? null
          : new Versions.Pruning(settled, readers, rowFamilyMarkers);
      added = slot.add(c, pruning);
    } else {
      while (true) {
        if (columns.putIfAbsent(c, c) == null) { // a new column: one search
          added = true;
          if (pruning != null) {
            pruning.cells = 0; // nothing to prune in a new column
          }
          if (index.on()) { // read after the put: an indexer that set it later scans after it
            key = rowKey(key, c);
            index.columnCreated(key, c, columns); // an indexed row's
          }
          break;
        }
        if (pruning == null && settled != null) {
          pruning = new Versions.Pruning(settled, readers, rowFamilyMarkers);
        }
        Adding adding = new Adding(c, pruning);
        if (columns.computeIfPresent(c, adding) != null) {
          added = adding.added;
          // an indexed row's column not found through the index is put in it; a row is
          // indexed once a column of it gets a third version (a row written twice, as a
          // load's overwrite, is not worth the index)
          if (adding.slotOrHot || index.on() && index.holds(key = rowKey(key, c))) {
            index.index(rowKey(key, c), c, columns);
          }
          break;
        } // the column was taken back meanwhile (a failed write): add it again
      }
    }
    if (!added) {
      return 0;
    }
    int dropped = pruning == null ? 0 : pruning.cells;
    long delta = c.heapSize() + CELL_OVERHEAD
        - (dropped == 0 ? 0 : pruning.bytes + (long) dropped * CELL_OVERHEAD);
    cellBytes.addAndGet(delta);
    cellCount.addAndGet(1 - dropped);
    prunedCells.addAndGet(dropped);
    minSeq.accumulateAndGet(c.sequenceId(), Math::min);
    maxSeq.accumulateAndGet(c.sequenceId(), Math::max);
    return delta;
  }

  /**
   * Registers a reader of this memstore that reads at {@code bound} or above (read before this
   * call; its own point read after it): pruning leaves what it reads. Returns the token to give
   * {@link #exitReader}.
   */
  public int enterReader(long bound) {
    return readers.enter(bound);
  }

  public void exitReader(int token) {
    readers.exit(token);
  }

  /** Versions pruned since the memstore was made (tests, stats). */
  public long prunedCells() {
    return prunedCells.get();
  }

  private static RowKey rowKey(RowKey key, Cell c) {
    return key != null ? key : new RowKey(c.row());
  }

  private void widenRows(byte[] row) {
    while (true) {
      byte[] first = firstRow;
      if ((first != null && Arrays.compareUnsigned(row, first) >= 0)
          || FIRST_ROW.compareAndSet(this, first, row)) {
        break;
      }
    }
    while (true) {
      byte[] last = lastRow;
      if ((last != null && Arrays.compareUnsigned(row, last) <= 0)
          || LAST_ROW.compareAndSet(this, last, row)) {
        break;
      }
    }
  }

  /**
   * False when no cell of a row in {@code [startRow, stopRow)} (empty stop: no end) was ever
   * added, so a read of that range can leave this memstore out.
   */
  public boolean mayHoldRows(byte[] startRow, byte[] stopRow) {
    byte[] first = firstRow;
    byte[] last = lastRow;
    if (first == null || last == null) {
      return false;
    }
    return (stopRow == null || stopRow.length == 0 || Arrays.compareUnsigned(first, stopRow) < 0)
        && Arrays.compareUnsigned(last, startRow) >= 0;
  }

  /** False when no cell of {@code row} was ever added. */
  public boolean mayHoldRow(byte[] row) {
    byte[] first = firstRow;
    byte[] last = lastRow;
    return first != null && last != null && Arrays.compareUnsigned(row, first) >= 0
        && Arrays.compareUnsigned(row, last) <= 0;
  }

  /**
   * Takes back a cell of a write that failed before it was acknowledged (its log sync failed);
   * the sequence-id range is left as it was (a conservative bound). A column left with no cell
   * leaves the skip list (a writer adding to it meanwhile adds it again), unless it is an
   * indexed row's: its slot stays, empty (readers pass it). Returns by how much the cells
   * held changed, in bytes.
   */
  public long remove(Cell c) {
    FrozenColumns f = frozen;
    if (f != null) { // it holds completed writes only: a failed one's cells are elsewhere
      if (f.holds(c)) {
        throw new IllegalStateException("a cell taken back from a frozen memstore: " + c);
      }
      return 0;
    }
    boolean[] removed = {false};
    Slot slot = index.on() ? index.slot(new RowKey(c.row()), c) : null;
    if (slot != null) {
      removed[0] = slot.remove(c);
    } else {
      columns.computeIfPresent(c, (column, value) -> {
        if (value instanceof Slot s) {
          removed[0] = s.remove(c);
          return s;
        }
        Object without = Versions.without(value, c);
        removed[0] = without != value;
        return without;
      });
    }
    if (!removed[0]) {
      return 0;
    }
    long delta = -(c.heapSize() + CELL_OVERHEAD);
    cellBytes.addAndGet(delta);
    cellCount.decrementAndGet();
    return delta;
  }

  /** Heap taken: the cells and the row index. */
  public long heapSize() {
    return cellBytes.get() + index.bytes();
  }

  /**
   * Bytes of the cells held: the sum of what {@link #add} and {@link #remove} returned, as the
   * database's memstore budget was told.
   */
  public long cellBytes() {
    return cellBytes.get();
  }

  public boolean isEmpty() {
    return cellCount.get() == 0;
  }

  public int cellCount() {
    return (int) Math.min(Integer.MAX_VALUE, cellCount.get());
  }

  /** Smallest sequence id held, or Long.MAX_VALUE when empty. */
  public long minSequenceId() {
    return minSeq.get();
  }

  public long maxSequenceId() {
    return maxSeq.get();
  }

  /** The row of the last cell, or null when empty. */
  public byte[] lastRow() {
    ConcurrentSkipListMap<Cell, Object> columns = this.columns;
    if (columns == null) { // frozen: the arrays hold only columns with cells
      FrozenColumns f = frozen;
      return f.size() == 0 ? null : f.key(f.size() - 1).row();
    }
    Map.Entry<Cell, Object> e = columns.lastEntry();
    while (e != null && Versions.cellsOf(e.getValue()) == null) {
      e = columns.lowerEntry(e.getKey());
    }
    return e == null ? null : e.getKey().row();
  }

  /** The row of the last cell before {@code row}, or null. */
  public byte[] lastRowBefore(byte[] row, byte[] family) {
    ConcurrentSkipListMap<Cell, Object> columns = this.columns;
    if (columns == null) { // frozen
      int i = frozen.search(CellComparator.firstOnRow(row, family)) - 1;
      return i < 0 ? null : frozen.key(i).row();
    }
    Map.Entry<Cell, Object> e = columns.lowerEntry(CellComparator.firstOnRow(row, family));
    while (e != null && Versions.cellsOf(e.getValue()) == null) {
      e = columns.lowerEntry(e.getKey());
    }
    return e == null ? null : e.getKey().row();
  }

  /**
   * Makes reads search sorted arrays of the columns ({@link FrozenColumns}) instead of the skip
   * list. Only once the memstore takes no more writes: it was swapped out and every write that
   * added to it completed (a failed write takes its cells back before it completes), so neither
   * {@link #add} nor {@link #remove} changes it any more (both refuse to from here on). The skip
   * list is let go (its nodes cost about what the arrays do); readers already reading go on
   * over it, which holds the same cells.
   */
  public void freeze() {
    if (frozen == null) {
      frozen = FrozenColumns.of(columns);
      columns = null; // after: a reader finding no skip list finds the arrays
    }
  }

  /** Whether {@link #freeze} ran. */
  public boolean isFrozen() {
    return frozen != null;
  }

  private ColumnCursor cursor() {
    FrozenColumns f = frozen;
    if (f != null) {
      return new ColumnCursor(f);
    }
    ConcurrentSkipListMap<Cell, Object> m = columns;
    return m != null ? new ColumnCursor(m) : new ColumnCursor(frozen); // frozen meanwhile
  }

  /** All cells, in order (for flushing). */
  public Iterable<Cell> cells() {
    return () -> {
      ColumnCursor it = cursor();
      it.seekToFirst();
      return new Iterator<>() {
        @Override
        public boolean hasNext() {
          return it.current() != null;
        }

        @Override
        public Cell next() {
          Cell c = it.current();
          if (c == null) {
            throw new java.util.NoSuchElementException();
          }
          it.next();
          return c;
        }
      };
    };
  }

  public CellIterator iterator() {
    return cursor();
  }

  /**
   * The newest cell a read sees of each of {@code qualifiers} (ascending) of {@code family} in
   * {@code row}, read through the row index alone: {@code into[i]} that cell, or null when this
   * memstore holds no cell of the column the read sees. A read sees a cell unless {@link
   * UpToSequence#hides} it by {@code upTo} and {@code hidden}. Returns how many were found, or
   * -1 when the answer needs the resolver: the row is not indexed (or too wide), the family's
   * empty qualifier holds a cell (family delete markers sort there; so a wanted empty qualifier
   * is never found here), or the newest cell a read sees of a wanted column is a delete marker. Its puts are then final for this
   * memstore: a put is covered only by a marker of a higher sequence id, which sorts before it
   * unless its timestamp is lower, and a lower timestamp does not cover it.
   */
  public int newestVisible(byte[] row, byte[] family, byte[][] qualifiers, long upTo,
      long[] hidden, Cell[] into) {
    if (!index.on() || !mayHoldRow(row)) {
      return -1;
    }
    Slot[] slots = index.slots(new RowKey(row));
    if (slots == null) {
      return -1;
    }
    int markers = Versions.search(slots, family, NO_BYTES);
    if (markers >= 0 && slots[markers].value != null) {
      return -1;
    }
    int found = 0;
    for (int i = 0; i < qualifiers.length; i++) {
      int k = Versions.search(slots, family, qualifiers[i]);
      Cell c = k < 0 ? null : Versions.newestVisible(slots[k].value, upTo, hidden);
      if (c != null) {
        if (c.type() != CellType.PUT) {
          return -1;
        }
        found++;
      }
      into[i] = c;
    }
    return found;
  }

  /**
   * An iterator already positioned at {@code target} (a cell of {@code row}) when some cell of
   * {@code row} is held, else null (a later seek to the same target is free). An indexed row's
   * iterator holds that row's cells only, found through the index: past them it is at its end,
   * as a read of the row wants; another row's searches the skip list (reads index nothing: a
   * slot per column read made scans of those rows a fifth slower in `bench sql`).
   */
  public CellIterator iteratorAtRow(byte[] row, Cell target) {
    if (!mayHoldRow(row)) {
      return null;
    }
    Slot[] slots = index.on() ? index.slots(new RowKey(row)) : null;
    if (slots != null && Arrays.equals(target.row(), row)) {
      ColumnCursor it = new ColumnCursor(null, row, slots); // over the slots alone
      it.seek(target);
      return it.current() != null ? it : null;
    }
    ColumnCursor it = cursor();
    it.seek(target);
    Cell c = it.current();
    return c != null && Arrays.equals(c.row(), row) ? it : null;
  }
}
