package io.basaltdb.engine;

import io.basaltdb.engine.cache.BlockCache;
import io.basaltdb.engine.region.MemstoreBudget;
import io.basaltdb.engine.region.Region;
import io.basaltdb.engine.region.RegionContext;
import io.basaltdb.engine.region.RegionDescriptor;
import io.basaltdb.engine.store.Store;
import io.basaltdb.engine.wal.WalReader;
import io.basaltdb.engine.wal.WriteAheadLog;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * An open database directory: the lock that keeps other processes out, the one write-ahead
 * log, the shared block cache, the memstore budget, the background threads, and its regions.
 *
 * <p>Layout: {@code LOCK}, {@code wal/} (segments), {@code regions/<region>/<family>/} (a
 * store: {@code MANIFEST} and block files).
 *
 * <p>Opening replays the WAL into the regions' memstores (edits of regions not given are
 * skipped and counted), then starts a fresh WAL segment. Thread-safe.
 */
public final class Database implements AutoCloseable {
  private static final long WAL_ROLL_AFTER_FLUSH_BYTES = 1 << 20;

  private final Path dir;
  private final EngineOptions options;
  private final FileChannel lockChannel;
  private final FileLock lock;
  private final BlockCache cache;
  private final MemstoreBudget budget;
  private final ScheduledThreadPoolExecutor background;
  private final AtomicLong sequence = new AtomicLong();
  private final Map<String, Region> regions = new LinkedHashMap<>();
  private final AtomicReference<Throwable> backgroundFailure = new AtomicReference<>();
  private final WalReader.ReplayStats replayStats;
  private final long skippedReplayEdits;
  private volatile WriteAheadLog wal;
  private volatile boolean closed;

  private Database(Path dir, EngineOptions options, List<RegionDescriptor> descriptors) {
    this.dir = dir;
    this.options = options;
    try {
      Files.createDirectories(dir);
      lockChannel = FileChannel.open(dir.resolve("LOCK"), StandardOpenOption.CREATE,
          StandardOpenOption.WRITE);
    } catch (IOException e) {
      throw StorageIOException.wrap("cannot open database directory " + dir, e);
    }
    FileLock l;
    try {
      l = lockChannel.tryLock();
    } catch (OverlappingFileLockException e) {
      l = null;
    } catch (IOException e) {
      closeQuietly();
      throw StorageIOException.wrap("cannot lock database directory " + dir, e);
    }
    if (l == null) {
      closeQuietly();
      throw new InvalidArgumentException("database directory " + dir
          + " is in use by another process (or another open Database in this one)");
    }
    this.lock = l;
    this.cache = new BlockCache(options.blockCacheBytes());
    this.budget = new MemstoreBudget(options.globalMemstoreLimitBytes());
    AtomicInteger threadNo = new AtomicInteger();
    this.background = new ScheduledThreadPoolExecutor(options.backgroundThreads(), r -> {
      Thread t = new Thread(r, "basalt-bg-" + threadNo.incrementAndGet());
      t.setDaemon(true);
      return t;
    });
    RegionContext ctx = new RegionContext(() -> wal, sequence, options, cache, budget,
        new Scheduler());
    try {
      long maxSeq = 0;
      for (RegionDescriptor d : descriptors) {
        if (regions.containsKey(d.name())) {
          throw new InvalidArgumentException("duplicate region name " + d.name());
        }
        Region r = Region.open(d, dir.resolve("regions").resolve(d.name()), ctx);
        regions.put(d.name(), r);
        for (Store s : r.stores()) {
          maxSeq = Math.max(maxSeq, s.flushedSequenceId());
          for (var f : s.filesSnapshot()) {
            maxSeq = Math.max(maxSeq, f.info().maxSequenceId());
          }
        }
      }
      long[] skipped = {0};
      Map<String, Region> byName = regions;
      replayStats = WalReader.replay(dir.resolve("wal"), edit -> {
        Region r = byName.get(new String(edit.region(), StandardCharsets.UTF_8));
        if (r == null) {
          skipped[0]++;
        } else {
          r.replay(edit);
        }
      });
      skippedReplayEdits = skipped[0];
      sequence.set(Math.max(maxSeq, replayStats.maxSequenceId()));
      wal = new WriteAheadLog(dir.resolve("wal"), options.walRollBytes(),
          options.asyncSyncIntervalMillis(), background);
      wal.setRecoveredMaxSeq(sequence.get());
      for (Region r : regions.values()) {
        r.opened();
      }
    } catch (RuntimeException e) {
      regions.values().forEach(Region::close);
      background.shutdownNow();
      if (wal != null) {
        wal.close();
      }
      closeQuietly();
      throw e;
    }
  }

