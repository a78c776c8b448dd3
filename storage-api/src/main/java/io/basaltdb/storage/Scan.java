package io.basaltdb.storage;

import java.util.Arrays;

/**
 * Reads rows in key order between a start row (inclusive by default; empty = table start) and
 * a stop row (exclusive by default; empty = table end), across regions, with the family,
 * column, version and time-range choices of {@link ReadRequest}, and an optional row limit.
 */
public final class Scan extends ReadRequest<Scan> {
  private static final byte[] EMPTY = new byte[0];

  private byte[] startRow = EMPTY;
  private boolean startInclusive = true;
  private byte[] stopRow = EMPTY;
  private boolean stopInclusive = false;
  private long limit = Long.MAX_VALUE;
  /** 0: not set, the remote client's own default (over HBase: rows up to 2 MB a call). */
  private int caching = 0;
  private int batch = Integer.MAX_VALUE;
  private boolean reversed;

  public Scan withStartRow(byte[] row) {
    return withStartRow(row, true);
  }

  public Scan withStartRow(byte[] row, boolean inclusive) {
    startRow = row == null ? EMPTY : row;
    startInclusive = inclusive;
    return this;
  }

  public Scan withStopRow(byte[] row) {
    return withStopRow(row, false);
  }

  public Scan withStopRow(byte[] row, boolean inclusive) {
    stopRow = row == null ? EMPTY : row;
    stopInclusive = inclusive;
    return this;
  }

  /** Rows starting with {@code prefix}: sets start and stop rows. */
  public Scan setRowPrefix(byte[] prefix) {
    if (prefix == null || prefix.length == 0) {
      startRow = EMPTY;
      stopRow = EMPTY;
      return this;
    }
    startRow = prefix;
    startInclusive = true;
    stopRow = prefixEnd(prefix);
    stopInclusive = false;
    return this;
  }

  /** The smallest row after every row starting with {@code prefix} (empty: none). */
  static byte[] prefixEnd(byte[] prefix) {
    byte[] end = Arrays.copyOf(prefix, prefix.length);
    for (int i = end.length - 1; i >= 0; i--) {
      if (end[i] != (byte) 0xff) {
        end[i]++;
        return Arrays.copyOf(end, i + 1);
      }
    }
    return EMPTY;
  }

  /**
   * Rows in descending key order. As in HBase, the start row is then the upper end (inclusive
   * by default) and the stop row the lower end (exclusive by default).
   */
  public Scan setReversed(boolean reversed) {
    this.reversed = reversed;
    return this;
  }

  public boolean isReversed() {
    return reversed;
  }

  /** Reversed scans: the first row key the scan must not return, from above (empty = none). */
  public byte[] reversedUpperExclusive() {
    return !startInclusive || startRow.length == 0 ? startRow
        : Arrays.copyOf(startRow, startRow.length + 1);
  }

  /** Reversed scans: the lowest row key the scan may return (empty = none). */
  public byte[] reversedLowerInclusive() {
    return stopInclusive || stopRow.length == 0 ? stopRow
        : Arrays.copyOf(stopRow, stopRow.length + 1);
  }

  /** At most this many rows. */
  public Scan setLimit(long rows) {
    if (rows < 0) {
      throw new InvalidArgumentException("limit must be >= 0, got " + rows);
    }
    limit = rows;
    return this;
  }

  /**
   * A hint: rows fetched per round trip by remote clients (unset: their default, which fills
   * each call up to a size); embedded scans ignore it.
   */
  public Scan setCaching(int rows) {
    caching = Math.max(1, rows);
    return this;
  }

  /** The rows per round trip asked for, or 0 when not set. */
  public int caching() {
    return caching;
  }

  /**
   * A hint: cells per result for very wide rows, as HBase's {@code setBatch}. Embedded scans
   * return whole rows (the hint is kept for remote clients and is otherwise ignored).
   */
  public Scan setBatch(int cells) {
    batch = Math.max(1, cells);
    return this;
  }

  public int batch() {
    return batch;
  }

  public long limit() {
    return limit;
  }

  /** The start row as given (empty: the table's first row); see {@link #includesStartRow}. */
  public byte[] startRow() {
    return startRow;
  }

  public boolean includesStartRow() {
    return startInclusive;
  }

  /** The stop row as given (empty: past the table's last row); see {@link #includesStopRow}. */
  public byte[] stopRow() {
    return stopRow;
  }

  public boolean includesStopRow() {
    return stopInclusive;
  }

  /** The first row key the scan may return (inclusive). */
  public byte[] effectiveStart() {
    return startInclusive || startRow.length == 0 ? startRow
        : Arrays.copyOf(startRow, startRow.length + 1);
  }

  /** The first row key the scan must not return (exclusive; empty = none). */
  public byte[] effectiveStop() {
    return !stopInclusive || stopRow.length == 0 ? stopRow
        : Arrays.copyOf(stopRow, stopRow.length + 1);
  }
}
