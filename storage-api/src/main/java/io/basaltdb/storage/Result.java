package io.basaltdb.storage;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.NavigableMap;
import java.util.TreeMap;

/**
 * The cells of one row as read: sorted by family, qualifier, then newest version first.
 * Immutable. An empty result means the row has nothing visible for the request.
 */
public final class Result {
  public static final Result EMPTY = new Result(null, List.of());

  private final byte[] row;
  /** Never modified: an immutable list, or a scanner's row list that nobody else holds. */
  private final List<Cell> cells;
  /**
   * {@link #cells} as handed out, unmodifiable: made when first asked (most rows are read
   * through {@link #getValue} and never need it); a race only makes two alike.
   */
  private List<Cell> view;

  public Result(byte[] row, List<Cell> cells) {
    this.row = row;
    this.cells = List.copyOf(cells); // one copy, array-backed, read by index
    this.view = this.cells;
  }

  private Result(List<Cell> cells, byte[] row) {
    this.row = row;
    this.cells = cells;
  }

  /**
   * A result over {@code cells} without a copy: for a list the caller made for this result
   * and never touches again (a region scan's row).
   */
  public static Result owning(byte[] row, List<Cell> cells) {
    return new Result(cells, row);
  }

  public byte[] row() {
    return row;
  }

  public List<Cell> cells() {
    List<Cell> v = view;
    if (v == null) {
      v = java.util.Collections.unmodifiableList(cells);
      view = v;
    }
    return v;
  }

  public boolean isEmpty() {
    return cells.isEmpty();
  }

  public int size() {
    return cells.size();
  }

  /** The newest value of a column, or null. */
  public byte[] getValue(byte[] family, byte[] qualifier) {
    Cell c = getLatestCell(family, qualifier);
    return c == null ? null : c.value();
  }

  public Cell getLatestCell(byte[] family, byte[] qualifier) {
    for (int i = 0, n = cells.size(); i < n; i++) {
      Cell c = cells.get(i);
      if (Arrays.equals(c.family(), family) && Arrays.equals(c.qualifier(), qualifier)) {
        return c;
      }
    }
    return null;
  }

  /** Every returned version of a column, newest first. */
  public List<Cell> getColumnCells(byte[] family, byte[] qualifier) {
    List<Cell> out = new ArrayList<>();
    for (Cell c : cells) {
      if (Arrays.equals(c.family(), family) && Arrays.equals(c.qualifier(), qualifier)) {
        out.add(c);
      }
    }
    return out;
  }

  public boolean containsColumn(byte[] family, byte[] qualifier) {
    return getLatestCell(family, qualifier) != null;
  }

  /** Qualifier to newest value, for one family. */
  public NavigableMap<byte[], byte[]> getFamilyMap(byte[] family) {
    NavigableMap<byte[], byte[]> m = new TreeMap<>(Arrays::compareUnsigned);
    for (Cell c : cells) {
      if (Arrays.equals(c.family(), family)) {
        m.putIfAbsent(c.qualifier(), c.value());
      }
    }
    return m;
  }

  @Override
  public String toString() {
    return "Result(" + (row == null ? "-" : Cell.printable(row)) + ", " + cells + ")";
  }
}
