package io.basaltdb.storage;


/**
 * A column family's storage settings: versions, TTL, compression, block size, bloom filter,
 * data block encoding (shared-prefix keys, or none) and in-memory cache priority. Validated on
 * construction (a bad value raises {@link InvalidArgumentException}); immutable.
 */
public record FamilyOptions(int maxVersions, int minVersions, long ttlSeconds,
    Compression compression, int blockSize, BloomType bloomType, boolean prefixEncoding,
    boolean inMemory) {

  public static final FamilyOptions DEFAULT =
      new FamilyOptions(1, 0, 0, Compression.LZ4, 64 * 1024, BloomType.ROW, true, false);

  public FamilyOptions(int maxVersions, int minVersions, long ttlSeconds, Compression compression,
      int blockSize, BloomType bloomType) {
    this(maxVersions, minVersions, ttlSeconds, compression, blockSize, bloomType, true, false);
  }

  public FamilyOptions {
    if (maxVersions < 1) {
      throw new InvalidArgumentException("VERSIONS must be >= 1, got " + maxVersions);
    }
    if (minVersions < 0 || minVersions > maxVersions) {
      throw new InvalidArgumentException("MIN_VERSIONS (" + minVersions
          + ") must be between 0 and VERSIONS (" + maxVersions + ")");
    }
    if (ttlSeconds < 0) {
      throw new InvalidArgumentException("TTL must be >= 0 seconds, got " + ttlSeconds);
    }
    if (compression == null || bloomType == null) {
      throw new InvalidArgumentException("COMPRESSION and BLOOMFILTER must be set");
    }
    if (blockSize < 1024 || blockSize > 16 << 20) {
      throw new InvalidArgumentException("BLOCKSIZE must be in [1 KiB, 16 MiB], got " + blockSize);
    }
  }

  public FamilyOptions withVersions(int max, int min) {
    return new FamilyOptions(max, min, ttlSeconds, compression, blockSize, bloomType, prefixEncoding, inMemory);
  }

  public FamilyOptions withTtlSeconds(long ttl) {
    return new FamilyOptions(maxVersions, minVersions, ttl, compression, blockSize, bloomType, prefixEncoding, inMemory);
  }

  public FamilyOptions withCompression(Compression c) {
    return new FamilyOptions(maxVersions, minVersions, ttlSeconds, c, blockSize, bloomType, prefixEncoding, inMemory);
  }

  public FamilyOptions withBlockSize(int size) {
    return new FamilyOptions(maxVersions, minVersions, ttlSeconds, compression, size, bloomType, prefixEncoding, inMemory);
  }

  public FamilyOptions withBloomType(BloomType b) {
    return new FamilyOptions(maxVersions, minVersions, ttlSeconds, compression, blockSize, b, prefixEncoding, inMemory);
  }

  public FamilyOptions withPrefixEncoding(boolean on) {
    return new FamilyOptions(maxVersions, minVersions, ttlSeconds, compression, blockSize,
        bloomType, on, inMemory);
  }

  public FamilyOptions withInMemory(boolean on) {
    return new FamilyOptions(maxVersions, minVersions, ttlSeconds, compression, blockSize,
        bloomType, prefixEncoding, on);
  }
}
