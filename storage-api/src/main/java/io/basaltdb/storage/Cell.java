package io.basaltdb.storage;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HexFormat;

/**
 * The one representation of a cell, used by the WAL, memstore, block files, merges,
 * compaction and the client API: {row, family, qualifier, timestamp, type, sequence id}
 * and a value.
 *
 * <p>Order ({@link io.basaltdb.engine.cell.CellComparator}): row (unsigned bytes, ascending),
 * family, qualifier (ascending), timestamp (descending), type code (descending: delete
 * markers first) and sequence id (descending: the newest write first).
 *
 * <p>Immutable by contract: the arrays are not copied, and nobody may modify them after the
 * cell is built. The sequence id is the write's MVCC number, assigned by the engine; cells
 * built by clients carry 0 until written.
 */
public final class Cell {
  /** Timestamp meaning "let the engine assign the current time". */
  public static final long LATEST_TIMESTAMP = Long.MAX_VALUE;

  private static final byte[] EMPTY = new byte[0];

  private final byte[] row;
  private final byte[] family;
  private final byte[] qualifier;
  private final long timestamp;
  private final CellType type;
  private final long sequenceId;
  private final byte[] value;
  /**
   * The row's first 8 bytes, big-endian, zero-padded: when two cells' prefixes differ they
   * order the rows (a skip-list search then compares without loading the row arrays, a cache
   * miss each); when equal, the arrays decide.
   */
  private final long rowPrefix;

  public Cell(byte[] row, byte[] family, byte[] qualifier, long timestamp, CellType type,
      long sequenceId, byte[] value) {
    this.row = row;
    this.rowPrefix = prefix(row);
    this.family = family;
    this.qualifier = qualifier == null ? EMPTY : qualifier;
    this.timestamp = timestamp;
    this.type = type;
    this.sequenceId = sequenceId;
    this.value = value == null ? EMPTY : value;
  }

  public static Cell put(byte[] row, byte[] family, byte[] qualifier, long timestamp,
      byte[] value) {
    return new Cell(row, family, qualifier, timestamp, CellType.PUT, 0, value);
  }

  public static Cell delete(byte[] row, byte[] family, byte[] qualifier, long timestamp,
      CellType type) {
    return new Cell(row, family, type.isFamilyMarker() ? EMPTY : qualifier, timestamp, type, 0,
        EMPTY);
  }

  public byte[] row() {
    return row;
  }

  /** The row's first 8 bytes as an unsigned big-endian number, zero-padded (see the field). */
  public long rowPrefix() {
    return rowPrefix;
  }

  private static long prefix(byte[] row) {
    int n = Math.min(8, row.length);
    long p = 0;
    for (int i = 0; i < n; i++) {
      p = (p << 8) | (row[i] & 0xff);
    }
    return p << (8 * (8 - n)); // (a shift by 64 would do nothing: n == 0 gives 0 anyway)
  }

  public byte[] family() {
    return family;
  }

  public byte[] qualifier() {
    return qualifier;
  }

  public long timestamp() {
    return timestamp;
  }

  public CellType type() {
    return type;
  }

  public long sequenceId() {
    return sequenceId;
  }

  public byte[] value() {
    return value;
  }

  /** The same cell with another timestamp and sequence id (the engine stamps writes). */
  public Cell stamped(long newTimestamp, long newSequenceId) {
    return new Cell(row, family, qualifier, newTimestamp, type, newSequenceId, value);
  }

  /** Rough heap footprint, for memstore accounting. */
  public long heapSize() {
    return 64 + 3 * 16 + row.length + qualifier.length + value.length;
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof Cell)) {
      return false;
    }
    Cell c = (Cell) o;
    return timestamp == c.timestamp && type == c.type && sequenceId == c.sequenceId
        && Arrays.equals(row, c.row) && Arrays.equals(family, c.family)
        && Arrays.equals(qualifier, c.qualifier) && Arrays.equals(value, c.value);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(row) * 31 + Arrays.hashCode(qualifier) + Long.hashCode(timestamp);
  }

  @Override
  public String toString() {
    return printable(row) + "/" + printable(family) + ":" + printable(qualifier) + "/"
        + timestamp + "/" + type + "/seq=" + sequenceId + "/vlen=" + value.length;
  }

  /** Bytes as text when printable ASCII, as hex otherwise. */
  public static String printable(byte[] b) {
    for (byte x : b) {
      if (x < 0x20 || x > 0x7e) {
        return "0x" + HexFormat.of().formatHex(b);
      }
    }
    return new String(b, StandardCharsets.US_ASCII);
  }
}
