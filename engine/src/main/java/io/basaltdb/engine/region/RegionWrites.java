package io.basaltdb.engine.region;

import io.basaltdb.storage.Cell;
import io.basaltdb.storage.CellType;
import io.basaltdb.storage.Durability;
import io.basaltdb.engine.store.Store;
import io.basaltdb.engine.wal.WalEdit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NavigableSet;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Lock;
import java.util.function.Function;

/**
 * A region's write path, with its row locks. A write of one row: the row's lock, then through
 * the region's write gate (the update lock, shared; closed while a flush swaps memstores, or
 * for good once the region blocks writes) a sequence id from MVCC, the log record and the
 * memstore inserts; then, the row's lock released, the log sync of a {@code SYNC} write and
 * the MVCC completion, after which readers see the whole mutation at once. A write whose sync
 * fails leaves the memstore before it completes, so no reader sees it and no flush keeps it.
 * The hooks below the single-row writes let {@link MultiRegionWrite} write rows of several
 * regions as one log record. The region owns the gate, the stores and MVCC; this class owns
 * nothing but the row locks and the count of writes. Thread-safe.
 */
final class RegionWrites {
  private final Region region;
  private final RegionContext ctx;
  private final Mvcc mvcc;
  private final RegionReads reads;
  private final RowLocks rowLocks = new RowLocks();
  private final AtomicLong count = new AtomicLong();
  /**
   * The point no pinned snapshot, write in flight or read point of the region is below: what
   * a memstore's pruning may treat as seen by every read but its own readers' (one object).
   */
  private final java.util.function.LongSupplier settled;

  RegionWrites(Region region, RegionContext ctx, Mvcc mvcc, RegionReads reads) {
    this.region = region;
    this.ctx = ctx;
    this.mvcc = mvcc;
    this.reads = reads;
    this.settled = region::smallestReadPoint;
  }

  /** Writes completed so far. */
  long count() {
    return count.get();
  }

  /**
   * Applies cells to one row atomically. Cells with {@link Cell#LATEST_TIMESTAMP} get the
   * current time; a one-version delete at LATEST deletes the newest version. Returns the cells
   * as written (timestamps and sequence id assigned).
   */
  List<Cell> mutateRow(byte[] row, List<Cell> cells, Durability durability) {
    return mutateRowWith(row, durability, current -> cells, (ReadSpec) null);
  }

  /**
   * The read-modify-write primitive: under the row's lock, {@code fn} sees the row's current
   * cells (latest version of every column, all families) and returns the cells to write (empty
   * to write nothing). Increment, append and check-and-mutate are built on it.
   */
  List<Cell> mutateRowWith(byte[] row, Durability durability,
      Function<List<Cell>, List<Cell>> fn) {
    return mutateRowWith(row, durability, ReadSpec.LATEST, fn);
  }

  /** As {@link #mutateRowWith(byte[], Durability, Function)}, {@code fn} seeing only {@code read}. */
  List<Cell> mutateRowWith(byte[] row, Durability durability, ReadSpec read,
      Function<List<Cell>, List<Cell>> fn) {
    return mutateRowWith(row, durability, fn, read);
  }

  /**
   * {@code read} null: nothing is read ({@code fn} sees no cells). The row lock covers the read,
   * {@code fn} and the staging of the write (sequence id, log record, memstore), not the log
   * sync: a later writer of the row may stage on top while this one syncs, so writes of one
   * row share an fsync too. That later writer reads the row {@linkplain RegionReads#getLocked including
   * staged writes}; it completes after them (MVCC order) and its sync covers their records.
   */
  private List<Cell> mutateRowWith(byte[] row, Durability durability,
      Function<List<Cell>, List<Cell>> fn, ReadSpec read) {
    region.checkOpen();
    MutationChecks.checkRow(region.descriptor(), row);
    region.awaitMemory();
    StagedWrite staged = null;
    long seenUpTo = -1;
    Lock lock = rowLocks.lockRow(row);
    try {
      List<Cell> current = read != null ? reads.getLocked(row, read) : List.of();
      List<Cell> cells = fn.apply(current);
      if (cells != null && !cells.isEmpty()) {
        validate(row, cells);
        staged = stage(row, cells, durability);
      } else {
        seenUpTo = mvcc.lastBegun(); // only a write that writes nothing waits for what it saw
      }
    } finally {
      lock.unlock();
    }
    if (staged == null) {
      // nothing to write, but the caller acts on what it saw (a failed check, say), which may
      // be a write still staged: return only once that is visible to every reader, and for
      // SYNC durable (it may be an ASYNC write, or a SYNC one whose sync then fails)
      if (durability == Durability.SYNC) {
        ctx.wal().syncAll();
      }
      mvcc.awaitReadPoint(seenUpTo);
      return List.of();
    }
    return complete(staged);
  }

  /** A write staged under its row lock: logged (not yet synced) and in the memstore. */
  private record StagedWrite(Mvcc.WriteEntry entry, List<Cell> cells, Durability durability,
      long walPosition) {}

