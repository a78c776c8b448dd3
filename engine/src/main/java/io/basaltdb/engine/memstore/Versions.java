package io.basaltdb.engine.memstore;

import io.basaltdb.engine.cell.CellComparator;
import io.basaltdb.engine.cell.UpToSequence;
import io.basaltdb.storage.Cell;
import io.basaltdb.storage.CellType;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.LongSupplier;

/**
 * One column's cells as a {@link MemStore} holds them, newest first: a lone {@link Cell}, an
 * immutable {@link Node} chain of two or more, null for none, or a {@link Slot} holding one
 * of those (an indexed row's column). A new value is made by copying the cells before the
 * changed place; nothing published is changed. Stateless but for slots.
 */
final class Versions {
  private Versions() {}

  /**
   * One cell of a column's chain; never changed once published. Carries what pruning needs of
   * the cells after it (their newest sequence id, heap and count), summed when it is made from
   * the node after it (just written or read: in cache), so pruning a hot column's tail touches
   * none of the tail's old cells.
   */
  static final class Node {
    final Cell cell;
    final Node next;
    final long restMaxSeq;
    final long restBytes;
    final int restCount;

    Node(Cell cell, Node next) {
      this.cell = cell;
      this.next = next;
      if (next == null) {
        restMaxSeq = Long.MIN_VALUE;
        restBytes = 0;
        restCount = 0;
      } else {
        restMaxSeq = Math.max(next.cell.sequenceId(), next.restMaxSeq);
        restBytes = next.cell.heapSize() + next.restBytes;
        restCount = 1 + next.restCount;
      }
    }
  }

  /**
   * One column of an indexed row: its cells as one {@link Cell}, a {@link Node} chain of two
   * or more, or null when every cell was taken back; replaced by compare-and-set.
   */
  static final class Slot {
    private static final VarHandle VALUE;

    static {
      try {
        VALUE = MethodHandles.lookup().findVarHandle(Slot.class, "value", Object.class);
      } catch (ReflectiveOperationException e) {
        throw new ExceptionInInitializerError(e);
      }
    }

    /** A cell of the column (its key in the skip list compares the same). */
    final Cell column;
    volatile Object value;

    /** Holding {@code value}: a column's one cell or its chain. */
    Slot(Object value) {
      this.column = value instanceof Node n ? n.cell : (Cell) value;
      this.value = value;
    }

    /**
     * Adds {@code cell}, then drops what {@code pruning} (null: none) finds no read can return;
     * false when an equal cell is there.
     */
    boolean add(Cell cell, Pruning pruning) {
      return change(cell, true, pruning);
    }

    /** Takes {@code cell} back; false when it is not there. */
    boolean remove(Cell cell) {
      return change(cell, false, null);
    }

    private boolean change(Cell cell, boolean adding, Pruning pruning) {
      while (true) {
        Object v = value;
        Object changed = adding ? with(v, cell) : without(v, cell);
        if (changed == v) {
          return false;
        }
        if (pruning != null) {
          changed = pruning.apply(changed);
        }
        if (VALUE.compareAndSet(this, v, changed)) {
          return true;
        }
      }
    }
  }

  /**
   * One add's pruning in a family that keeps one version: a column's cells after the first put
   * at or below the <em>settled point</em> (every read now and later sees that put: a read
   * returns at most the first put it sees in a column, and a delete marker after that put
   * covers only puts after it) go, if they are at or below that point themselves (one above
   * it may still be a write conflict for a transaction to find). Family delete markers never
   * go: they sort under the empty qualifier, among that column's puts, but cover the puts of
   * every column of the family (dropping one after the empty qualifier's settled put brought
   * back another column's put it covered: RandomModelTest, seed 90287525874169). The point is
   * the lower of the region's settled point (no pinned snapshot, write in flight or read point
   * is below it) and the lowest read point of the readers holding the memstore ({@link
   * ReaderPoints}), read in that order, once per add. Counts what went, for the memstore's size.
   *
   * <p>Only where no delete marker can hide that put while sparing a later cell (a put with an
   * older timestamp written after a family delete, which the delete does not cover): nothing
   * goes when a marker precedes the put in its column, nor in a row whose family holds a marker
   * in this memstore (those sit in the empty qualifier's column, out of this column's sight).
   * RandomModelTest, seed 7284834112483. A marker that matters is at or below the point (it
   * comes between the settled put and a pruned cell, both at or below it), so its write is
   * complete and the lookup after reading the point finds it.
   */
  static final class Pruning {
    private static final long UNREAD = Long.MIN_VALUE;
    private final LongSupplier settled;
    private final ReaderPoints readers;
    private final java.util.function.Predicate<Cell> familyMarkers;
    /** A point below every write's sequence id: nothing goes. */
    private static final long NOTHING = Long.MIN_VALUE + 1;
    private long point = UNREAD;
    /** Cells dropped by the last {@link #apply}, and their {@link Cell#heapSize()}. */
    int cells;
    long bytes;

