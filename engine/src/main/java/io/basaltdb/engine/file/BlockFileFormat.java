package io.basaltdb.engine.file;

import io.basaltdb.storage.Cell;
import io.basaltdb.storage.CellType;
import io.basaltdb.engine.util.ByteReader.MalformedException;
import io.basaltdb.engine.util.ByteWriter;

/**
 * Constants and the cell-key codec of the block file; see {@code engine/doc/file-format.md}.
 * Stateless.
 */
public final class BlockFileFormat {
  /** Points at engine/doc/file-format.md, "version 1". Frozen. */
  public static final int FORMAT_VERSION = 1;
  public static final long MAGIC = 0x42534C5442464C31L; // "BSLTBFL1"
  public static final int TRAILER_SIZE = 60;
  public static final int ENVELOPE_OVERHEAD = 9;
  public static final int RESTART_INTERVAL = 16;
  public static final byte CODEC_NONE = 0;
  public static final byte CODEC_LZ4 = 1;

  private BlockFileFormat() {}

  /** Appends the key of {@code c} (row_len, row, qualifier, timestamp, type). */
  public static void encodeKey(Cell c, ByteWriter out) {
    out.putVarInt(c.row().length);
    out.put(c.row());
    out.put(c.qualifier());
    out.putLong(c.timestamp());
    out.put(c.type().code());
  }

  public static byte[] encodeKey(Cell c) {
    ByteWriter w = new ByteWriter(c.row().length + c.qualifier().length + 16);
    encodeKey(c, w);
    return w.toByteArray();
  }

  /**
   * Compares the encoded key {@code key[off, off+len)} of a cell with sequence id {@code seq}
   * against {@code target} in {@link io.basaltdb.engine.cell.CellComparator} order, without
   * decoding it. Both belong to one family, so the family is not compared.
   */
  public static int compareKey(byte[] key, int off, int len, long seq, Cell target) {
    int end = off + len;
    long lenAndPos = rowLength(key, off, end);
    int rowLen = (int) lenAndPos;
    int p = (int) (lenAndPos >>> 32);
    int qualStart = p + rowLen;
    int tsStart = end - 9;
    if (rowLen < 0 || qualStart > tsStart) {
      throw new MalformedException("key of " + len + " bytes too short for row of " + rowLen);
    }
    byte[] row = target.row();
    int c = java.util.Arrays.compareUnsigned(key, p, qualStart, row, 0, row.length);
    if (c != 0) {
      return c;
    }
    byte[] q = target.qualifier();
    c = java.util.Arrays.compareUnsigned(key, qualStart, tsStart, q, 0, q.length);
    if (c != 0) {
      return c;
    }
    long ts = 0;
    for (int i = 0; i < 8; i++) {
      ts = (ts << 8) | (key[tsStart + i] & 0xff);
    }
    c = Long.compare(target.timestamp(), ts);
    if (c != 0) {
      return c;
    }
    c = Integer.compare(target.type().code() & 0xff, key[end - 1] & 0xff);
    if (c != 0) {
      return c;
    }
    return Long.compare(target.sequenceId(), seq);
  }

  /** The key's row-length varint: the length in the low 32 bits, the row's offset in the high. */
  /** True when {@code key} holds {@code part} at {@code p} (short arrays: a plain loop). */
  private static boolean startsWith(byte[] key, int p, byte[] part) {
    for (int i = 0; i < part.length; i++) {
      if (key[p + i] != part[i]) {
        return false;
      }
    }
    return true;
  }

  /** Where the row of the key (of {@code len} bytes at {@code off}) ends in it. */
  static int rowEnd(byte[] key, int off, int len) {
    long lenAndPos = rowLength(key, off, off + len);
    return (int) (lenAndPos >>> 32) + (int) lenAndPos;
  }

  private static long rowLength(byte[] key, int p, int end) {
    int rowLen = 0;
    for (int shift = 0; ; shift += 7) {
      if (p >= end || shift > 28) {
        throw new MalformedException("bad row length in key");
      }
      byte b = key[p++];
      rowLen |= (b & 0x7F) << shift;
      if ((b & 0x80) == 0) {
        return ((long) p << 32) | (rowLen & 0xFFFFFFFFL);
      }
    }
  }

  /** Decodes a key (of {@code len} bytes at {@code off}) back into a cell of {@code family}. */
  public static Cell decodeKey(byte[] key, int off, int len, byte[] family, long seq,
      byte[] value) {
    return decodeKey(key, off, len, family, seq, value, null, null);
  }

  /**
   * As above, with {@code sameRow} (non-null: the caller knows the key's row equals it, as the
   * entry shares its row bytes with the one before) as the cell's row, and a qualifier array of
   * {@code recentQualifiers} (null: none) when equal, instead of new copies: a block's cells
   * repeat their row and, row after row, the same few qualifiers. A new qualifier replaces the
   * slot its first byte picks. Cells never change their arrays.
   */
  public static Cell decodeKey(byte[] key, int off, int len, byte[] family, long seq,
      byte[] value, byte[] sameRow, byte[][] recentQualifiers) {
    int end = off + len;
    long lenAndPos = rowLength(key, off, end);
    int rowLen = (int) lenAndPos;
    int p = (int) (lenAndPos >>> 32);
    int qualLen = end - p - rowLen - 9;
    if (rowLen < 0 || qualLen < 0) {
      throw new MalformedException("key of " + len + " bytes too short for row of " + rowLen);
    }
    byte[] row = sameRow != null ? sameRow : java.util.Arrays.copyOfRange(key, p, p + rowLen);
    p += rowLen;
    byte[] qual;
    if (recentQualifiers == null) {
      qual = java.util.Arrays.copyOfRange(key, p, p + qualLen);
    } else {
      int slot = qualLen == 0 ? 0 : (key[p] & 0xff) % recentQualifiers.length;
      byte[] seen = recentQualifiers[slot];
      if (seen != null && seen.length == qualLen && startsWith(key, p, seen)) {
        qual = seen;
      } else {
        qual = java.util.Arrays.copyOfRange(key, p, p + qualLen);
        recentQualifiers[slot] = qual;
      }
    }
    p += qualLen;
    long ts = 0;
    for (int i = 0; i < 8; i++) {
      ts = (ts << 8) | (key[p++] & 0xff);
    }
    CellType type = CellType.ofCode(key[p]);
    if (type == null) {
      throw new MalformedException("unknown cell type code " + key[p]);
    }
    return new Cell(row, family, qual, ts, type, seq, value);
  }
}
