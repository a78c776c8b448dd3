package io.basaltdb.engine.cache;

import com.google.common.cache.Cache;
import com.google.common.cache.CacheBuilder;
import com.google.common.cache.CacheStats;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * The bounded LRU cache of uncompressed blocks shared by every open file of a database.
 * Keyed by (file id, block offset); weighed by each entry's size in bytes, so the total
 * stays under the configured capacity. Thread-safe (Guava's segmented LRU cache).
 */
public final class BlockCache {
  /** What the cache holds must say how big it is. */
  public interface Sized {
    int sizeInBytes();
  }

  private record Key(long fileId, long offset) {}

  private final Cache<Key, Sized> cache;
  private final long capacityBytes;
  private final AtomicLong nextFileId = new AtomicLong(1);

  public BlockCache(long capacityBytes) {
    this.capacityBytes = capacityBytes;
    this.cache = CacheBuilder.newBuilder()
        .maximumWeight(Math.max(1, capacityBytes))
        .weigher((Key k, Sized v) -> v.sizeInBytes())
        .concurrencyLevel(4)
        .recordStats()
        .build();
  }

  /** A fresh id for an opened file; ids are never reused, so stale entries just age out. */
  public long newFileId() {
    return nextFileId.getAndIncrement();
  }

  @SuppressWarnings("unchecked")
  public <T extends Sized> T get(long fileId, long offset, Supplier<T> loader) {
    if (capacityBytes <= 0) {
      return loader.get();
    }
    try {
      return (T) cache.get(new Key(fileId, offset), loader::get);
    } catch (ExecutionException e) {
      throw new IllegalStateException(e.getCause());
    } catch (com.google.common.util.concurrent.UncheckedExecutionException e) {
      if (e.getCause() instanceof RuntimeException re) {
        throw re;
      }
      throw e;
    }
  }

  public void invalidateFile(long fileId) {
    cache.asMap().keySet().removeIf(k -> k.fileId == fileId);
  }

  public long capacityBytes() {
    return capacityBytes;
  }

  public long sizeBytes() {
    long total = 0;
    for (Sized s : cache.asMap().values()) {
      total += s.sizeInBytes();
    }
    return total;
  }

  public CacheStats stats() {
    return cache.stats();
  }
}