  /** Opens (creating if absent) the database in {@code dir} with the given regions. */
  public static Database open(Path dir, EngineOptions options, List<RegionDescriptor> regions) {
    return new Database(dir, options.validate(), regions);
  }

  private void closeQuietly() {
    try {
      lockChannel.close();
    } catch (IOException ignored) {
      // already failing
    }
  }

  public Path directory() {
    return dir;
  }

  public EngineOptions options() {
    return options;
  }

  public Region region(String name) {
    Region r = regions.get(name);
    if (r == null) {
      throw new InvalidArgumentException("no region named " + name);
    }
    return r;
  }

  public Collection<Region> regions() {
    return List.copyOf(regions.values());
  }

  public WalReader.ReplayStats replayStats() {
    return replayStats;
  }

  public long skippedReplayEdits() {
    return skippedReplayEdits;
  }

  public BlockCache blockCache() {
    return cache;
  }

  public MemstoreBudget memstoreBudget() {
    return budget;
  }

  public WriteAheadLog wal() {
    return wal;
  }

  /** A failure of a background flush or compaction, or null. */
  public Throwable backgroundFailure() {
    return backgroundFailure.get();
  }

  public void flushAll() {
    for (Region r : regions.values()) {
      r.flush();
    }
  }

  public void compactAll(boolean major) {
    for (Region r : regions.values()) {
      r.compact(major);
    }
  }

  private void deleteObsoleteWal() {
    long oldest = Long.MAX_VALUE;
    for (Region r : regions.values()) {
      oldest = Math.min(oldest, r.oldestUnflushedSequenceId());
    }
    if (oldest == Long.MAX_VALUE) {
      oldest = sequence.get() + 1;
    }
    WriteAheadLog w = wal;
    if (w != null) {
      if (w.currentSegmentBytes() >= WAL_ROLL_AFTER_FLUSH_BYTES) {
        w.rollNow(); // its flushed edits can then go without waiting for the size-based roll
      }
      w.deleteObsoleteSegments(oldest);
    }
  }

  private void runInBackground(String what, Runnable task) {
    if (closed) {
      return;
    }
    try {
      background.execute(() -> {
        try {
          if (!closed) {
            task.run();
          }
        } catch (Throwable t) {
          if (!closed && backgroundFailure.compareAndSet(null, t)) {
            System.err.println("basalt: background " + what + " failed: " + t);
          }
        }
      });
    } catch (java.util.concurrent.RejectedExecutionException e) {
      // closing
    }
  }

  private final class Scheduler implements RegionContext.Scheduler {
    @Override
    public void requestFlush(Region r) {
      runInBackground("flush of " + r.name(), () -> {
        r.flush();
        if (budget.used() >= budget.limit()) {
          Region largest = null;
          for (Region x : regions.values()) {
            if (largest == null || x.memstoreBytes() > largest.memstoreBytes()) {
              largest = x;
            }
          }
          if (largest != null) {
            largest.flush();
          }
        }
      });
    }

    @Override
    public void requestCompaction(Region r) {
      runInBackground("compaction of " + r.name(), () -> r.compact(false));
    }

    @Override
    public void flushed(Region r) {
      deleteObsoleteWal();
    }

    @Override
    public Throwable failure() {
      return backgroundFailure.get();
    }
  }

  /**
   * Stops background work, flushes regions holding un-logged ({@code SKIP}) edits, syncs and
   * closes the WAL, closes the files and releases the directory.
   */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    background.shutdown();
    try {
      background.awaitTermination(10, TimeUnit.MINUTES);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    closed = true;
    RuntimeException first = null;
    for (Region r : regions.values()) {
      try {
        if (r.hasUnloggedEdits()) {
          r.flush();
        }
        r.close();
      } catch (RuntimeException e) {
        first = first == null ? e : first;
      }
    }
    try {
      wal.close();
    } catch (RuntimeException e) {
      first = first == null ? e : first;
    }
    try {
      lock.release();
      lockChannel.close();
    } catch (IOException e) {
      first = first == null ? StorageIOException.wrap("cannot release lock of " + dir, e) : first;
    }
    if (first != null) {
      throw first;
    }
  }

  public List<String> describe() {
    List<String> out = new ArrayList<>();
    for (Region r : regions.values()) {
      out.add(r.stats().toString());
    }
    return out;
  }
}
