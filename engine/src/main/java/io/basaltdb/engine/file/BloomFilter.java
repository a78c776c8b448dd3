package io.basaltdb.engine.file;

import io.basaltdb.engine.util.ByteReader;
import io.basaltdb.engine.util.ByteWriter;
import io.basaltdb.storage.hash.Murmur3;
import java.util.Arrays;

/**
 * A bloom filter over byte-string keys with double hashing (layout and hash in
 * {@code engine/doc/file-format.md}, "Bloom block"). Immutable once built; thread-safe.
 */
public final class BloomFilter implements io.basaltdb.engine.cache.BlockCache.Sized {
  private final int hashCount;
  private final long numBits;
  private final byte[] bits;

  private BloomFilter(int hashCount, long numBits, byte[] bits) {
    this.hashCount = hashCount;
    this.numBits = numBits;
    this.bits = bits;
  }

  public static long hash(byte[] key) {
    return Murmur3.hash64(key);
  }

  public static long hash(byte[] key, int off, int len) {
    return Murmur3.hash64(key, off, len);
  }

  public boolean mightContain(byte[] key) {
    return mightContainHash(hash(key));
  }

  public boolean mightContainHash(long h) {
    long h1 = (int) h;
    long h2 = (int) (h >>> 32);
    for (int i = 0; i < hashCount; i++) {
      long bit = Math.floorMod(h1 + i * h2, numBits);
      if ((bits[(int) (bit >>> 3)] & (1 << (bit & 7))) == 0) {
        return false;
      }
    }
    return true;
  }

  @Override
  public int sizeInBytes() {
    return bits.length + 16;
  }

  public byte[] encode() {
    ByteWriter w = new ByteWriter(bits.length + 5);
    w.put((byte) hashCount);
    w.putInt((int) numBits);
    w.put(bits);
    return w.toByteArray();
  }

  public static BloomFilter decode(byte[] raw) {
    ByteReader r = new ByteReader(raw);
    int k = r.get() & 0xff;
    long m = r.getInt() & 0xFFFFFFFFL;
    if (k < 1 || k > 30 || m < 8 || r.remaining() != (int) ((m + 7) / 8)) {
      throw new ByteReader.MalformedException("bad bloom header k=" + k + " bits=" + m);
    }
    return new BloomFilter(k, m, r.getBytes(r.remaining()));
  }

  public static double bitsPerKey(double falsePositiveRate) {
    return -Math.log(falsePositiveRate) / (Math.log(2) * Math.log(2));
  }

  /** Collects key hashes while a file is written, then sizes and fills the filter. */
  public static final class Builder {
    private final double bitsPerKey;
    private long[] hashes = new long[1024];
    private int count;

    public Builder(double falsePositiveRate) {
      this.bitsPerKey = bitsPerKey(falsePositiveRate);
    }

    public void addHash(long h) {
      if (count == hashes.length) {
        hashes = Arrays.copyOf(hashes, count * 2);
      }
      hashes[count++] = h;
    }

    public int count() {
      return count;
    }

    public BloomFilter build() {
      long m = Math.max(64, (long) Math.ceil(count * bitsPerKey));
      m = Math.min(m, 0xFFFFFFF8L);
      int k = (int) Math.max(1, Math.min(30, Math.round(bitsPerKey * Math.log(2))));
      byte[] bits = new byte[(int) ((m + 7) / 8)];
      for (int j = 0; j < count; j++) {
        long h = hashes[j];
        long h1 = (int) h;
        long h2 = (int) (h >>> 32);
        for (int i = 0; i < k; i++) {
          long bit = Math.floorMod(h1 + i * h2, m);
          bits[(int) (bit >>> 3)] |= (byte) (1 << (bit & 7));
        }
      }
      return new BloomFilter(k, m, bits);
    }
  }
}
