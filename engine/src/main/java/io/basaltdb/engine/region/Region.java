package io.basaltdb.engine.region;

import io.basaltdb.storage.RegionStats;
import io.basaltdb.storage.Cell;
import io.basaltdb.storage.Durability;
import io.basaltdb.storage.FamilyOptions;
import io.basaltdb.storage.InvalidArgumentException;
import io.basaltdb.engine.io.FileSystem;
import io.basaltdb.engine.store.Store;
import io.basaltdb.engine.util.FileTrees;
import io.basaltdb.engine.wal.WalEdit;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Function;

/**
 * A contiguous row range {@code [startRow, endRow)} with one {@link Store} per family.
 *
 * <p>Writes go through {@link RegionWrites} (row locks; sequence id, log record and memstore
 * inserts under the update lock, shared; then the log sync and the MVCC completion), which
 * enters through this region's write gate ({@link #enterWrite}).
 *
 * <p>Locks: {@code updatesLock} is taken shared by writers and exclusively by a flush while it
 * swaps memstores, so a flush point splits writes cleanly ({@link ReadSnapshots} keeps readers
 * consistent across that swap); a split, disable or close blocks writes under it before its
 * last flush. {@code flushLock} lets one flush run at a time (flushes must install in snapshot
 * order).
 *
 * <p>What the write, read, flush, compaction and split paths share (the stores, the gate and
 * MVCC) is here; what can stand apart does: {@link RegionWrites}, {@link RegionReads} (gets and
 * scans), {@link MemstoreSwaps} (flushes and freezes), {@link MutationChecks},
 * {@link SplitPolicy}, {@link ReadSnapshots},
 * {@link RegionScanner}, {@link ReverseRegionScanner}, {@link Mvcc}.
 */
public final class Region implements AutoCloseable {
  private volatile RegionDescriptor descriptor;
  private final byte[] nameBytes;
  private final RegionContext ctx;
  /** Family name to store; replaced whole (copy on write) when a family is added or removed. */
  private volatile NavigableMap<byte[], Store> stores;
  private final Mvcc mvcc;
  private final ReentrantReadWriteLock updatesLock = new ReentrantReadWriteLock();
  private final ReadSnapshots snapshots = new ReadSnapshots();
  private final Path dir;
  private final ReentrantLock flushLock = new ReentrantLock();
  private final Object compactionLock = new Object();
  private final FlushRequests requests;
  private final AtomicBoolean unloggedEdits = new AtomicBoolean();
  private final RegionReads reads;
  private final RegionWrites writes;
  private final MemstoreSwaps swaps;
  private volatile boolean closed;
  private volatile boolean writesBlocked;

  private Region(RegionDescriptor descriptor, Path dir, RegionContext ctx) {
    this.descriptor = descriptor;
    this.nameBytes = descriptor.name().getBytes(StandardCharsets.UTF_8);
    this.ctx = ctx;
    this.requests = new FlushRequests(this, ctx);
    this.dir = dir;
    TreeMap<byte[], Store> opened = new TreeMap<>(Arrays::compareUnsigned);
    try {
      for (Map.Entry<String, FamilyOptions> f : descriptor.families().entrySet()) {
        byte[] fam = f.getKey().getBytes(StandardCharsets.UTF_8);
        opened.put(fam, Store.open(ctx.fs(), dir.resolve(f.getKey()), fam, f.getValue(),
            ctx.blockCache(), ctx.options().clock(), ctx.totals().stores));
      }
    } catch (RuntimeException e) {
      opened.values().forEach(Store::close);
      throw e;
    }
    this.stores = Collections.unmodifiableNavigableMap(opened);
    this.mvcc = new Mvcc(ctx.order());
    this.reads = new RegionReads(this, snapshots, mvcc, ctx);
    this.writes = new RegionWrites(this, ctx, mvcc, reads);
    this.swaps = new MemstoreSwaps(this, ctx, mvcc, snapshots, flushLock, updatesLock, requests,
        unloggedEdits);
  }

  /**
   * Opens the region's existing stores under {@code dir} (each must have its directory and
   * manifest); the caller replays the WAL, then {@link #opened}.
   */
  public static Region open(RegionDescriptor descriptor, Path dir, RegionContext ctx) {
    return new Region(descriptor, dir, ctx);
  }

  /**
   * Makes a new region's directory with an empty store per family, durably, replacing whatever
   * a leftover directory of that name held. Done before the catalog names the region.
   */
  public static void create(FileSystem fs, Path dir, Collection<String> families) {
    RegionDirectory.create(fs, dir, families);
  }

  /**
   * Deletes what the region's directory holds that its stores do not name: files of an
   * interrupted flush or compaction, directories of families dropped or never added. Called
   * once the whole database has opened.
   */
  public void deleteLeftovers() {
    RegionDirectory.deleteLeftovers(ctx.fs(), dir, stores.values(),
        descriptor.families().keySet());
  }

