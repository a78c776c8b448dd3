package io.basaltdb.engine.file;

import io.basaltdb.engine.Cell;
import io.basaltdb.engine.CellType;
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
    long ts = (long) BIG_ENDIAN_LONG.get(key, tsStart);
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
  /** Reads a key's timestamp: eight bytes, big-endian, in one load. */
  private static final java.lang.invoke.VarHandle BIG_ENDIAN_LONG =
      java.lang.invoke.MethodHandles.byteArrayViewVarHandle(long[].class,
          java.nio.ByteOrder.BIG_ENDIAN);

  /** The array of {@code recent} equal to {@code key[p, p+len)}, or null. */
  private static byte[] recent(byte[] key, int p, int len, byte[][] recent) {
    for (byte[] seen : recent) {
      if (seen == null) {
        return null; // filled from the front: nothing after
      }
      if (seen.length == len && startsWith(key, p, seen)) {
        return seen;
      }
    }
    return null;
  }

  /** Keeps {@code q} among the recent qualifiers: in a free slot, else over one by its bytes. */
  private static void remember(byte[] q, byte[][] recent) {
    for (int i = 0; i < recent.length; i++) {
      if (recent[i] == null) {
        recent[i] = q;
        return;
      }
    }
    int h = q.length == 0 ? 0 : (q[0] ^ q[q.length - 1]) + q.length;
    recent[Math.floorMod(h, recent.length)] = q;
  }

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
   * repeat their row and, row after row, the same few qualifiers (searched in order: a table's
   * handful of column names all stay, where one slot per first byte let names alike in it
   * evict each other every row). Cells never change their arrays.
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
    byte[] qual = recentQualifiers == null ? null : recent(key, p, qualLen, recentQualifiers);
    if (qual == null) {
      qual = java.util.Arrays.copyOfRange(key, p, p + qualLen);
      if (recentQualifiers != null) {
        remember(qual, recentQualifiers);
      }
    }
    p += qualLen;
    long ts = (long) BIG_ENDIAN_LONG.get(key, p);
    p += 8;
    CellType type = CellType.ofCode(key[p]);
    if (type == null) {
      throw new MalformedException("unknown cell type code " + key[p]);
    }
    return new Cell(row, family, qual, ts, type, seq, value);
  }
}
