package io.basaltdb.engine.file;

import io.basaltdb.engine.Cell;
import io.basaltdb.engine.cell.CellComparator;
import io.basaltdb.engine.util.ByteReader;
import io.basaltdb.engine.util.ByteReader.MalformedException;

/**
 * A parsed, uncompressed data or index block (immutable, shared through the block cache)
 * and its iterators. The restart array is validated when the block is parsed; entry bytes
 * are validated as they are decoded and raise {@link MalformedException}.
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
    private Cell current;

    Iter(byte[] family) {
      this.family = family;
    }

    Cell current() {
      return current;
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
        Cell k = keyAtRestart(mid);
        if (CellComparator.INSTANCE.compare(k, target) < 0) {
          lo = mid;
        } else {
          hi = mid - 1;
        }
      }
      in.position(restart(lo));
      keyLen = 0;
      next();
      while (current != null && CellComparator.INSTANCE.compare(current, target) < 0) {
        next();
      }
    }

    private Cell keyAtRestart(int i) {
      ByteReader r = new ByteReader(data, restart(i), restartsOffset);
      int shared = r.getVarInt();
      int unshared = r.getVarInt();
      r.getVarInt();
      if (shared != 0) {
        throw new MalformedException("restart entry with shared prefix " + shared);
      }
      int off = r.position();
      r.position(off + unshared);
      long seq = r.getVarLong();
      return BlockFileFormat.decodeKey(data, off, unshared, family, seq, null);
    }

    void next() {
      if (!in.hasRemaining()) {
        current = null;
        return;
      }
      int shared = in.getVarInt();
      int unshared = in.getVarInt();
      int valueLen = in.getVarInt();
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
      long seq = in.getVarLong();
      byte[] value = in.getBytes(valueLen);
      current = BlockFileFormat.decodeKey(key, 0, keyLen, family, seq, value);
    }
  }
}
