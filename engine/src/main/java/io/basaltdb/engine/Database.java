package io.basaltdb.engine;

import io.basaltdb.storage.Admin;
import io.basaltdb.storage.ClosedException;
import io.basaltdb.storage.Durability;
import io.basaltdb.storage.InvalidArgumentException;
import io.basaltdb.storage.ReadSnapshot;
import io.basaltdb.storage.Result;
import io.basaltdb.storage.RowChange;
import io.basaltdb.storage.Storage;
import io.basaltdb.storage.StorageIOException;
import io.basaltdb.storage.StorageTransaction;
import io.basaltdb.storage.Table;
import io.basaltdb.storage.TableName;
import io.basaltdb.storage.TableNotFoundException;
import io.basaltdb.engine.backup.BackupOptions;
import io.basaltdb.engine.backup.BackupWriter;
import io.basaltdb.engine.cache.BlockCache;
import io.basaltdb.engine.io.FileSystem;
import io.basaltdb.engine.util.FileTrees;
import io.basaltdb.engine.region.DatabaseMvcc;
import io.basaltdb.engine.region.MemstoreBudget;
import io.basaltdb.engine.region.ReadPins;
import io.basaltdb.engine.region.Region;
import io.basaltdb.engine.region.RegionContext;
import io.basaltdb.engine.wal.WalReader;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * An open database directory: the lock that keeps other processes out, the shared block cache,
 * the memstore budget, the background threads, and the {@link Storage} API over them. What it
 * holds is in its parts: the catalog, tables and regions ({@link TableRegistry}), the one
 * write-ahead log and its retention ({@link DatabaseLog}), opening ({@link DatabaseRecovery}),
 * and the flushes, compactions and splits regions ask for ({@link RegionScheduler}). Schema
 * changes go through {@link #admin()}, data through {@link #table}.
 *
 * <p>Layout: {@code LOCK}, {@code CATALOG} ({@code engine/doc/catalog-format.md}), {@code wal/}
 * (segments), {@code regions/<region id>/<family>/} (a store: {@code MANIFEST} and block files).
 *
 * <p>Invariant: while open, this process alone holds the directory's lock; once closed, no
 * write is acknowledged and no background task runs. Thread-safe; schema changes and splits are
 * serialised by {@link Admin}.
 */
public final class Database implements Storage {
  private final Path dir;
  private final FileSystem fs;
  private final boolean temporary;
  private final EngineOptions options;
  private final FileChannel lockChannel;
  private final FileLock lock;
  private final BlockCache cache;
  private final MemstoreBudget budget;
  private final BackgroundWork background;
  /** How often the log's size is held against its bound ({@link #enforceLogRetention}). */
  private static final long LOG_RETENTION_CHECK_MILLIS = 1_000;
  /** How often regions are looked at for idle memstores to freeze. */
  private static final long FREEZE_CHECK_MILLIS = 1_000;

  private final DatabaseMvcc order = new DatabaseMvcc();
  private final ReadPins pins = new ReadPins(order);
  private final io.basaltdb.engine.region.EngineTotals totals =
      new io.basaltdb.engine.region.EngineTotals();
  private final AtomicLong splits = new AtomicLong();
  private final TableRegistry registry;
  private final DatabaseLog log;
  private final RegionContext ctx;
  private final Admin admin;
  private final Map<Class<?>, Object> extensions = new ConcurrentHashMap<>();
  private final DatabaseRecovery.Replayed replayed;
  private volatile boolean closed;

  private Database(Path dir, EngineOptions options, boolean temporary) {
    this.dir = dir;
    this.temporary = temporary;
    this.options = options;
    this.fs = options.fileSystem();
    try {
      fs.createDirectories(dir);
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
      closeLockQuietly();
      throw StorageIOException.wrap("cannot lock database directory " + dir, e);
    }
    if (l == null) {
      closeLockQuietly();
      throw new InvalidArgumentException("database directory " + dir
          + " is in use by another process (or another open Database in this one)");
    }
    this.lock = l;
    this.cache = new BlockCache(options.blockCacheBytes());
    this.budget = new MemstoreBudget(options.globalMemstoreLimitBytes());
    this.background = new BackgroundWork(options.backgroundThreads());
    this.registry = new TableRegistry(fs, dir, order);
    this.log = new DatabaseLog(order, registry);
    this.ctx = new RegionContext(log::current, order, options, cache, budget,
        new RegionScheduler(background, budget, registry, log, this::split, () -> closed),
        pins, totals);
    registry.setContext(ctx);
    this.admin = new LocalAdmin(this, registry);
    try {
      replayed = new DatabaseRecovery(dir, options, order, registry, log)
          .run(background.executor());
      background.executor().scheduleWithFixedDelay(this::enforceLogRetention,
          LOG_RETENTION_CHECK_MILLIS, LOG_RETENTION_CHECK_MILLIS, TimeUnit.MILLISECONDS);
      if (options.freezeIdleCells() > 0) {
        background.executor().scheduleWithFixedDelay(this::freezeIdleMemstores,
            FREEZE_CHECK_MILLIS, FREEZE_CHECK_MILLIS, TimeUnit.MILLISECONDS);
      }
    } catch (RuntimeException e) {
      registry.openRegions().forEach(Region::close);
      background.shutdownNow();
      log.close();
      closeLockQuietly();
      throw e;
    }
  }

  /** Opens (creating if absent) the database in {@code dir}. */
  public static Database open(Path dir, EngineOptions options) {
    return new Database(dir, options.validate(), false);
  }

  /**
   * A database in a fresh temporary directory, deleted when closed: the same code paths as a
   * directory database, for tests and {@code jdbc:basalt:mem:}.
   */
  public static Database openTemporary(EngineOptions options) {
    try {
      return new Database(Files.createTempDirectory("basalt-mem-"), options.validate(), true);
    } catch (IOException e) {
      throw StorageIOException.wrap("cannot create a temporary database directory", e);
    }
  }

  // ------------------------------------------------------------ used by Admin and Table

  /** See {@link AtomicWrites#apply}. */
  @Override
  public void mutateAtomically(List<RowChange> changes) {
    checkOpen();
    AtomicWrites.apply(this, changes, ctx);
  }

  /** See {@link AtomicWrites#applyAfterRead}. */
  @Override
  public void mutateAfterRead(Table table, byte[] row, Durability durability,
      java.util.function.Function<Result, List<RowChange>> plan) {
    checkOpen();
    AtomicWrites.applyAfterRead(this, table, row, durability, plan, ctx);
  }

  /** The newest sequence id given to a write (every later write gets a higher one). */
  long currentSequenceId() {
    return order.newest();
  }

  /** The tables and regions (the admin and splits change them, under the admin lock). */
  TableRegistry registry() {
    return registry;
  }

  /** The live state of an existing table, or {@link TableNotFoundException}. */
  TableState state(TableName name) {
    checkOpen();
    return registry.state(name);
  }

  void checkOpen() {
    if (closed) {
      throw new ClosedException("database " + dir);
    }
  }

  // ------------------------------------------------------------ splits

  /**
   * Splits a region in two at a row near the middle of its data ({@link RegionSplit}, under
   * the admin lock, as every catalog change); false when the region cannot be split now.
   */
  boolean split(Region parent) {
    synchronized (admin) {
      if (closed || !new RegionSplit(registry, parent).run()) {
        return false;
      }
      splits.incrementAndGet();
      return true;
    }
  }

  /** Splits done since open. */
  public long splitCount() {
    return splits.get();
  }

  // ------------------------------------------------------------ public API

  @Override
  public ReadSnapshot snapshot() {
    return pinnedSnapshot();
  }

  /** A new cut of the database, pinned (a transaction's, whose reads need the cut itself). */
  PinnedSnapshot pinnedSnapshot() {
    checkOpen();
    return new PinnedSnapshot(pins);
  }

  /**
   * A transaction over this database: reads at a snapshot plus its own writes, writes kept
   * until {@link Transaction#commit} applies them as one ({@link Transaction}).
   */
  @Override
  public Transaction begin(StorageTransaction.Isolation isolation) {
    checkOpen();
    return new Transaction(this, isolation);
  }

  @Override
  public boolean keepsTransactions() {
    return true;
  }

  /** Held while a serializable transaction validates its reads and applies its writes. */
  private final Object serializableCommits = new Object();

  Object serializableCommits() {
    return serializableCommits;
  }

  ReadPins pins() {
    return pins;
  }

  RegionContext context() {
    return ctx;
  }

  /**
   * Copies this database into {@code dest} (new or empty) while writers go on: every write
   * acknowledged before the backup's cut is in the copy, none begun after it
   * ({@link DatabaseBackup}, {@code engine/doc/backup.md}). Block files are hard-linked when
   * {@code dest} is on the same file system (unless {@link BackupOptions#copyOnly}), else
   * copied; the copy's {@code BACKUP} manifest, written last, lists every file with its size
   * and CRC32C.
   */
  public BackupWriter.Report backup(Path dest, BackupOptions backupOptions) {
    checkOpen();
    return DatabaseBackup.run(this, dest, backupOptions);
  }

  @Override
  public io.basaltdb.storage.BackupReport backup(Path dest, Path previous, boolean copyOnly) {
    BackupWriter.Report r = backup(dest, BackupOptions.defaults().withPrevious(previous)
        .withCopyOnly(copyOnly));
    return new io.basaltdb.storage.BackupReport(dest.toString(), r.manifest().cutSequence(),
        r.manifest().files().size(), r.manifest().totalBytes(), r.linked(), r.reused(),
        r.copied(), r.copiedBytes(), r.writesHeldMicros(), r.millis());
  }

  /** The lock schema changes and splits are made under (a backup holds it from cut to end). */
  Object adminLock() {
    return admin;
  }

  /** What this database has done and holds now, read live ({@link DatabaseStats}). */
  public DatabaseStats stats() {
    return new DatabaseStats(this, totals);
  }

  /** Flushes, compactions and splits queued or running now. */
  long backgroundTasks() {
    return background.pending();
  }

  /** Snapshots not yet closed. */
  public int openSnapshots() {
    return pins.count();
  }

  @Override
  public String location() {
    return dir.toString();
  }

  /** True: rows of several tables and regions are written as one (one log record). */
  @Override
  public boolean atomicAcrossRows() {
    return true;
  }

  public Path directory() {
    return dir;
  }

  public EngineOptions options() {
    return options;
  }

  @Override
  public Admin admin() {
    checkOpen();
    return admin;
  }

  /** A handle on an existing table (cheap; handles may be kept and shared by threads). */
  @Override
  public Table table(TableName name) {
    state(name);
    return new LocalTable(this, name, null);
  }

  /** The open regions of a table, in row order (empty when disabled). */
  public List<Region> regions(TableName name) {
    return state(name).regions;
  }

  public Collection<Region> allRegions() {
    return List.copyOf(registry.openRegions());
  }

  public WalReader.ReplayStats replayStats() {
    return replayed.stats();
  }

  public long skippedReplayEdits() {
    return replayed.skippedEdits();
  }

  /** The shared block cache: the engine's own (tests read its counters). */
  BlockCache blockCache() {
    return cache;
  }

  /** How many block lookups the block cache has served, hits and misses (a diagnostic). */
  public long blockCacheRequests() {
    return cache.stats().requestCount();
  }

  public MemstoreBudget memstoreBudget() {
    return budget;
  }

  @Override
  public <T> T extension(Class<T> type, java.util.function.Supplier<? extends T> create) {
    Object kept = extensions.get(type); // a lookup first: no function made per call
    return type.cast(kept != null ? kept : extensions.computeIfAbsent(type, k -> create.get()));
  }

  /** How many log segments are live (a diagnostic: they are deleted as memstores flush). */
  public int walSegmentCount() {
    return log.segmentCount();
  }

  /** How many fsyncs the log has made (a diagnostic: group commit shares them between writers). */
  public long walSyncCount() {
    return log.syncCount();
  }

  /**
   * Returns once everything written so far (ASYNC writes included) is in the log on stable
   * storage: what a SYNC statement that wrote through ASYNC batches waits for.
   */
  @Override
  public void sync() {
    log.sync();
  }

  /** A failure of a background flush or compaction, or null. */
  public Throwable backgroundFailure() {
    return background.failure();
  }

  /**
   * Waits until no flush, compaction or split is queued or running, at most
   * {@code timeoutMillis}; true if none is. For benchmarks and tools that measure a settled
   * database; writes go on meanwhile and may queue more.
   */
  public boolean awaitBackgroundWork(long timeoutMillis) throws InterruptedException {
    return background.awaitIdle(timeoutMillis);
  }

  /**
   * Freezes the memstores of regions that began no write since the last look ({@link
   * Region#freezeIfIdle}). Runs in the background every second.
   */
  private void freezeIdleMemstores() {
    if (closed) {
      return;
    }
    for (Region r : registry.openRegions()) {
      try {
        r.freezeIfIdle(options.freezeIdleCells());
      } catch (RuntimeException e) {
        // a region closing meanwhile: it flushes what it holds
      }
    }
  }

  /**
   * Keeps the log's closed segments near the global memstore limit (what a replay at the next
   * open may have to put back in memory) by flushing the regions that hold their oldest edits
   * ({@link DatabaseLog#enforceRetention}). Runs in the background every second.
   */
  private void enforceLogRetention() {
    if (closed) {
      return;
    }
    try {
      log.enforceRetention(options.globalMemstoreLimitBytes());
    } catch (RuntimeException e) {
      // a region closing meanwhile, or a failed log: a flush asked for reports its own failure
    }
  }

  /**
   * Stops background work, flushes regions holding un-logged ({@code SKIP}) edits, syncs and
   * closes the WAL, closes the files and releases the directory (deleting it if temporary).
   */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    background.shutdownAndWait();
    closed = true;
    Storage.closeExtensions(extensions.values());
    RuntimeException first = null;
    for (Region r : registry.openRegions()) {
      r.blockWrites(); // no write is acknowledged after its region's last flush below
    }
    for (Region r : registry.openRegions()) {
      try {
        if (r.hasUnloggedEdits() && !temporary) {
          r.flush();
        }
        r.close();
      } catch (RuntimeException e) {
        first = first == null ? e : first;
      }
    }
    try {
      log.close();
    } catch (RuntimeException e) {
      first = first == null ? e : first;
    }
    try {
      lock.release();
      lockChannel.close();
    } catch (IOException e) {
      first = first == null ? StorageIOException.wrap("cannot release lock of " + dir, e) : first;
    }
    if (temporary) {
      try {
        FileTrees.delete(fs, dir);
      } catch (RuntimeException e) {
        first = first == null ? e : first;
      }
    }
    if (first != null) {
      throw first;
    }
  }

  private void closeLockQuietly() {
    try {
      lockChannel.close();
    } catch (IOException ignored) {
      // already failing
    }
  }

  public List<String> describe() {
    return registry.describe();
  }
}
