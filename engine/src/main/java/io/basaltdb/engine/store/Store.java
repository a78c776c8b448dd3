package io.basaltdb.engine.store;

import io.basaltdb.storage.Cell;
import io.basaltdb.engine.Clock;
import io.basaltdb.storage.CorruptionException;
import io.basaltdb.storage.FamilyOptions;
import io.basaltdb.storage.StorageIOException;
import io.basaltdb.engine.cache.BlockCache;
import io.basaltdb.engine.cell.CellIterator;
import io.basaltdb.engine.io.FileSystem;
import io.basaltdb.engine.util.AtomicFiles;
import io.basaltdb.engine.manifest.Manifest;
import io.basaltdb.engine.memstore.MemStore;
import io.basaltdb.engine.read.CellResolver;
import io.basaltdb.engine.read.MergingIterator;
import io.basaltdb.engine.read.RetentionRules;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * One column family of one region: the active memstore, memstores being flushed, the live
 * block files and the manifest that records them.
 *
 * <p>Invariants: every cell with sequence id {@code <= manifest.flushedSeq} is in a live file;
 * the view's files are exactly the manifest's files. Locks: {@code this} guards {@code view} and
 * {@code manifest} (swaps are short); {@code flushLock} and {@code compactionLock} make at most
 * one flush and one compaction run at a time. Writers call {@link #add} without locks (the
 * region's update lock orders them against {@link #snapshot}). Its directory on disk (making
 * it, opening it whole, its leftovers) is {@link StoreDirectory}'s.
 */
public final class Store implements AutoCloseable {
  private final FileSystem fs;
  private final Path dir;
  private final byte[] family;
  private final String familyName;
  private volatile FamilyOptions options;
  private final Clock clock;
  private final StoreFileMaker maker;
  private final Object flushLock = new Object();
  private final Object compactionLock = new Object();
  private final StoreStats stats;

  private volatile StoreView view; // replaced under this; holds the store's own file references
  /** Set by {@link #close} before the view drops its files: no view is acquired after. */
  private volatile boolean closed;
  private Manifest manifest; // guarded by this

  /** Files found at open that the manifest does not name (deleted once the database is open). */
  private final List<Path> leftovers;

  private Store(FileSystem fs, Path dir, byte[] family, FamilyOptions options, BlockCache cache,
      Clock clock, Manifest manifest, List<StoreFile> files, List<Path> leftovers,
      StoreStats totals) {
    this.fs = fs;
    this.stats = new StoreStats(totals);
    this.leftovers = leftovers;
    this.dir = dir;
    this.family = family;
    this.familyName = new String(family, java.nio.charset.StandardCharsets.UTF_8);
    this.options = options;
    this.clock = clock;
    this.manifest = manifest;
    this.maker = new StoreFileMaker(fs, dir, family, cache, clock, manifest.nextFileNumber());
    this.view = new StoreView(new MemStore(), List.of(), files);
  }

  /**
   * Makes a new, empty store in {@code dir}: whatever the directory held (a leftover of a
   * dropped family or an interrupted creation) is removed, then the directory and an empty
   * manifest are made durable. A store exists from here on; its manifest is never absent.
   */
  public static void create(FileSystem fs, Path dir) {
    create(fs, dir, 0);
  }

  /**
   * As {@link #create(FileSystem, Path)}, the manifest saying everything up to
   * {@code flushedSeq} is flushed: a family added to a live region gets the database's current
   * sequence id, so a log replay never hands it the edits of a dropped family of that name.
   */
  public static void create(FileSystem fs, Path dir, long flushedSeq) {
    StoreDirectory.create(fs, dir, flushedSeq);
  }

  /**
   * Opens the existing store in {@code dir}: its manifest must be there and every file it
   * names present with its recorded size, else {@link CorruptionException}. Nothing is
   * deleted here: files the manifest does not name are {@link #deleteLeftovers() deleted}
   * only once the whole database has opened. Its flushes and compactions also count in
   * {@code totals} (the database's; null: none).
   */
  public static Store open(FileSystem fs, Path dir, byte[] family, FamilyOptions options,
      BlockCache cache, Clock clock, StoreStats totals) {
    StoreDirectory.Opened o = StoreDirectory.open(fs, dir, options, cache);
    try {
      return new Store(fs, dir, family, options, cache, clock, o.manifest(), o.files(),
          o.leftovers(), totals);
    } catch (RuntimeException e) {
      o.files().forEach(StoreFile::release);
      throw e;
    }
  }