    Pruning(LongSupplier settled, ReaderPoints readers) {
      this(settled, readers, c -> false);
    }

    /**
     * With {@code familyMarkers}: whether the memstore holds a family marker of a cell's row and
     * family (asked after the settled point is read, so a marker at or below it is seen).
     */
    Pruning(LongSupplier settled, ReaderPoints readers,
        java.util.function.Predicate<Cell> familyMarkers) {
      this.settled = settled;
      this.readers = readers;
      this.familyMarkers = familyMarkers;
    }

    /** {@code value} (a column's cells with the new one) without what no read can return. */
    Object apply(Object value) {
      cells = 0;
      bytes = 0;
      // fewer than three cells: the new one (in flight, above the point) and at most one more
      if (!(value instanceof Node head) || head.next.next == null) {
        return value;
      }
      if (point == UNREAD) {
        long p = Math.min(settled.getAsLong(), readers.lowest());
        point = familyMarkers.test(head.cell) ? NOTHING : p; // the markers after the point
      }
      if (point == NOTHING) {
        return value; // no put is at or below it: the walk below would find none
      }
      Node seen = head;
      int upTo = 1;
      while (seen.cell.type() != CellType.PUT || seen.cell.sequenceId() > point) {
        if (seen.cell.type() != CellType.PUT) {
          return value; // a marker before the put may hide it, and not what follows it
        }
        seen = seen.next;
        upTo++;
        if (seen == null) {
          return value;
        }
      }
      if (seen.next == null) {
        return value;
      }
      // the empty qualifier's column also holds the family's markers: read its tail
      boolean markersPossible = head.cell.qualifier().length == 0;
      if (seen.restMaxSeq <= point && !markersPossible) { // the whole tail goes, unread
        cells = seen.restCount;
        bytes = seen.restBytes;
        return value(copyBefore(head, upTo, null));
      }
      List<Cell> kept = null;
      for (Node n = seen.next; n != null; n = n.next) {
        if (n.cell.sequenceId() > point || n.cell.type().isFamilyMarker()) {
          if (kept == null) {
            kept = new ArrayList<>();
          }
          kept.add(n.cell);
        } else {
          cells++;
          bytes += n.cell.heapSize();
        }
      }
      if (cells == 0) {
        return value;
      }
      Node rest = null;
      for (int i = kept == null ? -1 : kept.size() - 1; i >= 0; i--) {
        rest = new Node(kept.get(i), rest);
      }
      return value(copyBefore(head, upTo, rest));
    }
  }

  /**
   * The index of the slot of {@code column}'s column among {@code slots} (one row's, in column
   * order; {@code column} of the same row), else {@code -(insertion point) - 1}.
   */
  static int search(Slot[] slots, Cell column) {
    return search(slots, column.family(), column.qualifier());
  }

