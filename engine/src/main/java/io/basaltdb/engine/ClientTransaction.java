package io.basaltdb.engine;

import io.basaltdb.storage.Admin;
import io.basaltdb.storage.Cell;
import io.basaltdb.storage.CellType;
import io.basaltdb.storage.Delete;
import io.basaltdb.storage.Durability;
import io.basaltdb.storage.FamilyOptions;
import io.basaltdb.storage.Get;
import io.basaltdb.storage.Put;
import io.basaltdb.storage.ReadRequest;
import io.basaltdb.storage.ReadSnapshot;
import io.basaltdb.storage.Result;
import io.basaltdb.storage.RowChange;
import io.basaltdb.storage.RowMutations;
import io.basaltdb.storage.Storage;
import io.basaltdb.storage.Table;
import io.basaltdb.storage.TableName;
import io.basaltdb.engine.read.CellResolver;
import io.basaltdb.engine.read.ColumnQuery;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * A transaction kept in the client over a storage that keeps none of its own (an HBase
 * cluster: one row is atomic, several are not): its writes stay in the client ({@link
 * OwnWrites}) and every read of its tables merges them into what the storage returns, so a
 * statement sees what the transaction wrote before it, a duplicate key or a failed check is
 * found by the statement that causes it, and marks take writes back. A read of a row the
 * transaction wrote fetches the row's stored cells without the read's filter and resolves them
 * with the own cells by the engine's rules ({@link CellResolver}: own cells are newer than any
 * stored one), then applies the filter in the client; a scan over a range holding own rows
 * reads the range unfiltered and filters every row in the client (exact, one filter instance).
 * A read-modify-write ({@link #mutateAfterRead}: an indexed row and its entries) runs on the
 * row as the transaction reads it and is kept whole or not at all. A caller may take a table's
 * rows out of the commit and write them itself ({@link #takeRows}: the SQL layer writes an
 * indexed table's rows through its index protocol).
 *
 * <p>What it cannot give, and says so ({@link #atomicCommit} false, the storage's {@link
 * Storage#keepsTransactions} false): no snapshot (each read sees the latest stored rows, each
 * row atomically), a commit applied row by row (each row one atomic row mutation, in key order;
 * a failure leaves the rows before it applied), no write conflicts (the last writer of a row
 * wins). Timestamps are the client's clock.
 *
 * <p>Thread-safety: one writer at a time; reads may run in parallel while nothing writes.
 */
public final class ClientTransaction extends OwnWritesTransaction {
  /** The most rows of puts one call writes at commit. */
  private static final int PUTS_PER_CALL = 1000;
  private final Storage base;

  public ClientTransaction(Storage base) {
    this.base = base;
  }

  // ------------------------------------------------------------ Storage

  @Override
  public String location() {
    return base.location();
  }

  @Override
  public Admin admin() {
    return base.admin();
  }

  @Override
  public Table table(TableName name) {
    return new ClientTable(this, base.table(name));
  }

  /** The own writes a statement's reads see: those made before it; no cut of the storage. */
  @Override
  public synchronized ReadSnapshot snapshot() {
    checkOpen();
    return new PinnedSnapshot(null, null, this, own.newest());
  }

  @Override
  public void sync() {}

  @Override
  public <T> T extension(Class<T> type, Supplier<? extends T> create) {
    return base.extension(type, create);
  }

  @Override
  public boolean sharedByProcesses() {
    return base.sharedByProcesses();
  }

  @Override
  public boolean markersHideLaterPuts() {
    return base.markersHideLaterPuts();
  }

  @Override
  public boolean markersHideLaterPuts(TableName table) {
    return base.markersHideLaterPuts(table);
  }

  /** False: rows are written one by one, each atomically. */
  @Override
  public boolean atomicAcrossRows() {
    return false;
  }

  /**
   * Keeps {@code changes} as own writes, each change's check run first on its row as the
   * transaction reads it; all or none of them (a failed check takes back those kept before).
   * Atomic in the transaction only: its commit writes row by row.
   */
  @Override
  public synchronized void mutateAtomically(List<RowChange> changes) {
    checkOpen();
    int mark = own.mark();
    try {
      for (RowChange c : changes) {
        if (!(c.table() instanceof ClientTable t) || t.transaction() != this) {
          throw new IllegalStateException("table " + c.table().name()
              + " is not read through this transaction");
        }
        byte[] row = c.mutation().row();
        if (c.check() != null) {
          c.check().accept(t.get(new Get(row)));
        }
        if (c.mutation() instanceof Put p) {
          t.put(p);
        } else if (c.mutation() instanceof Delete d) {
          t.delete(d);
        } else if (c.mutation() instanceof RowMutations rm) {
          t.mutateRow(rm);
        } else {
          throw new IllegalStateException("a row change cannot be " + c.mutation());
        }
      }
    } catch (RuntimeException e) {
      own.rollbackTo(mark);
      throw e;
    }
  }

  /** {@code plan} run on the row as the transaction reads it, its changes kept atomically. */
  @Override
  public synchronized void mutateAfterRead(Table table, byte[] row, Durability durability,
      Function<Result, List<RowChange>> plan) {
    checkOpen();
    mutateAtomically(plan.apply(table.get(new Get(row))));
  }

  /**
   * The rows of {@code table} this transaction wrote, taken out of it (its commit no longer
   * writes them): each with its net own cells ({@link OwnWrites#netCells}), resolved over a
   * stored row by the rules its reads follow.
   */
  @Override
  public synchronized List<OwnRow> takeRows(TableName table) {
    checkOpen();
    Map<String, FamilyOptions> options =
        base.table(table).descriptor().families();
    List<OwnRow> rows = new ArrayList<>();
    for (Map.Entry<byte[], List<Cell>> r : own.netCells(table).entrySet()) {
      // one own write over the stored cells, as the commit's: a column's newest put only
      // (newest first where timestamps tie), every marker
      Map<List<ByteBuffer>, Cell> newest = new LinkedHashMap<>();
      List<Cell> cells = new ArrayList<>(r.getValue().size());
      for (Cell c : r.getValue()) {
        Cell one = new Cell(c.row(), c.family(), c.qualifier(), c.timestamp(), c.type(),
            CellResolver.OWN_WRITES, c.value());
        if (c.type() != CellType.PUT) {
          cells.add(one);
          continue;
        }
        List<ByteBuffer> column = List.of(ByteBuffer.wrap(c.family()),
            ByteBuffer.wrap(c.qualifier()));
        Cell kept = newest.get(column);
        if (kept == null || c.timestamp() > kept.timestamp()) {
          newest.put(column, one);
        }
      }
      cells.addAll(newest.values());
      rows.add(new TakenRow(r.getKey(), cells, options));
    }
    own.forget(table);
    return rows;
  }

  /** A row taken out of the commit: its net own cells, all of one own write. */
  private record TakenRow(byte[] row, List<Cell> cells,
      Map<String, FamilyOptions> options) implements OwnRow {
    @Override
    public RowMutations mutation() {
      return mutations(row, cells, Durability.SYNC, false);
    }

    /**
     * The own cells go above every stored one, whatever their timestamps (another writer may
     * have written the row since): as the commit writes them, at a time above all the row
     * holds, its markers covering every stored cell and none of its own puts.
     */
    @Override
    public Result over(Result stored) {
      Set<byte[]> families = new TreeSet<>(Arrays::compareUnsigned);
      long top = System.currentTimeMillis();
      for (Cell c : stored.cells()) {
        families.add(c.family());
        top = Math.max(top, c.timestamp() + 1);
      }
      cells.forEach(c -> families.add(c.family()));
      List<Cell> out = new ArrayList<>();
      for (byte[] f : families) {
        List<Cell> own = new ArrayList<>();
        for (Cell c : cells) {
          if (Arrays.equals(c.family(), f)) {
            own.add(new Cell(row, f, c.qualifier(), top, c.type(), c.sequenceId(), c.value()));
          }
        }
        ClientTable.resolve(row, f, own, stored, options,
            ColumnQuery.LATEST_ALL, out);
      }
      return out.isEmpty() ? Result.EMPTY : new Result(row, out);
    }
  }

  // ------------------------------------------------------------ StorageTransaction

  @Override
  public void nextStatement() {}

  @Override
  public boolean atomicCommit() {
    return false;
  }

  /**
   * Writes each row's net own cells ({@link OwnWrites#netCells}) as one row mutation, table by
   * table (rows only put in lists of {@link #PUTS_PER_CALL}, as a batch of puts is written:
   * each row still atomic). A row deleted and written again at timestamps the delete covers (in
   * one millisecond, or at a ROW_TIMESTAMP row's own time) needs its puts after its markers:
   * where markers hide every put at or below their timestamp whatever the order (a table with
   * {@link Storage#markersHideLaterPuts(TableName)}: HBase's old rule), each such put is written
   * a millisecond after the marker, as the transaction read it (a write of another client in
   * that millisecond may then read as older); elsewhere the markers go first and the puts in a
   * second call, the row's cells at their timestamps (HBase hides a put from a marker of its own
   * mutation at or above its timestamp, even with NEW_VERSION_BEHAVIOR; between the two calls
   * a reader sees the row deleted).
   */
  @Override
  public synchronized void commit(Durability durability) {
    checkOpen();
    try {
      for (TableName name : own.tables()) {
        Table t = base.table(name);
        boolean hideLater = base.markersHideLaterPuts(name);
        List<Put> puts = new ArrayList<>();
        for (Map.Entry<byte[], List<Cell>> r : own.netCells(name).entrySet()) {
          RowMutations rm = mutations(r.getKey(), r.getValue(), durability, hideLater);
          if (!hideLater && rm.mutations().size() == 2 && markersCoverPuts(r.getValue())) {
            t.mutateRow(only(rm, 0)); // the markers, then the puts they would hide
            t.mutateRow(only(rm, 1));
          } else if (rm.mutations().size() == 1 && rm.mutations().get(0) instanceof Put p) {
            puts.add(p); // rows only put go in lists: one call per region server, not per row
            if (puts.size() >= PUTS_PER_CALL) {
              t.put(puts);
              puts = new ArrayList<>();
            }
          } else {
            t.mutateRow(rm);
          }
        }
        if (!puts.isEmpty()) {
          t.put(puts);
        }
      }
    } finally {
      end();
    }
  }

  private static RowMutations mutations(byte[] row, List<Cell> cells, Durability durability,
      boolean markersHideLaterPuts) {
    RowMutations rm = new RowMutations(row);
    Delete markers = null;
    Put puts = null;
    for (Cell c : cells) {
      switch (c.type()) {
        case PUT -> {
          if (puts == null) {
            puts = new Put(row);
          }
          puts.addColumn(c.family(), c.qualifier(),
              markersHideLaterPuts ? afterMarkers(c, cells) : c.timestamp(), c.value());
        }
        default -> {
          if (markers == null) {
            markers = new Delete(row);
          }
          switch (c.type()) {
            case DELETE_FAMILY -> markers.addFamily(c.family(), c.timestamp());
            case DELETE_FAMILY_VERSION -> markers.addFamilyVersion(c.family(), c.timestamp());
            case DELETE_COLUMN -> markers.addColumns(c.family(), c.qualifier(), c.timestamp());
            default -> markers.addColumn(c.family(), c.qualifier(), c.timestamp());
          }
        }
      }
    }
    if (markers != null) {
      rm.add(markers.setDurability(durability));
    }
    if (puts != null) {
      rm.add(puts.setDurability(durability));
    }
    return rm;
  }

  /** Whether a delete marker of {@code cells} covers a put of them. */
  private static boolean markersCoverPuts(List<Cell> cells) {
    for (Cell m : cells) {
      if (m.type().isDelete()) {
        for (Cell p : cells) {
          if (p.type() == CellType.PUT && m.timestamp() >= p.timestamp()
              && RowWriteTable.covers(m, p)) {
            return true;
          }
        }
      }
    }
    return false;
  }

  /** The mutation at {@code i} of {@code rm}, alone. */
  private static RowMutations only(RowMutations rm, int i) {
    RowMutations one = new RowMutations(rm.row());
    one.add(rm.mutations().get(i));
    return one;
  }

  /** {@code put}'s timestamp, moved after any marker of {@code cells} that covers it. */
  private static long afterMarkers(Cell put, List<Cell> cells) {
    long ts = put.timestamp();
    for (Cell m : cells) {
      if (m.type().isDelete() && m.timestamp() >= ts && RowWriteTable.covers(m, put)) {
        ts = m.timestamp() + 1;
      }
    }
    return ts;
  }

  /** The own writes a read sees: those of its statement's snapshot, else all. */
  long upTo(ReadRequest<?> r) {
    PinnedSnapshot s = PinnedSnapshot.ofTransaction(r.snapshot(), this);
    return s != null ? s.ownUpTo() : Long.MAX_VALUE;
  }

  // ------------------------------------------------------------ the tables
}