  public RegionDescriptor descriptor() {
    return descriptor;
  }

  public String name() {
    return descriptor.name();
  }

  /** The stores in family order (an immutable list, made once per set of stores). */
  public List<Store> stores() {
    NavigableMap<byte[], Store> now = stores;
    Listed l = listed;
    if (l == null || l.from() != now) {
      l = new Listed(now, List.copyOf(now.values()));
      listed = l; // racing makers make equal lists
    }
    return l.stores();
  }

  /** {@link #stores} as a list, with the map it was made from. */
  private record Listed(NavigableMap<byte[], Store> from, List<Store> stores) {}

  private volatile Listed listed;

  public Store store(String family) {
    return stores.get(family.getBytes(StandardCharsets.UTF_8));
  }

  /** Adds a family online: a new, empty store. */
  public void addFamily(String family, FamilyOptions options) {
    byte[] fam = family.getBytes(StandardCharsets.UTF_8);
    flushLock.lock();
    updatesLock.writeLock().lock();
    try {
      checkOpen();
      TreeMap<byte[], Store> next = new TreeMap<>(stores);
      next.put(fam, Store.open(ctx.fs(), dir.resolve(family), fam, options, ctx.blockCache(),
          ctx.options().clock(), ctx.totals().stores));
      LinkedHashMap<String, FamilyOptions> f = new LinkedHashMap<>(
          descriptor.families());
      f.put(family, options);
      setFamilies(next, f);
    } finally {
      updatesLock.writeLock().unlock();
      flushLock.unlock();
    }
  }

  // caller holds the update lock exclusively: no write or read sees half the change
  private void setFamilies(TreeMap<byte[], Store> next, Map<String, FamilyOptions> families) {
    stores = Collections.unmodifiableNavigableMap(next);
    descriptor = new RegionDescriptor(descriptor.name(), descriptor.startRow(),
        descriptor.endRow(), families);
  }

  /** Removes a family online: its store is closed and its files deleted. */
  public void removeFamily(String family) {
    byte[] fam = family.getBytes(StandardCharsets.UTF_8);
    Store removed;
    flushLock.lock();
    updatesLock.writeLock().lock();
    try {
      synchronized (compactionLock) {
        TreeMap<byte[], Store> next = new TreeMap<>(stores);
        removed = next.remove(fam);
        LinkedHashMap<String, FamilyOptions> f = new LinkedHashMap<>(
            descriptor.families());
        f.remove(family);
        setFamilies(next, f);
      }
    } finally {
      updatesLock.writeLock().unlock();
      flushLock.unlock();
    }
    if (removed != null) {
      ctx.budget().release(removed.memstoreCellBytes());
      removed.close();
      FileTrees.delete(ctx.fs(), removed.directory());
    }
  }

  // ------------------------------------------------------------------ recovery

  /** Applies a replayed WAL edit: cells beyond their store's flushed point go to memstores. */
  public long replay(WalEdit edit) {
    long applied = 0;
    for (Cell c : edit.cells()) {
      Store s = stores.get(c.family());
      if (s != null && c.sequenceId() > s.flushedSequenceId()) {
        ctx.budget().add(s.add(c));
        applied++;
      }
    }
    return applied;
  }

  /** After replay: readers see everything recovered. */
  public void opened() {
    mvcc.advanceTo(ctx.order().newest());
    writes.opened(ctx.order().newest());
  }

  // ------------------------------------------------------------------ writes

  /**
   * Applies cells to one row atomically. Cells with {@link Cell#LATEST_TIMESTAMP} get the
   * current time; a one-version delete at LATEST deletes the newest version. Returns the cells
   * as written (timestamps and sequence id assigned). The path is {@link RegionWrites}'.
   */
  public List<Cell> mutateRow(byte[] row, List<Cell> cells, Durability durability) {
    return writes.mutateRow(row, cells, durability);
  }

  /**
   * The read-modify-write primitive: under the row's lock, {@code fn} sees the row's current
   * cells (latest version of every column, all families) and returns the cells to write (empty
   * to write nothing). Increment, append and check-and-mutate are built on it.
   */
  public List<Cell> mutateRowWith(byte[] row, Durability durability,
      Function<List<Cell>, List<Cell>> fn) {
    return writes.mutateRowWith(row, durability, fn);
  }

  /** As {@link #mutateRowWith(byte[], Durability, Function)}, {@code fn} seeing only {@code read}. */
  public List<Cell> mutateRowWith(byte[] row, Durability durability, ReadSpec read,
      Function<List<Cell>, List<Cell>> fn) {
    return writes.mutateRowWith(row, durability, read, fn);
  }

