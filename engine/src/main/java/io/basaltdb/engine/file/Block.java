package io.basaltdb.engine.file;

import io.basaltdb.storage.Cell;
import io.basaltdb.engine.util.ByteReader;
import io.basaltdb.engine.util.ByteReader.MalformedException;

/**
 * A parsed, uncompressed data or index block (immutable, shared through the block cache)
 * and its iterators. The restart array is validated when the block is parsed; entry bytes
 * are validated as they are decoded and raise {@link MalformedException}.
 *
 * <p>A seek binary-searches the restart keys, copied side by side once per block and kept
 * with it (the block cache weighs them in), then walks entries comparing encoded keys in place
 * ({@link BlockFileFormat#compareKey}); a {@link Cell} is built only for the entry a caller
 * asks for.
 */
final class Block implements io.basaltdb.engine.cache.BlockCache.Sized {
  private final byte[] data;
  private final int restartsOffset;
  private final int numRestarts;

  Block(byte[] data) {
    this.data = data;
    if (data.length < 4) {
      throw new MalformedException("block of " + data.length + " bytes has no restart count");
    }
    numRestarts = ByteReader.getInt(data, data.length - 4);
    restartsOffset = data.length - 4 - 4 * numRestarts;
    if (numRestarts < 1 || restartsOffset < 0) {
      throw new MalformedException("bad restart count " + numRestarts);
    }
    for (int i = 0; i < numRestarts; i++) {
      int r = restart(i);
      if (r < 0 || r >= restartsOffset) {
        throw new MalformedException("restart " + i + " at " + r + " outside entries");
      }
    }
  }

  @Override
  public int sizeInBytes() {
    return data.length + 64 + numRestarts * 48; // the bytes and the copied restart keys
  }

  private int restart(int i) {
    return ByteReader.getInt(data, restartsOffset + 4 * i);
  }

  /**
   * The restart entries' keys copied side by side (built on the first seek; a block is
   * immutable, so a race only redoes it): a seek's binary search reads one small array
   * instead of following a decoded cell and its row to other places in memory per probe.
   */
  private volatile RestartKeys restartKeys;

  /** Encoded keys of the restart entries: key {@code i} is {@code bytes[ends[i-1], ends[i])}. */
  private record RestartKeys(byte[] bytes, int[] ends, long[] seqs) {}

  private RestartKeys restartKeys() {
    RestartKeys keys = restartKeys;
    if (keys == null) {
      keys = decodeRestarts();
      restartKeys = keys;
    }
    return keys;
  }

  private RestartKeys decodeRestarts() {
    int[] ends = new int[numRestarts];
    long[] seqs = new long[numRestarts];
    int[] offs = new int[numRestarts];
    int total = 0;
    for (int i = 0; i < numRestarts; i++) {
      ByteReader r = new ByteReader(data, restart(i), restartsOffset);
      int shared = r.getVarInt();
      int unshared = r.getVarInt();
      r.getVarInt();
      if (shared != 0) {
        throw new MalformedException("restart entry with shared prefix " + shared);
      }
      offs[i] = r.position();
      r.position(offs[i] + unshared);
      seqs[i] = r.getVarLong();
      total += unshared;
      ends[i] = total;
    }
    byte[] bytes = new byte[total];
    for (int i = 0, at = 0; i < numRestarts; i++) {
      System.arraycopy(data, offs[i], bytes, at, ends[i] - at);
      at = ends[i];
    }
    return new RestartKeys(bytes, ends, seqs);
  }

  Iter iterator(byte[] family) {
    return new Iter(family);
  }

  /** A cursor over the block's entries. Not thread-safe; one per reader. */
  final class Iter {
    private final byte[] family;
    private final ByteReader in = new ByteReader(data, 0, restartsOffset);
    private byte[] key = new byte[64];
    private int keyLen;
    private long seq;
    private int valueOff;
    private int valueLen;
    private boolean valid;
    private Cell current;
    /**
     * The row of the last cell built, while every entry since shared the key bytes encoding it
     * ({@code [0, lastRowEnd)}): the current entry's row, without a comparison. And the
     * qualifiers met lately. Shared by the cells that repeat them.
     */
    private byte[] lastRow;
    private int lastRowEnd;
    private byte[][] qualifiers; // made at the first cell built

