package io.basaltdb.engine;

import io.basaltdb.storage.InvalidArgumentException;
import io.basaltdb.engine.io.FileSystem;
import io.basaltdb.engine.io.NioFileSystem;

/**
 * Database-wide settings, validated by {@link #validate()} when a database opens and
 * immutable afterwards (a record; change one with the {@code with*} builders).
 *
 * @param flushSizeBytes memstore size at which a region's stores are flushed (default 64 MiB)
 * @param globalMemstoreLimitBytes writers wait while all memstores together exceed this
 *     (default 40% of the heap)
 * @param blockCacheBytes capacity of the shared block cache (default 25% of the heap)
 * @param walRollBytes a WAL segment is closed and a new one started past this size
 * @param asyncSyncIntervalMillis how soon ASYNC writes are fsynced
 * @param compactionMinFiles a store compacts once it has this many files
 * @param compactionMaxFiles at most this many files go into one minor compaction
 * @param compactionRatio a file joins a minor compaction only if it is at most this many
 *     times the size of the other files of the selection together
 * @param maxCellSizeBytes larger cells are refused (default 10 MiB)
 * @param backgroundThreads threads for flushes and compactions
 * @param clock the only source of time
 * @param regionSplitBytes a region whose files pass this size is split in two (default 256 MiB)
 * @param fileSystem every file and directory operation goes through it (default: the
 *     operating system's; tests inject faults with their own)
 * @param freezeIdleCells a region whose active memstores hold at least this many cells and took
 *     no write for a second has them frozen (searched as sorted arrays; 0: never; default 4096)
 */