  /**
   * Deletes the files found at open that the manifest does not name (an interrupted flush's
   * or compaction's output). Called once the database has opened completely.
   */
  public void deleteLeftovers() {
    StoreDirectory.deleteLeftovers(fs, dir, leftovers);
    leftovers.clear();
  }

  public byte[] family() {
    return family;
  }

  public String familyName() {
    return familyName;
  }

  public FamilyOptions options() {
    return options;
  }

  /** New settings apply to reads at once and to files written from now on. */
  public void setOptions(FamilyOptions o) {
    options = o;
    for (StoreFile f : filesSnapshot()) {
      f.reader().setCachePriority(o.inMemory());
    }
  }

  public Path directory() {
    return dir;
  }

  public StoreStats stats() {
    return stats;
  }

  /**
   * The manifest in force and its files, each retained until the result is closed: a consistent
   * pair for a copy of the store (a backup), whatever flushes and compactions do meanwhile.
   */
  public synchronized PinnedFiles pinFiles() {
    for (StoreFile f : view.files) {
      f.retain(); // live in the view: not yet released for good
    }
    return new PinnedFiles(manifest, view.files);
  }

  public synchronized long flushedSequenceId() {
    return manifest.flushedSeq();
  }

  /** Adds a stamped cell to the active memstore (as replayed: pruning nothing); its bytes. */
  public long add(Cell c) {
    return view.active.add(c); // the region's update lock keeps a swap from happening meanwhile
  }

  /**
   * Adds a stamped cell of a write in flight to the active memstore; in a family that keeps
   * one version, its column's versions no read can return go (see {@link MemStore#add(Cell,
   * LongSupplier)}: {@code settled} as there). Returns by how much the cells held changed.
   */
  public long add(Cell c, java.util.function.LongSupplier settled) {
    return view.active.add(c, options.maxVersions() == 1 ? settled : null);
  }

  /**
   * Takes back a cell of a failed write from whichever memstore holds it (see MemStore#remove);
   * returns by how much the cells held changed.
   */
  public synchronized long remove(Cell c) {
    long delta = view.active.remove(c);
    for (MemStore m : view.flushing) {
      delta += m.remove(c);
    }
    return delta;
  }

  /** Versions the active memstore has pruned (tests, stats). */
  public long memstorePrunedCells() {
    return view.active.prunedCells();
  }

  /** Bytes of the cells in all memstores of the store (what the memstore budget counts). */
  public long memstoreCellBytes() {
    return sumOverMemstores(MemStore::cellBytes);
  }

  /**
   * Bytes of the memstores taking writes or waiting for a flush: the active one and those
   * frozen ({@link MemStore#freeze}); what a flush is asked for at. Not a flush's memstore in
   * flight (a write during a flush would ask for another).
   */
  public long unflushedMemstoreBytes() {
    StoreView v = view;
    long total = v.active.heapSize();
    for (int i = 0; i < v.flushing.size(); i++) { // asked per write: no iterator
      MemStore m = v.flushing.get(i);
      if (m.isFrozen()) {
        total += m.heapSize();
      }
    }
    return total;
  }

  /** Bytes in all memstores of the store, including those being flushed. */
  public long memstoreBytes() {
    return sumOverMemstores(MemStore::heapSize);
  }

  private long sumOverMemstores(java.util.function.ToLongFunction<MemStore> size) {
    StoreView v = view;
    long total = size.applyAsLong(v.active);
    for (int i = 0; i < v.flushing.size(); i++) { // asked per write: no iterator
      total += size.applyAsLong(v.flushing.get(i));
    }
    return total;
  }

  /**
   * Cells in the store's files and memstores, counting every version and tombstone once per
   * copy (an estimate of its size in cells, for cost models).
   */
  public long cellCount() {
    StoreView v = view;
    long total = v.active.cellCount();
    for (MemStore m : v.flushing) {
      total += m.cellCount();
    }
    for (StoreFile f : filesSnapshot()) {
      total += f.info().cellCount();
    }
    return total;
  }

