package io.basaltdb.engine.store;

import java.util.concurrent.atomic.AtomicLong;

/** Counters of a store's background work and read-path skips. Thread-safe. */
public final class StoreStats {
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
}
