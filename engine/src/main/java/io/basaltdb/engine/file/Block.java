package io.basaltdb.engine.file;

import io.basaltdb.engine.Cell;
import io.basaltdb.engine.util.ByteReader;
import io.basaltdb.engine.util.ByteReader.MalformedException;

/**
 * A parsed, uncompressed data or index block (immutable, shared through the block cache)
 * and its iterators. The restart array is validated when the block is parsed; entry bytes
 * are validated as they are decoded and raise {@link MalformedException}.
 *
 * <p>Iterators compare encoded keys in place ({@link BlockFileFormat#compareKey}) and build a
 * {@link Cell} only for the entry a caller asks for, so a seek allocates almost nothing.
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
    return data.length + 32;
  }

  private int restart(int i) {
    return ByteReader.getInt(data, restartsOffset + 4 * i);
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
        current = BlockFileFormat.decodeKey(key, 0, keyLen, family, seq, value);
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

    void seekToFirst() {
      in.position(restart(0));
      keyLen = 0;
      next();
    }

    /** Positions at the first entry {@code >= target}, or past the end. */
    void seek(Cell target) {
      int lo = 0;
      int hi = numRestarts - 1;
      // find the last restart whose key is < target
      while (lo < hi) {
        int mid = (lo + hi + 1) >>> 1;
        if (compareAtRestart(mid, target) < 0) {
          lo = mid;
        } else {
          hi = mid - 1;
        }
      }
      in.position(restart(lo));
      keyLen = 0;
      next();
      while (valid && BlockFileFormat.compareKey(key, 0, keyLen, seq, target) < 0) {
        next();
      }
    }

    private int compareAtRestart(int i, Cell target) {
      int p = restart(i);
      if (data[p] != 0) {
        throw new MalformedException("restart entry with a shared prefix at " + p);
      }
      p++;
      long unsharedAndPos = varint(p);
      int unshared = (int) unsharedAndPos;
      p = (int) (unsharedAndPos >>> 32);
      p = (int) (varint(p) >>> 32); // value length
      int keyOff = p;
      if (unshared < 0 || keyOff + unshared > restartsOffset) {
        throw new MalformedException("restart key runs past the entries at " + keyOff);
      }
      long seq = readSeq(keyOff + unshared);
      return BlockFileFormat.compareKey(data, keyOff, unshared, seq, target);
    }

    /** A varint32 at {@code p}: the value in the low 32 bits, the next position in the high. */
    private long varint(int p) {
      int v = 0;
      for (int shift = 0; shift <= 28; shift += 7) {
        if (p >= restartsOffset) {
          break;
        }
        byte b = data[p++];
        v |= (b & 0x7F) << shift;
        if ((b & 0x80) == 0) {
          return ((long) p << 32) | (v & 0xFFFFFFFFL);
        }
      }
      throw new MalformedException("bad varint in block entry before " + p);
    }

    private long readSeq(int p) {
      long v = 0;
      for (int shift = 0; shift < 64; shift += 7) {
        if (p >= restartsOffset) {
          break;
        }
        byte b = data[p++];
        v |= (long) (b & 0x7F) << shift;
        if ((b & 0x80) == 0) {
          return v;
        }
      }
      throw new MalformedException("bad sequence id varint before " + p);
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
