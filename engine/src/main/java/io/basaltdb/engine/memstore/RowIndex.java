package io.basaltdb.engine.memstore;

import io.basaltdb.engine.cell.CellComparator;
import io.basaltdb.engine.memstore.Versions.Slot;
import io.basaltdb.storage.Cell;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A memstore's hash index from rows rewritten since the last flush (a column given a third
 * version) to all their columns, up to a width (a wider row is left to the skip list): a point
 * read of such a row and a write to a column it already has find it by one hash lookup instead
 * of a skip-list search (a cache miss per level, most of a point read of a hot row and of an
 * update's commit).
 *
 * <p>An indexed row's columns hold their cells in a {@link Slot}, the skip list's value for the
 * column, then never replaced, so the index and the skip list share them; other columns keep
 * their cell or chain directly, so rows written once (a load) cost nothing here. A column
 * becomes a slot by compare-and-set of its skip-list value, against writers adding to it the
 * same way. A row enters the index with every column the skip list holds for it, and a column
 * created in an indexed row enters it, both under the row's hash-bin lock, so a writer creating
 * a column meanwhile either comes after (and adds it) or before (and the skip list already
 * holds it). Until the first row is indexed ({@link #on}) nobody hashes a row at all. Owns the
 * index and the bytes it takes; the skip list is the memstore's, handed in. Thread-safe.
 */
final class RowIndex {
  /** Bytes a slot costs: an indexed row's column. */
  private static final int SLOT_OVERHEAD = 24;
  /** Bytes an indexed row costs: its hash entry, key and slot array. */
  private static final int ROW_OVERHEAD = 64;
  /** The empty family: the first column of a row, whatever its families, sorts after it. */
  private static final byte[] NO_BYTES = {};
  /** The index's value for a row too wide to index. */
  private static final Slot[] WIDE = new Slot[0];

  private final int width;
  /** Each row's slots in column order, or {@link #WIDE}. */
  private final ConcurrentHashMap<RowKey, Slot[]> rows = new ConcurrentHashMap<>();
  /**
   * Set, never cleared, before the first row is indexed (before its columns are read from the
   * skip list): until then writers and readers leave the index alone.
   */
  private volatile boolean indexing;
  private final AtomicLong bytes = new AtomicLong();

  /** @param width rows of more columns than this are not indexed */
  RowIndex(int width) {
    this.width = width;
  }

  /** Whether a row was ever indexed (else the index holds nothing). */
  boolean on() {
    return indexing;
  }

  /** Heap the index takes: its rows and slots. */
  long bytes() {
    return bytes.get();
  }

  /** The slots of an indexed row in column order, or null (not indexed, or too wide). */
  Slot[] slots(RowKey key) {
    Slot[] slots = rows.get(key);
    return slots == WIDE ? null : slots;
  }

  /** Whether {@code key}'s row is in the index (too wide included). */
  boolean holds(RowKey key) {
    return rows.get(key) != null;
  }

  /** The slot of {@code c}'s column found through the index, or null. */
  Slot slot(RowKey key, Cell c) {
    Slot[] slots = slots(key);
    if (slots == null) {
      return null;
    }
    int i = Versions.search(slots, c);
    return i >= 0 ? slots[i] : null;
  }

  /** A column was created in {@code key}'s row: in the index if the row is. */
  void columnCreated(RowKey key, Cell column, ConcurrentSkipListMap<Cell, Object> columns) {
    rows.computeIfPresent(key, (k, slots) -> withColumn(slots, column, columns));
  }

  /**
   * Puts {@code key}'s row in the index, every column the skip list holds for it made a slot,
   * if it is not there; else {@code column}'s column in it if not there.
   */
  void index(RowKey key, Cell column, ConcurrentSkipListMap<Cell, Object> columns) {
    boolean[] newRow = {false};
    byte[] row = key.row;
    rows.compute(key, (k, slots) -> {
      if (slots != null) {
        return withColumn(slots, column, columns);
      }
      indexing = true; // before the scan: a writer that saw it false put its column before
      Set<Cell> held = columns.subMap(CellComparator.firstOnRow(row, NO_BYTES),
          CellComparator.firstOnRow(Arrays.copyOf(row, row.length + 1), NO_BYTES)).keySet();
      List<Cell> all = new ArrayList<>();
      for (Cell c : held) {
        if (all.size() == width) {
          return WIDE;
        }
        all.add(c);
      }
      List<Slot> made = new ArrayList<>(all.size());
      for (Cell c : all) {
        Slot s = slotOf(c, columns);
        if (s != null) {
          made.add(s);
        }
      }
      newRow[0] = !made.isEmpty();
      return made.isEmpty() ? null : made.toArray(new Slot[0]); // a row not held: no entry
    });
    if (newRow[0]) {
      bytes.addAndGet(ROW_OVERHEAD);
    }
  }

  /** An indexed row's {@code slots} with {@code column}'s too (or {@link #WIDE} past the width). */
  private Slot[] withColumn(Slot[] slots, Cell column,
      ConcurrentSkipListMap<Cell, Object> columns) {
    if (slots == WIDE) {
      return WIDE;
    }
    int i = Versions.search(slots, column);
    if (i >= 0) {
      return slots;
    }
    if (slots.length >= width) {
      return WIDE;
    }
    Slot slot = slotOf(column, columns);
    if (slot == null) {
      return slots;
    }
    int at = -i - 1;
    Slot[] more = new Slot[slots.length + 1];
    System.arraycopy(slots, 0, more, 0, at);
    more[at] = slot;
    System.arraycopy(slots, at, more, at + 1, slots.length - at);
    return more;
  }

  /**
   * The slot of {@code column}'s column, its value made one if it is not (compare-and-set
   * against writers adding to it); null when the skip list no longer holds the column.
   */
  private Slot slotOf(Cell column, ConcurrentSkipListMap<Cell, Object> columns) {
    while (true) {
      Object v = columns.get(column);
      if (v == null || v instanceof Slot) {
        return (Slot) v;
      }
      Slot s = new Slot(v);
      if (columns.replace(column, v, s)) {
        bytes.addAndGet(SLOT_OVERHEAD);
        return s;
      }
    }
  }
}
