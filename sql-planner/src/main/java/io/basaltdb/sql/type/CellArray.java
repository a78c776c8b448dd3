package io.basaltdb.sql.type;

import io.basaltdb.storage.CorruptionException;
import java.util.Arrays;

/**
 * The value of a family's one cell in a table stored with
 * {@code IMMUTABLE_STORAGE_SCHEME=SINGLE_CELL_ARRAY_WITH_OFFSETS}: the cell values
 * ({@link ColumnType#toCell}) of the family's columns, by slot (a column's position among the
 * family's columns in declaration order), with NULLs. Frozen format 1:
 * <pre>
 *   version u8 (1) | slots u16 | null bitmap, ceil(slots / 8) bytes (bit s of byte s/8: slot s
 *   is NULL) | slots + 1 start offsets u32, relative to the data (the last is the data's
 *   length) | data: the values, back to back
 * </pre>
 * Slot {@code s} is {@code data[start(s), start(s + 1))}; a slot at or past {@code slots} (a
 * column added after the cell was written) is NULL. Reading one slot costs two offset reads.
 */
public final class CellArray {
  private static final int VERSION = 1;

  private CellArray() {}

  /** The cell of {@code values} (by slot; null entries are NULL). */
  public static byte[] encode(byte[][] values) {
    int n = values.length;
    int bitmap = (n + 7) / 8;
    int data = 0;
    for (byte[] v : values) {
      data += v == null ? 0 : v.length;
    }
    int header = 3 + bitmap + 4 * (n + 1);
    byte[] out = new byte[header + data];
    out[0] = VERSION;
    out[1] = (byte) (n >>> 8);
    out[2] = (byte) n;
    int pos = 0;
    for (int s = 0; s < n; s++) {
      putInt(out, 3 + bitmap + 4 * s, pos);
      if (values[s] == null) {
        out[3 + s / 8] |= (byte) (1 << (s % 8));
      } else {
        System.arraycopy(values[s], 0, out, header + pos, values[s].length);
        pos += values[s].length;
      }
    }
    putInt(out, 3 + bitmap + 4 * n, pos);
    return out;
  }

  /** How many slots {@code cell} has. */
  public static int slots(byte[] cell) {
    if (cell.length < 3 || cell[0] != VERSION) {
      throw new CorruptionException("not a cell array (version "
          + (cell.length == 0 ? "none" : cell[0]) + ")");
    }
    return ((cell[1] & 0xff) << 8) | (cell[2] & 0xff);
  }

  /** Slot {@code slot}'s value in {@code cell}, or null when it is NULL. */
  public static byte[] get(byte[] cell, int slot) {
    int n = slots(cell);
    if (slot >= n) {
      return null;
    }
    int bitmap = (n + 7) / 8;
    if ((cell[3 + slot / 8] & (1 << (slot % 8))) != 0) {
      return null;
    }
    int header = 3 + bitmap + 4 * (n + 1);
    int start = getInt(cell, 3 + bitmap + 4 * slot);
    int end = getInt(cell, 3 + bitmap + 4 * (slot + 1));
    if (start < 0 || end < start || header + end > cell.length) {
      throw new CorruptionException("cell array slot " + slot + " out of bounds");
    }
    return Arrays.copyOfRange(cell, header + start, header + end);
  }

  private static void putInt(byte[] b, int at, int v) {
    b[at] = (byte) (v >>> 24);
    b[at + 1] = (byte) (v >>> 16);
    b[at + 2] = (byte) (v >>> 8);
    b[at + 3] = (byte) v;
  }

  private static int getInt(byte[] b, int at) {
    return ((b[at] & 0xff) << 24) | ((b[at + 1] & 0xff) << 16) | ((b[at + 2] & 0xff) << 8)
        | (b[at + 3] & 0xff);
  }
}