  /** Smallest sequence id not yet in a file, or Long.MAX_VALUE when all is flushed. */
  public synchronized long oldestUnflushedSequenceId() {
    long min = view.active.minSequenceId();
    for (MemStore m : view.flushing) {
      min = Math.min(min, m.minSequenceId());
    }
    return min;
  }

  // ---------------------------------------------------------------- flush

  /**
   * The memstores swapped out for flushing (the active one then, and those frozen before it:
   * everything the store held in memory), and the sequence id they are complete up to.
   */
  public record Snapshot(List<MemStore> memstores, long flushPoint) {
    /** Bytes of their cells, as the memstore budget was told. */
    public long cellBytes() {
      long total = 0;
      for (MemStore m : memstores) {
        total += m.cellBytes();
      }
      return total;
    }

    boolean isEmpty() {
      for (MemStore m : memstores) {
        if (!m.isEmpty()) {
          return false;
        }
      }
      return true;
    }
  }

  /**
   * Swaps the active memstore for an empty one. The caller holds the region's update lock
   * exclusively, so every write with sequence id {@code <= flushPoint} is in the snapshot, and
   * holds the region's flush lock, so the memstores already swapped out are ones a freeze swapped
   * out (a flush leaves none of its own: it writes them, or its failure stops the database).
   */
  public synchronized Snapshot snapshot(long flushPoint) {
    return new Snapshot(swapActive(), flushPoint);
  }

  /** Swaps the active memstore for an empty one; returns every swapped-out one, newest first. */
  private List<MemStore> swapActive() { // guarded by this
    List<MemStore> flushing = new ArrayList<>();
    flushing.add(view.active);
    flushing.addAll(view.flushing);
    view = new StoreView(new MemStore(), flushing, view.files);
    return List.copyOf(flushing);
  }

  /**
   * Swaps the active memstore, if it holds cells, for an empty one and keeps it in memory
   * among the memstores read (newest first), to be {@link MemStore#freeze frozen} once the
   * writes staged into it complete and written by the next flush, with the others. Under the
   * same locks as {@link #snapshot}. Returns it, or null when it held nothing.
   */
  public synchronized MemStore swapForFreezing() {
    if (view.active.isEmpty()) {
      return null;
    }
    return swapActive().get(0);
  }

  /** Memstores swapped out and not yet written (frozen ones, or a flush's in flight). */
  public int swappedOutMemstores() {
    return view.flushing.size();
  }

  /** Bytes of the active memstore. */
  public long activeMemstoreBytes() {
    return view.active.heapSize();
  }

  /** Cells in the active memstore. */
  public int activeCellCount() {
    return view.active.cellCount();
  }

  /**
   * Writes a snapshot's memstores, merged, to a new file and installs it; returns the new file
   * or null if they were empty.
   */
  public StoreFile flush(Snapshot snap, long smallestReadPoint) {
    synchronized (flushLock) {
      long start = System.nanoTime();
      StoreFile added = null;
      boolean empty = snap.isEmpty();
      if (!empty) {
        // resolved as a minor compaction resolves: versions no reader can see any more (past
        // the family's VERSIONS at the smallest read point, expired) are not written, so a row
        // rewritten many times between flushes is one version in the file, not hundreds
        List<CellIterator> its = new ArrayList<>(snap.memstores().size());
        for (MemStore m : snap.memstores()) {
          its.add(m.iterator());
        }
        try (CellIterator it = its.size() == 1 ? its.get(0) : new MergingIterator(its)) {
          it.seekToFirst();
          added = maker.write(new CellResolver(it, RetentionRules.of(options), clock.millis(),
              smallestReadPoint, CellResolver.Mode.MINOR, null), options);
        }
        fs.crashPoint("flush.afterFileWrite");
      }
      synchronized (this) {
        List<MemStore> flushing = new ArrayList<>(view.flushing);
        flushing.removeAll(snap.memstores());
        List<StoreFile> files = new ArrayList<>(view.files);
        if (added != null) {
          files.add(added);
        }
        StoreView next = new StoreView(view.active, flushing, files);
        if (empty) {
          view = next; // nothing of this store to replay: its manifest need not change (no fsync)
        } else { // (a flush whose cells had all expired writes no file, yet moves the point)
          install(next, Math.max(manifest.flushedSeq(), snap.flushPoint()));
        }
      }
      if (added != null) {
        stats.flushed(added.length(), System.nanoTime() - start);
      }
      return added;
    }
  }