  /**
   * Checks a row's cells as a write of them would (the region open, the row inside it, known
   * families, cell sizes) without writing or waiting for memory: a transaction's writes, kept
   * aside until it commits, are refused as the write itself would be. Returns each cell's
   * family as the region's store names it.
   */
  public List<byte[]> checkWrite(byte[] row, List<Cell> cells) {
    return writes.checkWrite(row, cells);
  }

  /** The write path (for writes spanning regions). */
  RegionWrites writes() {
    return writes;
  }

  /** Waits until memory allows a write (the database's budget, this region's memstore). */
  void awaitMemory() {
    ctx.budget().awaitRoom(requests::requestFlushOrFail);
    requests.waitIfTooBig(this::memstoreBytes, () -> closed);
  }

  /** A write skipped the log: the next flush must happen before the log is trimmed past it. */
  void markUnlogged() {
    unloggedEdits.set(true);
  }

  /** After a write: asks for a flush if a memstore grew past its size. */
  void maybeRequestFlush() {
    requests.maybeRequestFlush(stores());
  }

  /** The read side (for writes that read under a row's lock). */
  RegionReads reads() {
    return reads;
  }

  /**
   * Whether a write above sequence {@code point} touched {@code [startRow, stopRow)} (empty
   * stop: to the end; clipped to this region): a serializable transaction's reads checked at
   * its commit.
   */
  public boolean writtenAfter(byte[] startRow, byte[] stopRow, SnapshotCut cut) {
    checkOpen();
    return reads.writtenAfter(startRow, stopRow, cut);
  }

  /** Enters the write path (shared update lock), or RegionClosedException when closing. */
  void enterWrite() {
    updatesLock.readLock().lock();
    if (writesBlocked || closed) {
      updatesLock.readLock().unlock();
      throw new RegionClosedException("region " + name() + " (closing, splitting or disabled)");
    }
  }

  void exitWrite() {
    updatesLock.readLock().unlock();
  }

  Mvcc mvcc() {
    return mvcc;
  }

  byte[] nameBytes() {
    return nameBytes;
  }

  /** The store of a family, or a clear error naming it and the region's families. */
  Store storeOf(byte[] family) {
    List<Store> all = stores();
    Store s = null;
    for (int i = 0; s == null && i < all.size(); i++) { // a few stores; usually the same array
      if (Arrays.equals(all.get(i).family(), family)) {
        s = all.get(i);
      }
    }
    if (s == null) {
      throw new InvalidArgumentException("unknown column family '"
          + (family == null ? "null" : new String(family, StandardCharsets.UTF_8))
          + "' in region " + name() + "; families: " + descriptor.families().keySet());
    }
    return s;
  }

  // ------------------------------------------------------------------ reads

  /** The row's cells as {@code spec} asks; empty when the row has none. */
  public List<Cell> get(byte[] row, ReadSpec spec) {
    checkOpen();
    return reads.get(row, spec);
  }

  /**
   * Scans {@code [startRow, stopRow)} (clipped to the region; empty stop = region end). The
   * scanner must be closed.
   */
  public RegionScanner scan(ReadSpec spec, byte[] startRow, byte[] stopRow) {
    checkOpen();
    return reads.scan(spec, startRow, stopRow);
  }

  /**
   * Scans rows in descending order below {@code upperExclusive} (empty = the region's end) down
   * to {@code lowerInclusive} (clipped to the region). The scanner must be closed.
   */
  public RowScanner scanReversed(ReadSpec spec, byte[] upperExclusive, byte[] lowerInclusive) {
    checkOpen();
    return reads.scanReversed(spec, upperExclusive, lowerInclusive);
  }

  /**
   * The read point compactions resolve at. Readers take their read point after their store
   * views, so any reader that can see a compaction's output reads at this point or above;
   * readers holding older views keep reading the files they hold; a snapshot's pinned point
   * ({@link ReadPins}) lowers it.
   */
  public long smallestReadPoint() {
    return ctx.pins().compactionPoint(mvcc);
  }

  public long readPoint() {
    return mvcc.readPoint();
  }

  // ------------------------------------------------------------------ flush and compaction

  public long memstoreBytes() {
    return StoreTotals.memstoreBytes(stores());
  }

  /**
   * The smallest sequence id whose edit may be in the log but in no file: writes in flight
   * (which may have logged their edit but not yet reached a memstore) and memstore contents.
   * MVCC is read first: a write leaves it only after its memstore insert, so none slips
   * between the two reads.
   */
  public long oldestUnflushedSequenceId() {
    long inFlight = mvcc.oldestPending();
    return Math.min(inFlight, StoreTotals.oldestUnflushedSequenceId(stores.values()));
  }

