package io.basaltdb.engine.cache;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.stats.CacheStats;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * The bounded LRU cache of uncompressed blocks shared by every open file of a database.
 * Keyed by (file id, block offset); weighed by each entry's size in bytes, so the total
 * stays under the configured capacity. Thread-safe (Caffeine's bounded cache: a read is a
 * hash lookup and a lossy buffer append, where Guava's segmented LRU took a lock every 64
 * reads to drain its recency queue - a tenth of a 10-row key range's time).
 *
 * <p>Admission: a block enters the cache on its second miss within a recent window (a small
 * "doorkeeper" bit set of recently missed keys, cleared periodically). A block read once — by
 * a scan, or by random reads over data much larger than the cache — is not cached, so it dies
 * young instead of pushing a cached block out and becoming old garbage for the collector; a
 * block read again is cached. Under uniform random reads the hit rate is the same as plain LRU
 * (the cache's share of the data) with a fraction of the insertions.
 */
public final class BlockCache {
  /** What the cache holds must say how big it is. */
  public interface Sized {
    int sizeInBytes();
  }

  /** A block's place (a class, not a record: its hash and equality are on every read). */
  private static final class Key {
    final long fileId;
    final long offset;

    Key(long fileId, long offset) {
      this.fileId = fileId;
      this.offset = offset;
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Key k && k.fileId == fileId && k.offset == offset;
    }

    @Override
    public int hashCode() {
      return Long.hashCode(fileId * 0x9E3779B97F4A7C15L + offset);
    }
  }

  private final Cache<Key, Sized> cache;
  private final long capacityBytes;
  private final AtomicLong nextFileId = new AtomicLong(1);
  private final Doorkeeper doorkeeper;
  private final AtomicLong admitted = new AtomicLong();
  private final AtomicLong rejected = new AtomicLong();

  public BlockCache(long capacityBytes) {
    this.capacityBytes = capacityBytes;
    // the window: about as many misses as the cache holds 32 KiB blocks
    this.doorkeeper = new Doorkeeper(1 << 17, (int) Math.max(1024, Math.min(1 << 15,
        capacityBytes / (32 * 1024))));
    this.cache = Caffeine.newBuilder()
        .maximumWeight(Math.max(1, capacityBytes))
        .weigher((Key k, Sized v) -> v.sizeInBytes())
        .executor(Runnable::run) // evictions on the caller's thread: no pool, no overshoot
        .recordStats()
        .build();
  }

  /** A fresh id for an opened file; ids are never reused, so stale entries just age out. */
  public long newFileId() {
    return nextFileId.getAndIncrement();
  }

  @SuppressWarnings("unchecked")
  public <T extends Sized> T get(long fileId, long offset, Supplier<T> loader) {
    return get(fileId, offset, loader, false);
  }

  /**
   * A block from the cache or the loader. With {@code priority} (an IN_MEMORY family's file)
   * a loaded block is cached at once, without waiting for a second miss.
   */
  @SuppressWarnings("unchecked")
  public <T extends Sized> T get(long fileId, long offset, Supplier<T> loader, boolean priority) {
    if (capacityBytes <= 0) {
      return loader.get();
    }
    Key key = new Key(fileId, offset);
    T cached = (T) cache.getIfPresent(key);
    if (cached != null) {
      return cached;
    }
    T loaded = loader.get();
    if (priority || doorkeeper.seenBefore(key.hashCode() * 0x9E3779B97F4A7C15L + offset)) {
      cache.put(key, loaded);
      admitted.incrementAndGet();
    } else {
      rejected.incrementAndGet();
    }
    return loaded;
  }

  /** Blocks admitted on a repeated miss, and blocks read once and not cached. */
  public long admitted() {
    return admitted.get();
  }

  public long rejected() {
    return rejected.get();
  }

  /**
   * A bit set remembering the keys of the last {@code window} misses (one bit each, so a
   * collision only admits a block early), cleared when the window is full.
   */
  private static final class Doorkeeper {
    private final long[] bits;
    private final int mask;
    private final int window;
    private int recorded;

    Doorkeeper(int size, int window) {
      bits = new long[size / 64];
      mask = size - 1;
      this.window = window;
    }

    synchronized boolean seenBefore(long hash) {
      int bit = (int) (hash ^ (hash >>> 29)) & mask;
      long m = 1L << (bit & 63);
      boolean seen = (bits[bit >>> 6] & m) != 0;
      bits[bit >>> 6] |= m;
      if (++recorded >= window) {
        java.util.Arrays.fill(bits, 0);
        recorded = 0;
      }
      return seen;
    }
  }

  public void invalidateFile(long fileId) {
    cache.asMap().keySet().removeIf(k -> k.fileId == fileId);
  }

  public long capacityBytes() {
    return capacityBytes;
  }

  /** Bytes of the blocks cached now. */
  public long usedBytes() {
    return cache.policy().eviction().flatMap(e -> e.weightedSize().isPresent()
        ? java.util.Optional.of(e.weightedSize().getAsLong()) : java.util.Optional.empty())
        .orElse(0L);
  }

  public CacheStats stats() {
    return cache.stats();
  }
}