  // guarded by this: writes the manifest for the new view and switches to it
  private void install(StoreView next, long flushedSeq) {
    List<Manifest.FileEntry> entries = new ArrayList<>();
    for (StoreFile f : next.files) {
      entries.add(new Manifest.FileEntry(f.name(), f.length()));
    }
    Manifest m = new Manifest(flushedSeq, maker.nextFileNumber(), entries);
    m.writeTo(fs, dir);
    manifest = m;
    view = next;
  }

  // ---------------------------------------------------------------- compaction

  public List<StoreFile> filesSnapshot() {
    synchronized (this) {
      return view.files;
    }
  }

  /**
   * Merges {@code inputs} (live files of this store) into one file and installs it in their
   * place. Major compactions must be given every live file. Cells above {@code smallestReadPoint}
   * are kept untouched for scanners that cannot see them yet.
   */
  public void compact(List<StoreFile> inputs, boolean major, long smallestReadPoint) {
    if (inputs.isEmpty()) {
      return;
    }
    synchronized (compactionLock) {
      long start = System.nanoTime();
      for (StoreFile f : inputs) {
        f.retain();
      }
      StoreFile output;
      long inputBytes = 0;
      try {
        List<CellIterator> its = new ArrayList<>();
        for (StoreFile f : inputs) {
          its.add(f.reader().scanner());
          inputBytes += f.length();
        }
        try (MergingIterator merged = new MergingIterator(its)) {
          merged.seekToFirst();
          CellResolver r = new CellResolver(merged, RetentionRules.of(options), clock.millis(),
              smallestReadPoint, major ? CellResolver.Mode.MAJOR : CellResolver.Mode.MINOR, null);
          output = maker.write(r, options);
        }
      } catch (StorageIOException e) {
        throw StorageIOException.wrap("compaction of " + dir + " failed; its files are unchanged",
            e);
      } finally {
        for (StoreFile f : inputs) {
          f.release();
        }
      }
      fs.crashPoint("compaction.afterFileWrite");
      synchronized (this) {
        List<StoreFile> files = new ArrayList<>(view.files);
        if (!files.containsAll(inputs)) {
          throw new IllegalStateException("compaction inputs are no longer live: " + inputs);
        }
        files.removeAll(inputs);
        if (output != null) {
          files.add(output);
        }
        try {
          install(new StoreView(view.active, view.flushing, files), manifest.flushedSeq());
        } catch (StorageIOException e) {
          if (output != null) {
            output.release();
            if (!(e instanceof AtomicFiles.InDoubt)) {
              maker.deleteUnnamed(dir.resolve(output.name())); // the old manifest is still the one
            } // else the new manifest may be the one after a power loss: keep its file
          }
          throw StorageIOException.wrap("compaction of " + dir + " failed; " + (e instanceof
              AtomicFiles.InDoubt ? "the old and new files are both kept until the next manifest"
              : "its files are unchanged"), e);
        }
      }
      fs.crashPoint("compaction.afterInstall");
      for (StoreFile f : inputs) {
        f.markCompactedAway();
        f.release();
      }
      stats.compacted(inputBytes, System.nanoTime() - start, major);
    }
  }

  // ---------------------------------------------------------------- split

  /**
   * Copies every cell of {@code files} with a row in {@code [start, end)} (empty end = no end),
   * unresolved, into one new file of the store directory {@code target} (a daughter region's,
   * already {@link #create created}), and records it in that directory's manifest with this
   * store's flushed sequence id.
   */
  public void copyRangeTo(List<StoreFile> files, Path target, byte[] start, byte[] end) {
    if (!files.isEmpty()) {
      maker.copyRange(files, target, start, end, options, flushedSequenceId());
    }
  }

  // ---------------------------------------------------------------- reads

  /** A view for a read; the caller must close it. */
  /**
   * A view for a read at {@code bound} or above (read before this call; the read's own point
   * is read after it): the active memstore prunes nothing it reads until the view closes.
   */
  public StoreView acquireView(long bound) {
    while (true) {
      StoreView v = view;
      if (closed) { // after the read of view: a view without the files is never handed out
        throw new io.basaltdb.storage.ClosedException("store " + dir);
      }
      int retained = 0;
      for (StoreFile f : v.files) {
        if (!f.tryRetain()) {
          break;
        }
        retained++;
      }
      if (retained == v.files.size()) {
        return new StoreView(v.active, v.flushing, v.files, bound);
      }
      for (int i = 0; i < retained; i++) {
        v.files.get(i).release(); // a file left the store meanwhile: take the new view
      }
    }
  }

