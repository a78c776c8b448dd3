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
import io.basaltdb.storage.TableDescriptor;
import io.basaltdb.storage.TableName;
import io.basaltdb.storage.TableNotFoundException;
import io.basaltdb.engine.cache.BlockCache;
import io.basaltdb.engine.catalog.CatalogFile;
import io.basaltdb.engine.io.FileSystem;
import io.basaltdb.engine.util.FileTrees;
import io.basaltdb.engine.region.DatabaseMvcc;
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
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * An open database directory: the lock that keeps other processes out, the catalog of
 * namespaces and tables, the one write-ahead log, the shared block cache, the memstore budget,
 * the background threads, and every enabled table's regions. Schema changes go through
 * {@link #admin()}, data through {@link #table}.
 *
 * <p>Layout: {@code LOCK}, {@code CATALOG} ({@code engine/doc/catalog-format.md}), {@code wal/}
 * (segments), {@code regions/<region id>/<family>/} (a store: {@code MANIFEST} and block files).
 *
 * <p>Opening reads the catalog, opens the regions of enabled tables, replays the WAL into their
 * memstores (edits of regions the catalog no longer names are skipped: their tables were
 * dropped, or disabled after a flush), then starts a fresh WAL segment. Thread-safe; schema
 * changes are serialised by {@link Admin}.
 */
public final class Database implements Storage {
  private static final long WAL_ROLL_AFTER_FLUSH_BYTES = 1 << 20;

  /** A table's live state: descriptor, enabled flag and open regions in row order. */
  static final class TableState {
    volatile TableDescriptor descriptor;
    /** The descriptor's family names as bytes, sorted (kept with the descriptor). */
    volatile Set<byte[]> familyBytes;
    volatile boolean enabled;
    volatile List<Region> regions;

    TableState(TableDescriptor descriptor, boolean enabled, List<Region> regions) {
      setDescriptor(descriptor);
      this.enabled = enabled;
      this.regions = List.copyOf(regions);
    }

    void setDescriptor(TableDescriptor d) {
      java.util.TreeSet<byte[]> f = new java.util.TreeSet<>(java.util.Arrays::compareUnsigned);
      for (String name : d.families().keySet()) {
        f.add(name.getBytes(StandardCharsets.UTF_8));
      }
      familyBytes = java.util.Collections.unmodifiableSet(f);
      descriptor = d;
    }
  }

  private final Path dir;
  private final FileSystem fs;
  private final boolean temporary;
  private final EngineOptions options;
  private final FileChannel lockChannel;
  private final FileLock lock;
  private final BlockCache cache;
  private final MemstoreBudget budget;
  private final BackgroundWork background;
  private final DatabaseMvcc order = new DatabaseMvcc();
  private final io.basaltdb.engine.region.ReadPins pins =
      new io.basaltdb.engine.region.ReadPins(order);
  private final AtomicLong splits = new AtomicLong();
  private final Map<TableName, TableState> tables = new ConcurrentHashMap<>();
  private final Map<String, Region> regionsByName = new ConcurrentHashMap<>();
  private final RegionContext ctx;
  private final Admin admin;
  private final Set<String> splitsInFlight = ConcurrentHashMap.newKeySet();
  private final Map<Class<?>, Object> extensions = new ConcurrentHashMap<>();
  private volatile CatalogFile catalog;
  private WalReader.ReplayStats replayStats;
  private long skippedReplayEdits;
  private volatile WriteAheadLog wal;
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
    this.ctx = new RegionContext(() -> wal, order, options, cache, budget, new Scheduler(),
        pins);
    this.admin = new LocalAdmin(this);
    try {
      recover();
    } catch (RuntimeException e) {
      regionsByName.values().forEach(Region::close);
      background.shutdownNow();
      if (wal != null) {
        wal.close();
      }
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

  /**
   * Opens what the directory holds. Nothing is deleted until everything has opened: a missing
   * or damaged catalog, manifest, store or log segment fails the open with a
   * {@link CorruptionException} and leaves every file as it was.
   */
  private void recover() {
    catalog = CatalogRecovery.read(fs, dir);
    Set<String> live = new HashSet<>();
    for (CatalogFile.TableEntry t : catalog.tables()) {
      List<Region> regions = new ArrayList<>();
      for (CatalogFile.RegionEntry re : t.regions()) {
        live.add(re.dirName());
        if (t.enabled()) {
          regions.add(openRegion(t.descriptor(), re));
        }
      }
      tables.put(t.descriptor().name(), new TableState(t.descriptor(), t.enabled(), regions));
    }
    long[] skipped = {0};
    Set<Region> replayed = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
    replayStats = WalReader.replay(fs, dir.resolve("wal"), edit -> {
      Region r = regionsByName.get(new String(edit.region(), StandardCharsets.UTF_8));
      if (r == null) {
        skipped[0]++;
      } else if (r.replay(edit) > 0) {
        replayed.add(r);
      }
    });
    skippedReplayEdits = skipped[0];
    order.raiseTo(replayStats.maxSequenceId());
    wal = new WriteAheadLog(fs, dir.resolve("wal"), options.walRollBytes(),
        options.asyncSyncIntervalMillis(), background.executor());
    wal.setRecoveredMaxSeq(order.newest());
    for (Region r : regionsByName.values()) {
      r.opened();
    }
    deleteLeftovers(live);
    flushReplayed(replayed);
  }

  /**
   * Flushes what the log gave back to memstores, then deletes the segments that held it (as
   * HBase does on opening a region with recovered edits): without it, a database opened and
   * closed or killed again and again below the flush size would keep every segment and replay
   * all of them at every open. A flush the disk refuses leaves the database read-only (the log
   * still holds the edits), as any failed flush does.
   */
  private void flushReplayed(Set<Region> replayed) {
    try {
      for (Region r : replayed) {
        r.flush();
      }
      deleteObsoleteWal();
    } catch (StorageIOException e) {
      System.err.println("basalt: flushing the edits replayed at open failed; the database"
          + " takes no writes until reopened: " + e.getMessage());
    }
  }

  /** After a complete open: what no catalog or manifest names goes (interrupted work). */
  private void deleteLeftovers(Set<String> live) {
    try {
      fs.deleteIfExists(dir.resolve(CatalogFile.NAME + ".tmp"));
      Path regionsDir = dir.resolve("regions");
      if (fs.isDirectory(regionsDir)) {
        for (Path p : fs.list(regionsDir)) {
          if (!live.contains(p.getFileName().toString())) {
            FileTrees.delete(fs, p);
          }
        }
      }
    } catch (IOException e) {
      throw StorageIOException.wrap("cannot delete leftovers in " + dir, e);
    }
    for (Region r : regionsByName.values()) {
      r.deleteLeftovers();
    }
  }

  // ------------------------------------------------------------ used by Admin and Table

  Region openRegion(TableDescriptor t, CatalogFile.RegionEntry re) {
    RegionDescriptor d = new RegionDescriptor(re.dirName(), re.startRow(), re.endRow(),
        t.families());
    Region r = Region.open(d, dir.resolve("regions").resolve(re.dirName()), ctx);
    // sequence ids go on from above everything the region holds: its data stays visible to
    // its read point, and new writes sort after it
    long maxSeq = 0;
    for (Store s : r.stores()) {
      maxSeq = Math.max(maxSeq, s.flushedSequenceId());
      for (var f : s.filesSnapshot()) {
        maxSeq = Math.max(maxSeq, f.info().maxSequenceId());
      }
    }
    order.raiseTo(maxSeq);
    regionsByName.put(re.dirName(), r);
    r.opened();
    return r;
  }

  void closeRegion(Region r) {
    r.close();
    regionsByName.remove(r.name());
  }

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

  Path regionDirectory(String name) {
    return dir.resolve("regions").resolve(name);
  }

  CatalogFile catalog() {
    return catalog;
  }

  void installCatalog(CatalogFile c) {
    c.writeTo(fs, dir);
    catalog = c;
  }

  FileSystem fileSystem() {
    return fs;
  }

  Map<TableName, TableState> tableStates() {
    return tables;
  }

  /** The live state of an existing table, or {@link TableNotFoundException}. */
  TableState state(TableName name) {
    checkOpen();
    TableState s = tables.get(name);
    if (s == null) {
      throw new TableNotFoundException("table " + name + " does not exist");
    }
    return s;
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
      if (closed || !new RegionSplit(this, parent).run()) {
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

  io.basaltdb.engine.region.ReadPins pins() {
    return pins;
  }

  io.basaltdb.engine.region.RegionContext context() {
    return ctx;
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
    return List.copyOf(regionsByName.values());
  }

  public WalReader.ReplayStats replayStats() {
    return replayStats;
  }

  public long skippedReplayEdits() {
    return skippedReplayEdits;
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
    return type.cast(extensions.computeIfAbsent(type, k -> create.get()));
  }

  /** The write-ahead log: the engine's own; the SQL layer syncs through {@link #sync()}. */
  WriteAheadLog wal() {
    return wal;
  }

  /** How many log segments are live (a diagnostic: they are deleted as memstores flush). */
  public int walSegmentCount() {
    return wal.segmentCount();
  }

  /** How many fsyncs the log has made (a diagnostic: group commit shares them between writers). */
  public long walSyncCount() {
    return wal.syncCount();
  }

  /**
   * Returns once everything written so far (ASYNC writes included) is in the log on stable
   * storage: what a SYNC statement that wrote through ASYNC batches waits for.
   */
  @Override
  public void sync() {
    WriteAheadLog w = wal;
    if (w != null) {
      w.syncAll();
    }
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
   * Deletes the log segments whose edits are all in files. The floor is read before the
   * regions: a write that begins later gets a sequence id at or above it, and one that began
   * earlier is still in flight or in a memstore when its region is read.
   */
  private void deleteObsoleteWal() {
    long oldest = order.newest() + 1;
    for (Region r : regionsByName.values()) {
      oldest = Math.min(oldest, r.oldestUnflushedSequenceId());
    }
    WriteAheadLog w = wal;
    if (w != null) {
      if (w.currentSegmentBytes() >= WAL_ROLL_AFTER_FLUSH_BYTES) {
        w.rollNow(); // its flushed edits can then go without waiting for the size-based roll
      }
      w.deleteObsoleteSegments(oldest);
    }
  }

  private void runInBackground(String what, boolean retriable, Runnable task) {
    background.run(what, retriable, () -> closed, task);
  }


  private final class Scheduler implements RegionContext.Scheduler {
    @Override
    public void requestFlush(Region r) {
      runInBackground("flush of " + r.name(), false, () -> {
        r.flush();
        if (budget.used() >= budget.limit()) {
          Region largest = null;
          for (Region x : regionsByName.values()) {
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
      runInBackground("compaction of " + r.name(), true, () -> r.compact(false));
    }

    @Override
    public void requestSplit(Region r) {
      if (splitsInFlight.add(r.name())) {
        runInBackground("split of " + r.name(), false, () -> {
          try {
            split(r);
          } finally {
            splitsInFlight.remove(r.name());
          }
        });
      }
    }

    @Override
    public void flushed(Region r) {
      deleteObsoleteWal();
    }

    @Override
    public Throwable failure() {
      return background.failure();
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
    for (Region r : regionsByName.values()) {
      r.blockWrites(); // no write is acknowledged after its region's last flush below
    }
    for (Region r : regionsByName.values()) {
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
    List<String> out = new ArrayList<>();
    for (Region r : regionsByName.values()) {
      out.add(r.stats().toString());
    }
    return out;
  }
}