  // row lock held
  private StagedWrite stage(byte[] row, List<Cell> cells, Durability durability) {
    long now = ctx.options().clock().millis();
    List<Cell> stamped;
    Mvcc.WriteEntry entry = null;
    long walPosition = -1;
    // checked under the update lock: a split's, disable's or close's final flush takes it
    // exclusively after blocking writes, so no write can land after that flush
    region.enterWrite();
    try {
      entry = mvcc.begin();
      long seq = entry.sequenceId();
      stamped = stamp(row, cells, seq, now);
      if (durability != Durability.SKIP) {
        walPosition = ctx.wal().append(new WalEdit(seq, region.nameBytes(), stamped));
        ctx.fs().crashPoint("write.afterLog");
      } else {
        ctx.wal().checkWritable();
        region.markUnlogged();
      }
      addToMemstores(stamped);
    } catch (RuntimeException e) {
      if (entry != null) {
        mvcc.complete(entry);
      }
      throw e;
    } finally {
      region.exitWrite();
    }
    return new StagedWrite(entry, stamped, durability, walPosition);
  }

  // row lock released
  private List<Cell> complete(StagedWrite w) {
    if (w.durability == Durability.SYNC) {
      try {
        ctx.wal().sync(w.walPosition);
      } catch (RuntimeException e) {
        // its writer is told it failed, so no reader may ever see it and no flush may keep it:
        // the cells leave the memstore before the write completes (the log is now poisoned,
        // so no flush can run meanwhile: a flush syncs the log first, and any write staged on
        // top of this one fails its own sync the same way)
        removeFromMemstores(w.cells);
        mvcc.complete(w.entry);
        throw e;
      }
    }
    mvcc.completeAndWait(w.entry);
    written(1);
    return w.cells;
  }

  // ---------------------------------------------- hooks of a write spanning regions

  /** The cells as written: timestamps given (now, or a delete's newest version), {@code seq}. */
  List<Cell> stamp(byte[] row, List<Cell> cells, long seq, long now) {
    rowLocks.wrote(row, seq);
    List<Cell> stamped = new ArrayList<>(cells.size());
    for (int i = 0; i < cells.size(); i++) { // per row of a load: no iterator
      Cell c = cells.get(i);
      long ts = c.timestamp();
      if (ts == Cell.LATEST_TIMESTAMP) {
        ts = c.type() == CellType.DELETE ? newestVersionTs(row, c, now) : now;
      }
      stamped.add(new Cell(row, storeFor(c).family(), c.qualifier(), ts, c.type(), seq,
          c.value()));
    }
    return stamped;
  }

  void addToMemstores(List<Cell> stamped) {
    long bytes = 0;
    for (Cell c : stamped) {
      bytes += region.storeOf(c.family()).add(c, settled);
    }
    ctx.budget().add(bytes);
  }

  /** A staged write failed: its cells leave the memstores (see {@link #complete}). */
  void removeFromMemstores(List<Cell> stamped) {
    long bytes = 0;
    for (Cell c : stamped) {
      bytes += region.storeOf(c.family()).remove(c);
    }
    ctx.budget().add(bytes);
  }

  /** Checks a row's cells and waits for memory, as a single-row write does first. */
  void admit(byte[] row, List<Cell> cells) {
    region.checkOpen();
    MutationChecks.checkRow(region.descriptor(), row);
    validate(row, cells);
    region.awaitMemory();
  }

  Lock lockRow(byte[] row) {
    return rowLocks.lockRow(row);
  }

  /** The region opened (replayed): no row of it holds a sequence id above {@code newest}. */
  void opened(long newest) {
    rowLocks.opened(newest);
  }

  /** Whether {@code row} (locked) surely holds no write {@code cut} does not see. */
  boolean unwrittenSince(byte[] row, SnapshotCut cut) {
    return rowLocks.unwrittenSince(row, cut);
  }


  /**
   * Checks a row's cells as a write of them would (the region open, the row inside it, known
   * families, cell sizes) without writing or waiting for memory: a transaction's writes, kept
   * aside until it commits, are refused as the write itself would be. Returns each cell's
   * family as the region's store names it.
   */
  List<byte[]> checkWrite(byte[] row, List<Cell> cells) {
    region.checkOpen();
    MutationChecks.checkRow(region.descriptor(), row);
    List<byte[]> families = new ArrayList<>(cells.size());
    for (Cell c : cells) {
      families.add(storeFor(c).family());
    }
    MutationChecks.checkCells(row, cells, ctx.options().maxCellSizeBytes());
    return families;
  }

  /** The row's latest cells, staged writes included; the row's lock is held. */
  List<Cell> readLocked(byte[] row) {
    return reads.getLocked(row, ReadSpec.LATEST);
  }


  /** A write of this region completed. */
  /** A write of {@code rows} rows of this region completed. */
  void written(int rows) {
    count.incrementAndGet();
    ctx.totals().writes.add(rows);
    region.maybeRequestFlush();
  }

  /** The newest visible version's timestamp of a column, or now if it has none. */
  private long newestVersionTs(byte[] row, Cell c, long now) {
    Store s = storeFor(c);
    NavigableSet<byte[]> q = io.basaltdb.engine.read.ColumnQuery.qualifierSet();
    q.add(c.qualifier());
    for (Cell x : reads.getLocked(row, new ReadSpec(Map.of(s.family(), q), 0, Long.MAX_VALUE,
        1))) {
      return x.timestamp();
    }
    return now;
  }

  private Store storeFor(Cell c) {
    return region.storeOf(c.family());
  }


  private void validate(byte[] row, List<Cell> cells) {
    for (int i = 0; i < cells.size(); i++) { // per row of a load: no iterator
      storeFor(cells.get(i));
    }
    MutationChecks.checkCells(row, cells, ctx.options().maxCellSizeBytes());
  }
}