    Iter(byte[] family) {
      this.family = family;
    }

    /** The entry under the cursor (built on first call), or null past the end. */
    Cell current() {
      if (!valid) {
        return null;
      }
      if (current == null) {
        byte[] value = new byte[valueLen];
        System.arraycopy(data, valueOff, value, 0, valueLen);
        if (qualifiers == null) {
          qualifiers = new byte[4][];
        }
        current = BlockFileFormat.decodeKey(key, 0, keyLen, family, seq, value, lastRow,
            qualifiers);
        if (lastRow == null) {
          lastRow = current.row();
          lastRowEnd = BlockFileFormat.rowEnd(key, 0, keyLen);
        }
      }
      return current;
    }

    /** The raw value bytes of the current entry (index blocks: a child handle). */
    ByteReader valueReader() {
      return new ByteReader(data, valueOff, valueOff + valueLen);
    }

    boolean valid() {
      return valid;
    }

    /** The entry under the cursor (valid) against {@code target}, compared encoded: no cell built. */
    int compareTo(Cell target) {
      return BlockFileFormat.compareKey(key, 0, keyLen, seq, target);
    }

    void seekToFirst() {
      in.position(restart(0));
      keyLen = 0;
      next();
    }

    /** Positions at the first entry {@code >= target}, or past the end. */
    void seek(Cell target) {
      toRestartBefore(target);
      while (valid && BlockFileFormat.compareKey(key, 0, keyLen, seq, target) < 0) {
        next();
      }
    }

    /**
     * Seeks as {@link #seek} does and returns the last entry before {@code target}, or null if
     * none: found from the last restart point before it, not from the block's start.
     */
    Cell seekRememberingLastBefore(Cell target) {
      toRestartBefore(target);
      Cell before = null;
      while (valid && BlockFileFormat.compareKey(key, 0, keyLen, seq, target) < 0) {
        before = current();
        next();
      }
      return before;
    }

    /**
     * Positions at the last restart entry whose key is {@code < target} (the first one if
     * none is): a binary search over the restart keys.
     */
    private void toRestartBefore(Cell target) {
      RestartKeys keys = restartKeys();
      int lo = 0;
      int hi = numRestarts - 1;
      while (lo < hi) {
        int mid = (lo + hi + 1) >>> 1;
        if (compareAtRestart(keys, mid, target) < 0) {
          lo = mid;
        } else {
          hi = mid - 1;
        }
      }
      in.position(restart(lo));
      keyLen = 0;
      next();
    }

    private int compareAtRestart(RestartKeys keys, int i, Cell target) {
      int start = i == 0 ? 0 : keys.ends[i - 1];
      return BlockFileFormat.compareKey(keys.bytes, start, keys.ends[i] - start, keys.seqs[i],
          target);
    }

    void next() {
      current = null;
      if (!in.hasRemaining()) {
        valid = false;
        return;
      }
      int shared = in.getVarInt();
      int unshared = in.getVarInt();
      int vlen = in.getVarInt();
      if (shared > keyLen) {
        throw new MalformedException("shared prefix " + shared + " longer than previous key");
      }
      if (shared < lastRowEnd) {
        lastRow = null; // this entry's row may differ from the last cell's
      }
      if (shared + unshared > key.length) {
        key = java.util.Arrays.copyOf(key, Math.max(shared + unshared, key.length * 2));
      }
      int off = in.position();
      in.position(off + unshared);
      System.arraycopy(data, off, key, shared, unshared);
      keyLen = shared + unshared;
      seq = in.getVarLong();
      valueOff = in.position();
      in.position(valueOff + vlen);
      valueLen = vlen;
      valid = true;
    }
  }
}