public record EngineOptions(long flushSizeBytes, long globalMemstoreLimitBytes,
    long blockCacheBytes, long walRollBytes, long asyncSyncIntervalMillis,
    int compactionMinFiles, int compactionMaxFiles, double compactionRatio,
    int maxCellSizeBytes, int backgroundThreads, Clock clock, long regionSplitBytes,
    FileSystem fileSystem, int freezeIdleCells) {

  public static EngineOptions defaults() {
    long heap = Runtime.getRuntime().maxMemory();
    return new EngineOptions(64L << 20, (long) (heap * 0.4), heap / 4, 64L << 20, 100, 3, 10,
        1.2, 10 << 20, 2, Clock.SYSTEM, 256L << 20, NioFileSystem.INSTANCE, 4096);
  }

  /** Throws {@link InvalidArgumentException} naming the first bad setting. */
  public EngineOptions validate() {
    check(flushSizeBytes >= 4096, "flushSizeBytes must be >= 4096, got " + flushSizeBytes);
    check(globalMemstoreLimitBytes >= flushSizeBytes,
        "globalMemstoreLimitBytes (" + globalMemstoreLimitBytes + ") must be >= flushSizeBytes ("
            + flushSizeBytes + ")");
    check(blockCacheBytes >= 0, "blockCacheBytes must be >= 0");
    check(walRollBytes >= 4096, "walRollBytes must be >= 4096, got " + walRollBytes);
    check(asyncSyncIntervalMillis >= 1, "asyncSyncIntervalMillis must be >= 1");
    check(compactionMinFiles >= 2, "compactionMinFiles must be >= 2");
    check(compactionMaxFiles >= compactionMinFiles, "compactionMaxFiles must be >= compactionMinFiles");
    check(compactionRatio > 0, "compactionRatio must be > 0");
    check(maxCellSizeBytes >= 1024, "maxCellSizeBytes must be >= 1024");
    check(backgroundThreads >= 1, "backgroundThreads must be >= 1");
    check(clock != null, "clock must be set");
    check(fileSystem != null, "fileSystem must be set");
    check(freezeIdleCells >= 0, "freezeIdleCells must be >= 0, got " + freezeIdleCells);
    check(regionSplitBytes >= 16 * 1024, "regionSplitBytes must be >= 16384, got "
        + regionSplitBytes);
    return this;
  }

  private static void check(boolean ok, String message) {
    if (!ok) {
      throw new InvalidArgumentException("invalid engine option: " + message);
    }
  }

  public EngineOptions withFlushSizeBytes(long v) {
    return new EngineOptions(v, Math.max(globalMemstoreLimitBytes, v), blockCacheBytes,
        walRollBytes, asyncSyncIntervalMillis, compactionMinFiles, compactionMaxFiles,
        compactionRatio, maxCellSizeBytes, backgroundThreads, clock, regionSplitBytes, fileSystem,
        freezeIdleCells);
  }

  public EngineOptions withGlobalMemstoreLimitBytes(long v) {
    return new EngineOptions(flushSizeBytes, v, blockCacheBytes, walRollBytes,
        asyncSyncIntervalMillis, compactionMinFiles, compactionMaxFiles, compactionRatio,
        maxCellSizeBytes, backgroundThreads, clock, regionSplitBytes, fileSystem,
        freezeIdleCells);
  }

  public EngineOptions withBlockCacheBytes(long v) {
    return new EngineOptions(flushSizeBytes, globalMemstoreLimitBytes, v, walRollBytes,
        asyncSyncIntervalMillis, compactionMinFiles, compactionMaxFiles, compactionRatio,
        maxCellSizeBytes, backgroundThreads, clock, regionSplitBytes, fileSystem,
        freezeIdleCells);
  }

  public EngineOptions withWalRollBytes(long v) {
    return new EngineOptions(flushSizeBytes, globalMemstoreLimitBytes, blockCacheBytes, v,
        asyncSyncIntervalMillis, compactionMinFiles, compactionMaxFiles, compactionRatio,
        maxCellSizeBytes, backgroundThreads, clock, regionSplitBytes, fileSystem,
        freezeIdleCells);
  }

  public EngineOptions withCompactionFiles(int min, int max) {
    return new EngineOptions(flushSizeBytes, globalMemstoreLimitBytes, blockCacheBytes,
        walRollBytes, asyncSyncIntervalMillis, min, max, compactionRatio, maxCellSizeBytes,
        backgroundThreads, clock, regionSplitBytes, fileSystem,
        freezeIdleCells);
  }

  public EngineOptions withMaxCellSizeBytes(int v) {
    return new EngineOptions(flushSizeBytes, globalMemstoreLimitBytes, blockCacheBytes,
        walRollBytes, asyncSyncIntervalMillis, compactionMinFiles, compactionMaxFiles,
        compactionRatio, v, backgroundThreads, clock, regionSplitBytes, fileSystem,
        freezeIdleCells);
  }

  public EngineOptions withRegionSplitBytes(long v) {
    return new EngineOptions(flushSizeBytes, globalMemstoreLimitBytes, blockCacheBytes,
        walRollBytes, asyncSyncIntervalMillis, compactionMinFiles, compactionMaxFiles,
        compactionRatio, maxCellSizeBytes, backgroundThreads, clock, v, fileSystem,
        freezeIdleCells);
  }

  public EngineOptions withClock(Clock v) {
    return new EngineOptions(flushSizeBytes, globalMemstoreLimitBytes, blockCacheBytes,
        walRollBytes, asyncSyncIntervalMillis, compactionMinFiles, compactionMaxFiles,
        compactionRatio, maxCellSizeBytes, backgroundThreads, v, regionSplitBytes, fileSystem,
        freezeIdleCells);
  }

  public EngineOptions withFileSystem(FileSystem v) {
    return new EngineOptions(flushSizeBytes, globalMemstoreLimitBytes, blockCacheBytes,
        walRollBytes, asyncSyncIntervalMillis, compactionMinFiles, compactionMaxFiles,
        compactionRatio, maxCellSizeBytes, backgroundThreads, clock, regionSplitBytes, v,
        freezeIdleCells);
  }

  public EngineOptions withFreezeIdleCells(int v) {
    return new EngineOptions(flushSizeBytes, globalMemstoreLimitBytes, blockCacheBytes,
        walRollBytes, asyncSyncIntervalMillis, compactionMinFiles, compactionMaxFiles,
        compactionRatio, maxCellSizeBytes, backgroundThreads, clock, regionSplitBytes, fileSystem,
        v);
  }
}
