package io.basaltdb.engine.store;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Counters of a store's background work and read-path skips. A store's flushes and compactions
 * also count in its database's totals ({@code parent}), which outlive the store. Thread-safe.
 */
public final class StoreStats {
  private final StoreStats parent;

  /** Counters whose flushes and compactions also count in {@code parent} (null: none). */
  public StoreStats(StoreStats parent) {
    this.parent = parent;
  }

  public final AtomicLong flushes = new AtomicLong();
  public final AtomicLong flushedBytes = new AtomicLong();
  public final AtomicLong flushNanos = new AtomicLong();
  public final AtomicLong compactions = new AtomicLong();
  public final AtomicLong majorCompactions = new AtomicLong();
  public final AtomicLong compactedBytes = new AtomicLong();
  public final AtomicLong compactionNanos = new AtomicLong();
  public final AtomicLong filesSkippedByBloom = new AtomicLong();
  public final AtomicLong filesSkippedByTime = new AtomicLong();
  /** Point reads of the family answered by the memstore's row index alone ({@code region.PointGet}). */
  public final java.util.concurrent.atomic.LongAdder rowsReadThroughIndex =
      new java.util.concurrent.atomic.LongAdder();

  /** A flush wrote a file of {@code bytes} in {@code nanos}. */
  void flushed(long bytes, long nanos) {
    flushes.incrementAndGet();
    flushedBytes.addAndGet(bytes);
    flushNanos.addAndGet(nanos);
    if (parent != null) {
      parent.flushed(bytes, nanos);
    }
  }

  /** A compaction read {@code bytes} of files in {@code nanos}. */
  void compacted(long bytes, long nanos, boolean major) {
    compactions.incrementAndGet();
    if (major) {
      majorCompactions.incrementAndGet();
    }
    compactedBytes.addAndGet(bytes);
    compactionNanos.addAndGet(nanos);
    if (parent != null) {
      parent.compacted(bytes, nanos, major);
    }
  }
}