  /** Run by a flush before it swaps the memstores out (tests: a write in that window). */
  volatile Runnable beforeFlushSwap;
  /** Flushes that swapped the memstores out (tests). */
  final AtomicLong flushesRun = new AtomicLong();

  /** Flushes every store's memstore to a new file; returns the number of files written. */
  public int flush() {
    return swaps.flush();
  }

  /** Freezes the active memstores of an idle region ({@link MemstoreSwaps#freezeIfIdle}). */
  public void freezeIfIdle(int minCells) {
    swaps.freezeIfIdle(minCells);
  }

  /**
   * Swaps each store's active memstore out to be read as sorted arrays until the next flush
   * ({@link MemstoreSwaps#freeze}); returns how many memstores were frozen.
   */
  public int freeze() {
    return swaps.freeze();
  }

  /** Asks for a flush in the background (one at a time: a request outstanding is not repeated). */
  public void requestFlush() {
    requests.requestFlush();
  }

  public boolean hasUnloggedEdits() {
    return unloggedEdits.get();
  }

  public boolean needsCompaction() {
    return StoreCompactions.needed(stores.values(), ctx.options());
  }

  /**
   * Compacts every store: a major compaction rewrites all of a store's files into one,
   * dropping what deletes, TTL and VERSIONS remove; a minor one merges what the policy picks.
   * Returns the number of stores compacted.
   */
  public int compact(boolean major) {
    synchronized (compactionLock) {
      requests.compactionStarting();
      return StoreCompactions.run(stores.values(), major, ctx.options(), () -> closed,
          this::smallestReadPoint);
    }
  }

  // ------------------------------------------------------------------ split

  /** Bytes in the region's store files. */
  public long fileBytes() {
    return StoreTotals.fileBytes(stores.values());
  }

  /**
   * A row near the middle of the region's data, or null when the region cannot be split there
   * ({@link SplitPolicy}).
   */
  public byte[] splitRow() {
    return SplitPolicy.splitRow(stores.values(), descriptor);
  }

  /**
   * Writes the region's data into two daughter directories split at {@code splitRow}, and
   * leaves the region refusing writes (with {@link RegionClosedException}) so that nothing can
   * reach it after its last flush. First a copy while writes go on, then, with writes blocked,
   * a final flush and a copy of what that flush wrote. Compactions of the region wait meanwhile.
   * On failure writes are allowed again and the daughters' directories are the caller's to delete.
   */
  public void splitInto(Path lowDir, Path highDir, byte[] splitRow) {
    flushLock.lock(); // lock order as in close(): flush lock, then compaction lock
    try {
      synchronized (compactionLock) {
        checkOpen();
        flush();
        Set<String> copied = new HashSet<>();
        SplitPolicy.copyToDaughters(stores.values(), descriptor, lowDir, highDir, splitRow,
            copied);
        writesBlocked = true;
        try {
          flush();
          SplitPolicy.copyToDaughters(stores.values(), descriptor, lowDir, highDir, splitRow,
              copied);
        } catch (RuntimeException e) {
          writesBlocked = false;
          throw e;
        }
      }
    } finally {
      flushLock.unlock();
    }
  }

  /**
   * Refuses writes from now on ({@link RegionClosedException}, which the table API retries
   * on the table's current regions) and returns once no write is in flight, so a flush after
   * this holds every write the region acknowledged.
   */
  public void blockWrites() {
    updatesLock.writeLock().lock();
    try {
      writesBlocked = true;
    } finally {
      updatesLock.writeLock().unlock();
    }
  }

  /**
   * Holds new writes back (they wait; none is refused) until {@link #releaseWrites} by the same
   * thread: a backup's cut takes every region's update lock this way, in region name order (the
   * order writes spanning regions take them), so no write stages meanwhile.
   */
  public void holdWrites() {
    updatesLock.writeLock().lock();
  }

  public void releaseWrites() {
    updatesLock.writeLock().unlock();
  }

  /** The region's directory (its stores' directories are under it, one per family). */
  public Path directory() {
    return dir;
  }

  /** After a failed split or disable: accept writes again. */
  public void unblockWrites() {
    writesBlocked = false;
  }

  // ------------------------------------------------------------------ lifecycle

  public RegionStats stats() {
    return StoreTotals.stats(name(), stores.values(), reads.count(), writes.count(),
        requests.blockedWrites());
  }

  boolean isClosed() {
    return closed;
  }

  boolean writesBlocked() {
    return writesBlocked;
  }

  void checkOpen() {
    if (closed) {
      throw new RegionClosedException("region " + name());
    }
  }

  /** Closes the stores; memstores are not flushed (the WAL holds their edits). */
  @Override
  public void close() {
    flushLock.lock();
    try {
      synchronized (compactionLock) {
        closed = true;
        stores.values().forEach(Store::close);
      }
    } finally {
      flushLock.unlock();
    }
  }
}
