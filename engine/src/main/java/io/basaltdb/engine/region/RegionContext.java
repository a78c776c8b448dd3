package io.basaltdb.engine.region;

import io.basaltdb.engine.EngineOptions;
import io.basaltdb.engine.cache.BlockCache;
import io.basaltdb.engine.wal.WriteAheadLog;

/**
 * What a region borrows from its database (nothing global): the shared WAL and the order of
 * writes (sequence ids, the visible point), the pinned read points, options, block cache, the memstore budget, and callbacks to schedule background
 * flushes and compactions and to learn that a flush finished (WAL clean-up), and the
 * database's running totals ({@link EngineTotals}).
 */
public record RegionContext(java.util.function.Supplier<WriteAheadLog> walSupplier, DatabaseMvcc order, EngineOptions options,
    BlockCache blockCache, MemstoreBudget budget, Scheduler scheduler, ReadPins pins,
    EngineTotals totals) {

  public WriteAheadLog wal() {
    return walSupplier.get();
  }

  public io.basaltdb.engine.io.FileSystem fs() {
    return options.fileSystem();
  }

  /** Background work the database runs for a region. */
  public interface Scheduler {
    void requestFlush(Region r);

    void requestCompaction(Region r);

    /** The region's active memstores are idle: freeze them ({@link Region#freeze}). */
    void requestFreeze(Region r);

    /** The region has grown past the split size. */
    void requestSplit(Region r);

    void flushed(Region r);

    /** A background flush or compaction that failed, or null; writers must not wait on it. */
    Throwable failure();
  }
}
