package io.basaltdb.storage.hash;

/**
 * MurmurHash3, x64 128-bit variant, seed 0 (Austin Appleby's public-domain algorithm): the
 * hash bloom filters and salt buckets are stored with ({@code engine/doc/file-format.md},
 * "Bloom block"; a salted key's first byte). Returns the first 64 bits of the 128-bit result
 * as a little-endian long, the value Guava's {@code Hashing.murmur3_128().hashBytes(b).asLong()}
 * gives (its {@code asInt()} is the low 32 bits), without the hasher, buffer and hash-code
 * objects Guava makes per call (a tenth of the garbage of a batched load of a salted table).
 * {@code Murmur3Test} (engine) checks the two agree. Stateless.
 */
public final class Murmur3 {
  private static final long C1 = 0x87c37b91114253d5L;
  private static final long C2 = 0x4cf5ad432745937fL;

  private Murmur3() {}

  /** The first 64 bits of the hash of {@code b}. */
  public static long hash64(byte[] b) {
    return hash64(b, 0, b.length);
  }

  /** The first 64 bits of the hash of {@code b[off, off + len)}. */
  public static long hash64(byte[] b, int off, int len) {
    long h1 = 0;
    long h2 = 0;
    int end = off + len;
    int at = off;
    for (; end - at >= 16; at += 16) {
      long k1 = littleEndian(b, at, 8);
      long k2 = littleEndian(b, at + 8, 8);
      h1 ^= mixK1(k1);
      h1 = Long.rotateLeft(h1, 27) + h2;
      h1 = h1 * 5 + 0x52dce729;
      h2 ^= mixK2(k2);
      h2 = Long.rotateLeft(h2, 31) + h1;
      h2 = h2 * 5 + 0x38495ab5;
    }
    int rest = end - at;
    if (rest > 0) {
      // the tail's first eight bytes are k1, the others k2, both little-endian
      h1 ^= mixK1(littleEndian(b, at, Math.min(rest, 8)));
      if (rest > 8) {
        h2 ^= mixK2(littleEndian(b, at + 8, rest - 8));
      }
    }
    h1 ^= len;
    h2 ^= len;
    h1 += h2;
    h2 += h1;
    h1 = fmix64(h1);
    h2 = fmix64(h2);
    return h1 + h2;
  }

  /** {@code n} (1 to 8) bytes from {@code at}, the first the least significant. */
  private static long littleEndian(byte[] b, int at, int n) {
    long v = 0;
    for (int i = n - 1; i >= 0; i--) {
      v = v << 8 | (b[at + i] & 0xffL);
    }
    return v;
  }

  private static long mixK1(long k1) {
    return Long.rotateLeft(k1 * C1, 31) * C2;
  }

  private static long mixK2(long k2) {
    return Long.rotateLeft(k2 * C2, 33) * C1;
  }

  private static long fmix64(long k) {
    k ^= k >>> 33;
    k *= 0xff51afd7ed558ccdL;
    k ^= k >>> 33;
    k *= 0xc4ceb9fe1a85ec53L;
    k ^= k >>> 33;
    return k;
  }
}