  /** {@link #search(Slot[], Cell)} by the column's family and qualifier. */
  static int search(Slot[] slots, byte[] family, byte[] qualifier) {
    int lo = 0;
    int hi = slots.length - 1;
    while (lo <= hi) {
      int mid = (lo + hi) >>> 1;
      Cell at = slots[mid].column;
      int c = at.family() == family ? 0
          : Arrays.compareUnsigned(at.family(), family); // the row is the same
      if (c == 0) {
        c = at.qualifier() == qualifier ? 0 : Arrays.compareUnsigned(at.qualifier(), qualifier);
      }
      if (c < 0) {
        lo = mid + 1;
      } else if (c > 0) {
        hi = mid - 1;
      } else {
        return mid;
      }
    }
    return -(lo + 1);
  }

  /** The first cell of a column's chain (or lone cell) that a read sees, or null. */
  static Cell newestVisible(Object cells, long upTo, long[] hidden) {
    if (cells instanceof Node n) {
      for (; n != null; n = n.next) {
        if (!UpToSequence.hides(n.cell.sequenceId(), upTo, hidden)) {
          return n.cell;
        }
      }
      return null;
    }
    Cell c = (Cell) cells;
    return c == null || UpToSequence.hides(c.sequenceId(), upTo, hidden) ? null : c;
  }

  /** Whether a column's skip-list value or slot holds a family delete marker. */
  static boolean holdsFamilyMarker(Object value) {
    for (Node n = chain(cellsOf(value)); n != null; n = n.next) {
      if (n.cell.type().isFamilyMarker()) {
        return true;
      }
    }
    return false;
  }

  /** A column's cells from its skip-list value or slot: a cell, a chain, or null (none). */
  static Object cellsOf(Object value) {
    return value instanceof Slot s ? s.value : value;
  }

  /** Whether a value (not a slot) holds two cells or more. */
  static boolean severalCells(Object value) {
    return value instanceof Node;
  }

  /** {@code value} (a cell, a chain or null) with {@code cell} in place; itself if it has it. */
  static Object with(Object value, Cell cell) {
    Node head = chain(value);
    Node at = head;
    int before = 0;
    while (at != null) {
      int cmp = CellComparator.INSTANCE.compareWithinRow(at.cell, cell);
      if (cmp == 0) {
        return value;
      }
      if (cmp > 0) {
        break;
      }
      at = at.next;
      before++;
    }
    return value(copyBefore(head, before, new Node(head == null ? cell : sameKey(cell, head.cell),
        at)));
  }

  /**
   * {@code cell} made with the row, family and qualifier arrays of {@code held}, a cell of its
   * column: a column's versions share one copy of its key, so a read that compares them (a
   * search, a seek within the column) touches the same few arrays whichever version it meets,
   * not a row array of each write's own (a cache miss each in a memstore of hot rows), and a
   * version costs no arrays of its own. Itself when it shares them already.
   */
  static Cell sameKey(Cell cell, Cell held) {
    if (cell.row() == held.row() && cell.family() == held.family()
        && cell.qualifier() == held.qualifier()) {
      return cell;
    }
    return new Cell(held.row(), held.family(), held.qualifier(), cell.timestamp(), cell.type(),
        cell.sequenceId(), cell.value());
  }

  /** {@code value} without {@code cell} (null: no cell left); itself if it lacks it. */
  static Object without(Object value, Cell cell) {
    Node head = chain(value);
    Node at = head;
    int before = 0;
    while (at != null && CellComparator.INSTANCE.compareWithinRow(at.cell, cell) < 0) {
      at = at.next;
      before++;
    }
    if (at == null || CellComparator.INSTANCE.compareWithinRow(at.cell, cell) != 0) {
      return value;
    }
    return value(copyBefore(head, before, at.next));
  }

  /** A column's value as a chain (a lone cell is a chain of one, no cell none). */
  static Node chain(Object value) {
    return value == null ? null : value instanceof Node n ? n : new Node((Cell) value, null);
  }

  /** A chain as a column's value: its lone cell, or itself; null for no cell. */
  private static Object value(Node chain) {
    return chain == null || chain.next != null ? chain : chain.cell;
  }

  /** The chain's first {@code n} cells copied in front of {@code rest}. */
  private static Node copyBefore(Node head, int n, Node rest) {
    if (n == 0) {
      return rest;
    }
    return new Node(head.cell, copyBefore(head.next, n - 1, rest));
  }
}