  /**
   * The sources of a read over the view: memstores and the files that may hold cells in
   * {@code [startRow, stopRow)} ({@link ViewSources#sources}).
   */
  public List<CellIterator> sources(StoreView v, byte[] startRow, byte[] stopRow, byte[] getRow,
      java.util.NavigableSet<byte[]> qualifiers, long minTimestamp) {
    return sources(v, startRow, stopRow, getRow, null, qualifiers, minTimestamp);
  }

  /** As above, leaving out files whose bloom filter holds none of {@code onlyRows} (non-null). */
  public List<CellIterator> sources(StoreView v, byte[] startRow, byte[] stopRow, byte[] getRow,
      List<byte[]> onlyRows, java.util.NavigableSet<byte[]> qualifiers, long minTimestamp) {
    return sources(v, startRow, stopRow, getRow, onlyRows, qualifiers, minTimestamp, null);
  }

  /** As above, counting the files read and passed over into {@code m} (null: not counted). */
  public List<CellIterator> sources(StoreView v, byte[] startRow, byte[] stopRow, byte[] getRow,
      List<byte[]> onlyRows, java.util.NavigableSet<byte[]> qualifiers, long minTimestamp,
      io.basaltdb.storage.ScanMetrics m) {
    return ViewSources.sources(v, family, stats, startRow, stopRow, getRow, onlyRows,
        qualifiers, minTimestamp, m);
  }

  /**
   * The newest cell a read sees of each of {@code qualifiers} of this family in {@code row},
   * from the view's memstore through its row index ({@link MemStore#newestVisible}); -1 when
   * that cannot answer, or while a memstore is being flushed (two memstores to merge).
   */
  public int newestInMemstore(StoreView v, byte[] row, byte[][] qualifiers, long upTo,
      long[] hidden, io.basaltdb.storage.Cell[] into) {
    if (!v.flushing.isEmpty()) {
      return -1;
    }
    return v.active.newestVisible(row, family, qualifiers, upTo, hidden, into);
  }

  /** The memstores of the view holding {@code row}, at its first cell ({@link ViewSources}). */
  public List<CellIterator> memstoreSources(StoreView v, byte[] row) {
    return ViewSources.memstoreSources(v, family, row);
  }

  /**
   * The files a read of {@code row} takes from the view ({@link ViewSources#fileSources});
   * {@code stopRow} is the row followed by a zero byte.
   */
  public List<CellIterator> fileSources(StoreView v, byte[] row, byte[] stopRow,
      java.util.NavigableSet<byte[]> qualifiers, long minTimestamp,
      io.basaltdb.storage.ScanMetrics m) {
    return ViewSources.fileSources(v, stats, row, stopRow, row, null, qualifiers, minTimestamp,
        m);
  }

  /** See {@link ViewSources#filesOlderThan}. */
  public boolean filesOlderThan(StoreView v, byte[] row, long timestamp,
      io.basaltdb.storage.ScanMetrics m) {
    return ViewSources.filesOlderThan(v, row, timestamp, m);
  }

  /** See {@link ViewSources#writtenAfter}. */
  public boolean writtenAfter(StoreView v, byte[] startRow, byte[] stopRow, long point,
      long[] hidden) {
    return ViewSources.writtenAfter(v, family, startRow, stopRow, point, hidden);
  }

  /** The last row before {@code row} the view holds ({@link ViewSources#lastRowBefore}). */
  public byte[] lastRowBefore(StoreView v, byte[] row) {
    return ViewSources.lastRowBefore(v, family, row);
  }

  @Override
  public void close() {
    synchronized (flushLock) {
      synchronized (compactionLock) {
        synchronized (this) {
          closed = true; // before the view loses its files (acquireView reads them in turn)
          for (StoreFile f : view.files) {
            f.release();
          }
          view = new StoreView(view.active, view.flushing, List.of());
        }
      }
    }
  }

  @Override
  public String toString() {
    return "Store(" + dir + ")";
  }
}
