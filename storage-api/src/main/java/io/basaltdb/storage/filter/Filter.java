package io.basaltdb.storage.filter;

import io.basaltdb.storage.Cell;
import java.util.List;

/**
 * A predicate a region scan evaluates as it reads, in three stages per row, after versions,
 * deletes and TTL have been resolved:
 * <ol>
 *   <li>{@link #filterRowKey}: exclude the row by its key alone, before its cells are read; with
 *       {@link #nextRowHint} the scan seeks straight to the next row worth reading;
 *   <li>{@link #filterCell}: keep or drop each cell (in family, qualifier, newest-first order),
 *       optionally {@link #transformCell transformed};
 *   <li>{@link #filterRow}: exclude the row after seeing its kept cells.
 * </ol>
 * {@link #reset} is called before each row; {@link #filterAllRemaining} ends the scan.
 * Instances hold per-scan state: use a filter for one scan at a time.
 */
public interface Filter {
  default void reset() {}

  /** True to exclude the row without reading its cells. */
  default boolean filterRowKey(byte[] row) {
    return false;
  }

  /**
   * After {@link #filterRowKey} excluded {@code row}: the smallest row that could pass (every
   * row before it would be excluded too), or null for simply the next row.
   */
  default byte[] nextRowHint(byte[] row) {
    return null;
  }

  /** True to keep the cell. */
  default boolean filterCell(Cell c) {
    return true;
  }

  default Cell transformCell(Cell c) {
    return c;
  }

  /**
   * True to exclude the row given its kept cells. A pure test: a list of filters stops asking
   * at the first that decides the row.
   */
  default boolean filterRow(List<Cell> cells) {
    return false;
  }

  /** Called when a row has been returned (page filters count them). */
  default void rowReturned() {}

  /** True when no further row can pass: the scan ends. */
  default boolean filterAllRemaining() {
    return false;
  }

  /**
   * The only rows this filter can let through (sorted), or null: any. A scan reads no file whose
   * bloom filter holds none of them. A stateless property of the filter.
   */
  default List<byte[]> onlyRows() {
    return null;
  }

  /**
   * Row ranges outside which this filter lets no row through (sorted, not overlapping), or
   * null: no such bound. A stateless property, as {@link #onlyRows}: a storage that cannot run
   * the filter where the rows are may skip what lies outside them there.
   */
  default List<Filters.RowRange> onlyRanges() {
    return null;
  }

  /** This filter's condition on cells as data, exact or weaker ({@link FilterSpec}), or null. */
  default FilterSpec spec() {
    return null;
  }
}
