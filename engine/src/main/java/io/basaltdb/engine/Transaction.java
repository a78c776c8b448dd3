package io.basaltdb.engine;

import io.basaltdb.storage.Admin;
import io.basaltdb.storage.Cell;
import io.basaltdb.storage.CellType;
import io.basaltdb.storage.Durability;
import io.basaltdb.storage.InvalidArgumentException;
import io.basaltdb.storage.ReadSnapshot;
import io.basaltdb.storage.Result;
import io.basaltdb.storage.RowChange;
import io.basaltdb.storage.Table;
import io.basaltdb.storage.TableName;
import io.basaltdb.storage.WriteConflictException;
import io.basaltdb.engine.read.CellResolver;
import io.basaltdb.engine.region.ReadSpec;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * A transaction over an embedded {@link Database} ({@link Database#begin}), seen as a {@link
 * Storage}: its tables read one snapshot of the database plus the transaction's own writes, and
 * their writes stay in the transaction until {@link #commit} applies them all as one logged
 * write (a crash keeps all or none), or {@link #rollback} drops them. Design:
 * sql-planner/doc/transactions.md.
 *
 * <p><b>Own writes.</b> Each write is checked as the table would check it (row, families, cell
 * sizes), stamped (timestamps resolved now; a sequence id of its own, from {@link
 * CellResolver#OWN_WRITES} up, so every own cell is newer than every committed one) and kept in
 * a private memstore per table and family. Reads merge those memstores into the region scans
 * ({@link io.basaltdb.engine.region.ReadOverlay}), so the engine's own rules (versions, deletes, TTL, filters, columns,
 * time ranges) resolve committed and own cells together on every read path. A read given a
 * snapshot from {@link #snapshot()} sees the own writes made before that snapshot was taken
 * (a statement never sees its own writes while it reads: no Halloween problem); a read-modify-
 * write (increment, check-and-mutate, {@link #mutateAfterRead}) sees all of them.
 *
 * <p><b>Isolation.</b> {@link Isolation#SNAPSHOT}: one snapshot for the whole transaction,
 * taken at {@link Database#begin}. {@link Isolation#READ_COMMITTED}: a new one at each
 * {@link #nextStatement()}. Either way a row the transaction writes must not have
 * been written by anyone else after the snapshot the transaction had when it first wrote it:
 * else the commit fails ({@link WriteConflictException}) and applies nothing (first committer
 * wins; no lost update).
 *
 * <p><b>Marks.</b> {@link #mark} and {@link #rollbackTo} undo the writes made after a point
 * (a failed statement, a savepoint). Uncommitted writes are bounded by {@link
 * io.basaltdb.storage.StorageTransaction#MAX_PENDING_BYTES}. The snapshot stays pinned (compactions keep what it sees) until the
 * transaction ends.
 *
 * <p>Thread-safety: one writer at a time (the connection's); reads may run in parallel, also
 * while the writer writes (a statement's parallel scans feeding its own writes): what they read
 * of the own writes is kept in structures made for it ({@code OwnCells}, the rows written).
 */
public final class Transaction extends OwnWritesTransaction {
  /** Past this many read ranges of one table, they are kept as one range around them all. */
  static final int MAX_READ_RANGES = 10_000;

  private final Database db;
  private final Isolation isolation;
  /** The transaction's current snapshot (its pin), replaced per statement in READ_COMMITTED. */
  private PinnedSnapshot current;

  /** SERIALIZABLE: the key ranges read, {start, stop} (empty stop: to the end), per table. */
  private final Map<TableName, List<byte[][]>> reads = new HashMap<>();
  /** Ranges held whatever the isolation ({@link #holdRead}), as {@link #reads}. */
  private final Map<TableName, List<byte[][]>> held = new HashMap<>();
  /** The last point reads, reused while what they saw holds. */
  private final RecentGets recentGets = new RecentGets();

  Transaction(Database db, Isolation isolation) {
    this.db = db;
    this.isolation = isolation;
    this.current = db.pinnedSnapshot();
  }

  public Isolation isolation() {
    return isolation;
  }

  /** The read point of the transaction's current snapshot. */
  public synchronized long readPoint() {
    checkOpen();
    return current.readPoint();
  }

  /** Whether the transaction has written anything not undone. */
  @Override
  public boolean atomicCommit() {
    return true;
  }

  // ------------------------------------------------------------ Storage

  @Override
  public String location() {
    return db.location();
  }

  @Override
  public Admin admin() {
    return db.admin();
  }

  @Override
  public Table table(TableName name) {
    return new LocalTable(db, name, this);
  }

  /**
   * A snapshot for a statement's reads: the transaction's with the own writes made so far;
   * close it when the statement's reads are done (the transaction keeps its own pin).
   */
  @Override
  public synchronized ReadSnapshot snapshot() {
    checkOpen();
    return new PinnedSnapshot(db.pins(), current.cut(), this, own.newest());
  }

  /**
   * A new statement begins: in READ_COMMITTED its reads (and the snapshots {@link #snapshot()}
   * gives from now on) see the database as of now; in SNAPSHOT nothing changes.
   */
  @Override
  public synchronized void nextStatement() {
    checkOpen();
    if (isolation == Isolation.READ_COMMITTED) {
      PinnedSnapshot fresh = db.pinnedSnapshot();
      current.close();
      current = fresh;
    }
  }

  /** Nothing to sync before commit: the transaction's writes are not in the log yet. */
  @Override
  public void sync() {}

  @Override
  public <T> T extension(Class<T> type, Supplier<? extends T> create) {
    return db.extension(type, create);
  }

  @Override
  public boolean atomicAcrossRows() {
    return true;
  }


  /** Checks each change against the row as the transaction sees it, then keeps them all. */
  @Override
  public synchronized void mutateAtomically(List<RowChange> changes) {
    checkOpen();
    int mark = own.mark();
    try {
      for (RowChange c : changes) {
        apply(c);
      }
    } catch (RuntimeException e) {
      own.rollbackTo(mark);
      throw e;
    }
  }

  @Override
  public synchronized void mutateAfterRead(Table table, byte[] row, Durability durability,
      Function<Result, List<RowChange>> plan) {
    checkOpen();
    LocalTable t = mine(table);
    readRow(t, row);
    List<Cell> cells = t.readRow(row, latest(t, ReadSpec.LATEST));
    mutateAtomically(plan.apply(cells.isEmpty() ? Result.EMPTY : new Result(row, cells)));
  }

  private void apply(RowChange c) {
    LocalTable t = mine(c.table());
    byte[] row = c.mutation().row();
    if (c.check() != null) {
      readRow(t, row);
      List<Cell> cells = t.readRow(row, latest(t, ReadSpec.LATEST));
      c.check().accept(cells.isEmpty() ? Result.EMPTY : new Result(row, cells));
    }
    write(t, row, t.cellsOf(c.mutation()));
  }

  // ------------------------------------------------------------ marks, commit, rollback

  /**
   * Applies every own write as one write of the database at {@code durability} (SYNC or
   * ASYNC), unless a row it writes was written by someone else since the snapshot the
   * transaction had when it first wrote that row ({@link WriteConflictException}). Either way
   * the transaction ends: a failed commit applies nothing.
   */
  @Override
  public synchronized void commit(Durability durability) {
    checkOpen();
    boolean serializable = isolation == Isolation.SERIALIZABLE && !own.isEmpty();
    if (serializable || !held.isEmpty() && !own.isEmpty()) {
      // validated and applied with no other such commit between, so the writing ones are
      // serial in commit order (what each read still held when it committed); one that wrote
      // nothing read a snapshot, a prefix of that order, and needs no check
      synchronized (db.serializableCommits()) {
        validateReads(serializable ? reads : Map.of(), "serializable transaction");
        validateReads(held, "constraint check");
        apply(durability);
      }
    } else {
      apply(durability);
    }
  }

  /** Fails the commit (and ends the transaction) if a range it read was written since. */
  private void validateReads(Map<TableName, List<byte[][]>> ranges, String reader) {
    try {
      io.basaltdb.engine.region.SnapshotCut point = current.cut();
      for (Map.Entry<TableName, List<byte[][]>> e : ranges.entrySet()) {
        LocalTable t = new LocalTable(db, e.getKey(), null);
        for (byte[][] r : e.getValue()) {
          if (t.writtenAfter(r[0], r[1], point)) {
            throw new WriteConflictException("rows " + Cell.printable(r[0]) + " to "
                + (r[1].length == 0 ? "the end" : Cell.printable(r[1])) + " of table "
                + e.getKey() + ", read by this " + reader + ", were written by another"
                + " writer since sequence " + point);
          }
        }
      }
    } catch (RuntimeException e) {
      end();
      throw e;
    }
  }

  private void apply(Durability durability) {
    try {
      List<AtomicWrites.RowCells> rows = new ArrayList<>();
      for (TableName name : own.tables()) {
        LocalTable t = new LocalTable(db, name, null);
        for (Map.Entry<byte[], List<Cell>> r : own.netCells(name).entrySet()) {
          rows.add(new AtomicWrites.RowCells(t, r.getKey(), r.getValue(),
              own.basis(name, r.getKey())));
        }
      }
      if (!rows.isEmpty()) {
        AtomicWrites.applyCells(db, rows, durability, db.context());
      }
    } finally {
      end();
    }
  }

  @Override
  void end() {
    super.end();
    recentGets.clear();
    reads.clear();
    held.clear();
    current.close();
  }

  // ------------------------------------------------------------ for LocalTable

  /**
   * Held whatever the isolation; checked from the transaction's current snapshot (in
   * READ_COMMITTED, the last statement's).
   */
  @Override
  public synchronized void holdRead(TableName name, byte[] start, byte[] stop) {
    checkOpen();
    keep(held, name, start, stop);
  }

  /** A read of {@code [start, stop)} of table {@code name} (kept by SERIALIZABLE ones). */
  synchronized void read(TableName name, byte[] start, byte[] stop) {
    if (isolation == Isolation.SERIALIZABLE) {
      keep(reads, name, start, stop);
    }
  }

  private static void keep(Map<TableName, List<byte[][]>> into, TableName name, byte[] start,
      byte[] stop) {
    List<byte[][]> ranges = into.computeIfAbsent(name, n -> new ArrayList<>());
    ranges.add(new byte[][] {start, stop});
    if (ranges.size() > MAX_READ_RANGES) {
      byte[] low = ranges.get(0)[0];
      byte[] high = ranges.get(0)[1];
      for (byte[][] r : ranges) {
        low = Arrays.compareUnsigned(r[0], low) < 0 ? r[0] : low;
        high = high.length == 0 || r[1].length == 0 ? new byte[0]
            : Arrays.compareUnsigned(r[1], high) > 0 ? r[1] : high;
      }
      ranges.clear();
      ranges.add(new byte[][] {low, high});
    }
  }

  private void readRow(LocalTable t, byte[] row) {
    read(t.name(), row, Arrays.copyOf(row, row.length + 1));
  }

  /**
   * Keeps {@code cells} (a put's, a delete's markers, a row mutation's, as the table gives
   * them) as one own write of {@code row}; returns them stamped.
   */
  synchronized List<Cell> write(LocalTable t, byte[] row, List<Cell> cells) {
    checkOpen();
    List<byte[]> families = t.checkWrite(row, cells);
    long now = db.context().options().clock().millis();
    List<Cell> stamped = new ArrayList<>(cells.size());
    for (int i = 0; i < cells.size(); i++) {
      Cell c = cells.get(i);
      byte[] family = families.get(i);
      long ts = c.timestamp();
      if (ts == Cell.LATEST_TIMESTAMP) {
        ts = c.type() == CellType.DELETE ? newestVersion(t, row, family, c.qualifier(), now) : now;
      }
      stamped.add(new Cell(row, family, c.qualifier(), ts, c.type(), 0, c.value()));
    }
    return own.keep(t.name(), row, stamped, current.cut());
  }

  /**
   * A read-modify-write of one row: {@code fn} sees the row's cells that {@code read} asks for
   * as the transaction sees them (all its own writes included) and returns the cells to
   * write, kept as {@link #write} keeps them; returns them stamped.
   */
  synchronized List<Cell> writeWith(LocalTable t, byte[] row, ReadSpec read,
      Function<List<Cell>, List<Cell>> fn) {
    checkOpen();
    readRow(t, row);
    List<Cell> cells = fn.apply(t.readRow(row, latest(t, read)));
    return cells.isEmpty() ? List.of() : write(t, row, cells);
  }

  /** The timestamp of a column's newest version as the transaction sees it, else now. */
  private long newestVersion(LocalTable t, byte[] row, byte[] family, byte[] qualifier,
      long now) {
    java.util.NavigableSet<byte[]> q = io.basaltdb.engine.read.ColumnQuery.qualifierSet();
    q.add(qualifier);
    List<Cell> cells = t.readRow(row, latest(t, new ReadSpec(Map.of(family, q), 0,
        Long.MAX_VALUE, 1)));
    return cells.isEmpty() ? now : cells.get(0).timestamp();
  }

  /** {@code read} at the transaction's snapshot with all its own writes. */
  private ReadSpec latest(LocalTable t, ReadSpec read) {
    return read.withOverlay(own.overlay(t.name(), Long.MAX_VALUE), current.cut());
  }

  /**
   * {@code read} as a read of table {@code name} through this transaction: at {@code snapshot}
   * when it is one of this transaction's (with the own writes it names), else at the
   * transaction's snapshot with all own writes.
   */
  synchronized ReadSpec spec(TableName name, ReadSpec read, ReadSnapshot snapshot) {
    checkOpen();
    PinnedSnapshot statement = PinnedSnapshot.ofTransaction(snapshot, this);
    if (statement != null) {
      return read.withOverlay(own.overlay(name, statement.ownUpTo()), statement.cut());
    }
    return read.withOverlay(own.overlay(name, Long.MAX_VALUE), current.cut());
  }

  /**
   * The row a point read of table {@code name} made as {@code spec} (from {@link #spec}, with
   * {@code snapshot}) answers: an earlier read's answer when it holds ({@link RecentGets}),
   * else {@code read}'s, kept for later.
   */
  List<Cell> get(TableName name, byte[] row, ReadSpec spec, ReadSnapshot snapshot,
      Supplier<List<Cell>> read) {
    if (!RecentGets.keeps(spec)) {
      return read.get();
    }
    long ownUpTo;
    long rowNewest;
    long generation;
    synchronized (this) {
      PinnedSnapshot statement = PinnedSnapshot.ofTransaction(snapshot, this);
      ownUpTo = statement != null ? statement.ownUpTo() : Long.MAX_VALUE;
      rowNewest = own.newestOf(name, row);
      generation = own.generation();
    }
    List<Cell> cells = recentGets.find(name, row, spec, ownUpTo, rowNewest, generation);
    if (cells == null) {
      cells = read.get();
      recentGets.keep(name, row, spec, ownUpTo, rowNewest, generation, cells);
    }
    return cells;
  }

  /** {@code t} as a table of this transaction. */
  private LocalTable mine(Table t) {
    if (t instanceof LocalTable lt && lt.database() == db) {
      return lt.transaction() == this ? lt : new LocalTable(db, lt.name(), this);
    }
    throw new InvalidArgumentException("table " + t.name() + " is not a table of database "
        + db.directory() + "; a transaction stays within one database");
  }

}
