package io.basaltdb.engine;

import io.basaltdb.storage.Admin;
import io.basaltdb.storage.Cell;
import io.basaltdb.storage.CellType;
import io.basaltdb.storage.Delete;
import io.basaltdb.storage.Durability;
import io.basaltdb.storage.FamilyOptions;
import io.basaltdb.storage.Get;
import io.basaltdb.storage.InvalidArgumentException;
import io.basaltdb.storage.Put;
import io.basaltdb.storage.ReadRequest;
import io.basaltdb.storage.ReadSnapshot;
import io.basaltdb.storage.Result;
import io.basaltdb.storage.ResultScanner;
import io.basaltdb.storage.RowChange;
import io.basaltdb.storage.RowMutations;
import io.basaltdb.storage.Scan;
import io.basaltdb.storage.Storage;
import io.basaltdb.storage.Table;
import io.basaltdb.storage.TableDescriptor;
import io.basaltdb.storage.TableName;
import io.basaltdb.engine.cell.CellComparator;
import io.basaltdb.engine.cell.CellIterator;
import io.basaltdb.engine.read.CellResolver;
import io.basaltdb.engine.read.ColumnQuery;
import io.basaltdb.engine.region.ReadSpec;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NavigableSet;
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
    return new ClientTable(base.table(name));
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

  /** False: rows are written one by one, each atomically. */
  @Override
  public boolean atomicAcrossRows() {
    return false;
  }

  @Override
  public void mutateAtomically(List<RowChange> changes) {
    throw new UnsupportedOperationException("the storage at " + base.location()
        + " writes one row atomically, not several");
  }

  @Override
  public void mutateAfterRead(Table table, byte[] row, Durability durability,
      Function<Result, List<RowChange>> plan) {
    mutateAtomically(List.of());
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
   * each row still atomic). Where markers hide every put at or below their timestamp whatever the
   * order ({@link Storage#markersHideLaterPuts}: HBase), a put the same mutation's delete marker
   * would hide (a row deleted and written again within one millisecond) is written a
   * millisecond after the marker, as the transaction read it; a write of another client in that
   * millisecond may then read as older.
   */
  @Override
  public synchronized void commit(Durability durability) {
    checkOpen();
    try {
      for (TableName name : own.tables()) {
        Table t = base.table(name);
        List<Put> puts = new ArrayList<>();
        for (Map.Entry<byte[], List<Cell>> r : own.netCells(name).entrySet()) {
          RowMutations rm = mutations(r.getKey(), r.getValue(), durability,
              base.markersHideLaterPuts());
          if (rm.mutations().size() == 1 && rm.mutations().get(0) instanceof Put p) {
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
  private long upTo(ReadRequest<?> r) {
    PinnedSnapshot s = PinnedSnapshot.ofTransaction(r.snapshot(), this);
    return s != null ? s.ownUpTo() : Long.MAX_VALUE;
  }

  // ------------------------------------------------------------ the tables

  /** A table of the storage seen through this transaction. */
  private final class ClientTable extends RowWriteTable {
    private final Table stored;
    /** The table's descriptor, read once per handle (over HBase a call to the cluster). */
    private TableDescriptor descriptor;
    private Set<byte[]> families;

    ClientTable(Table stored) {
      this.stored = stored;
    }

    @Override
    public TableName name() {
      return stored.name();
    }

    @Override
    public TableDescriptor descriptor() {
      if (descriptor == null) {
        descriptor = stored.descriptor();
      }
      return descriptor;
    }

    @Override
    Set<byte[]> familySet() {
      if (families == null) {
        Set<byte[]> s = new TreeSet<>(Arrays::compareUnsigned);
        for (String f : descriptor().families().keySet()) {
          s.add(f.getBytes(java.nio.charset.StandardCharsets.UTF_8));
        }
        families = s;
      }
      return families;
    }

    @Override
    List<Cell> writeRow(byte[] row, List<Cell> cells, Durability d) {
      synchronized (ClientTransaction.this) {
        checkOpen();
        if (row == null || row.length == 0) {
          throw new InvalidArgumentException("a row key must not be empty");
        }
        Set<byte[]> families = familySet();
        long now = System.currentTimeMillis();
        List<Cell> stamped = new ArrayList<>(cells.size());
        for (Cell c : cells) {
          if (!families.contains(c.family())) {
            throw unknownFamily(c.family());
          }
          long ts = c.timestamp();
          if (ts == Cell.LATEST_TIMESTAMP) {
            ts = c.type() == CellType.DELETE ? newestVersion(row, c, now) : now;
          }
          stamped.add(new Cell(row, c.family(), c.qualifier(), ts, c.type(), 0, c.value()));
        }
        return own.keep(name(), row, stamped, null);
      }
    }

    @Override
    List<Cell> writeRowWith(byte[] row, Durability d, ReadSpec read,
        Function<List<Cell>, List<Cell>> fn) {
      synchronized (ClientTransaction.this) {
        checkOpen();
        Get g = new Get(row);
        for (Map.Entry<byte[], NavigableSet<byte[]>> f : read.families().entrySet()) {
          if (f.getValue() == null) {
            g.addFamily(f.getKey());
          } else {
            f.getValue().forEach(q -> g.addColumn(f.getKey(), q));
          }
        }
        g.readVersions(read.maxVersions());
        List<Cell> cells = fn.apply(get(g).cells());
        return cells.isEmpty() ? List.of() : writeRow(row, cells, d);
      }
    }

    /** The timestamp of a column's newest version as the transaction sees it, else now. */
    private long newestVersion(byte[] row, Cell c, long now) {
      Result r = get(new Get(row).addColumn(c.family(), c.qualifier()));
      return r.isEmpty() ? now : r.cells().get(0).timestamp();
    }

    @Override
    public Result get(Get get) {
      long upTo = upTo(get);
      if (!touches(get.row(), get, upTo)) {
        return stored.get(get);
      }
      Result merged = merged(get.row(), stored.get(plain(get, get.row())), get, upTo);
      return filtered(merged, get.filter());
    }

    @Override
    public ResultScanner getScanner(Scan scan) {
      long upTo = upTo(scan);
      byte[] low = scan.isReversed() ? scan.reversedLowerInclusive() : scan.effectiveStart();
      byte[] high = scan.isReversed() ? scan.reversedUpperExclusive() : scan.effectiveStop();
      NavigableSet<byte[]> rows;
      synchronized (ClientTransaction.this) {
        rows = own.rows(name(), low, high, upTo);
      }
      if (rows.isEmpty()) {
        return stored.getScanner(scan);
      }
      return new MergedScanner(scan, rows, upTo);
    }

    /** Whether the transaction wrote {@code row} in a family {@code r} reads. */
    private boolean touches(byte[] row, ReadRequest<?> r, long upTo) {
      synchronized (ClientTransaction.this) {
        for (byte[] f : families(r)) {
          if (!own.cells(name(), f, row, upTo).isEmpty()) {
            return true;
          }
        }
        return false;
      }
    }

    private Set<byte[]> families(ReadRequest<?> r) {
      return r.columns().isEmpty() ? familySet() : r.columns().keySet();
    }

    /**
     * {@code r}'s read of {@code row} without its filter, with room for the versions the own
     * writes may push out of view.
     */
    private Get plain(ReadRequest<?> r, byte[] row) {
      Get g = new Get(row);
      for (Map.Entry<byte[], NavigableSet<byte[]>> f : r.columns().entrySet()) {
        if (f.getValue() == null) {
          g.addFamily(f.getKey());
        } else {
          f.getValue().forEach(q -> g.addColumn(f.getKey(), q));
        }
      }
      g.setTimeRange(r.minTimestamp(), r.maxTimestamp());
      int versions = r.maxVersions() == Integer.MAX_VALUE ? Integer.MAX_VALUE
          : r.maxVersions() + 1;
      return g.readVersions(versions);
    }

    /** The stored row {@code stored} with the own cells up to {@code upTo}, as {@code r} asks. */
    private Result merged(byte[] row, Result stored, ReadRequest<?> r, long upTo) {
      List<Cell> out = new ArrayList<>();
      long now = System.currentTimeMillis();
      Map<String, FamilyOptions> options = descriptor().families();
      for (byte[] family : families(r)) {
        List<Cell> cells = new ArrayList<>();
        synchronized (ClientTransaction.this) {
          cells.addAll(own.cells(name(), family, row, upTo));
        }
        for (Cell c : stored.cells()) {
          if (Arrays.equals(c.family(), family)) {
            cells.add(new Cell(row, family, c.qualifier(), c.timestamp(), c.type(), 0, c.value()));
          }
        }
        cells.sort(CellComparator.INSTANCE);
        FamilyOptions fo = options.get(new String(family, java.nio.charset.StandardCharsets.UTF_8));
        CellResolver resolver = new CellResolver(new ListCells(cells),
            io.basaltdb.engine.read.RetentionRules.of(fo == null ? FamilyOptions.DEFAULT : fo), now, Long.MAX_VALUE,
            CellResolver.Mode.READ, new ColumnQuery(r.columns().isEmpty() ? null
                : r.columns().get(family), r.minTimestamp(), r.maxTimestamp(), r.maxVersions()));
        resolver.seekToRow(row, family);
        for (Cell c = resolver.next(); c != null; c = resolver.next()) {
          out.add(c);
        }
      }
      return out.isEmpty() ? Result.EMPTY : new Result(row, out);
    }

    /** A merged scan: stored rows read unfiltered, own rows merged in, the filter applied here. */
    private final class MergedScanner implements ResultScanner {
      private final Scan scan;
      private final ResultScanner stored;
      private final Iterator<byte[]> ownRows;
      private final boolean reversed;
      private final io.basaltdb.storage.filter.Filter filter;
      private final long upTo;
      private Result nextStored;
      private byte[] nextOwn;
      private long remaining;

      MergedScanner(Scan scan, NavigableSet<byte[]> rows, long upTo) {
        this.scan = scan;
        this.reversed = scan.isReversed();
        this.filter = scan.filter();
        this.upTo = upTo;
        this.remaining = scan.limit() > 0 ? scan.limit() : Long.MAX_VALUE;
        this.ownRows = reversed ? rows.descendingIterator() : rows.iterator();
        Scan unfiltered = new Scan().setReversed(reversed).readVersions(scan.maxVersions())
            .setTimeRange(scan.minTimestamp(), scan.maxTimestamp());
        unfiltered.withStartRow(scan.startRow(), scan.includesStartRow())
            .withStopRow(scan.stopRow(), scan.includesStopRow());
        for (Map.Entry<byte[], NavigableSet<byte[]>> f : scan.columns().entrySet()) {
          if (f.getValue() == null) {
            unfiltered.addFamily(f.getKey());
          } else {
            f.getValue().forEach(q -> unfiltered.addColumn(f.getKey(), q));
          }
        }
        this.stored = ClientTable.this.stored.getScanner(unfiltered);
        nextStored = this.stored.next();
        nextOwn = ownRows.hasNext() ? ownRows.next() : null;
      }

      @Override
      public Result next() {
        while (remaining > 0 && (nextStored != null || nextOwn != null)) {
          if (filter != null && filter.filterAllRemaining()) {
            return null;
          }
          Result r;
          int order; // < 0: the stored row comes first in the scan's order; 0: the same row
          if (nextStored == null || nextOwn == null) {
            order = nextStored == null ? 1 : -1;
          } else {
            order = Arrays.compareUnsigned(nextStored.row(), nextOwn);
            order = reversed ? -order : order;
          }
          if (order < 0) { // a stored row the transaction did not write
            r = nextStored;
            nextStored = stored.next();
          } else { // a row the transaction wrote: its stored cells and its own, merged
            byte[] row = nextOwn;
            if (order == 0) {
              nextStored = stored.next();
            }
            nextOwn = ownRows.hasNext() ? ownRows.next() : null;
            r = merged(row, ClientTable.this.stored.get(plain(scan, row)), scan, upTo);
          }
          r = filtered(r, filter);
          if (r != null && !r.isEmpty()) {
            remaining--;
            return r;
          }
        }
        return null;
      }

      @Override
      public void close() {
        stored.close();
      }
    }
  }

  /** {@code r} after {@code filter} (null: as it is), or null when the filter drops it. */
  private static Result filtered(Result r, io.basaltdb.storage.filter.Filter filter) {
    return filter == null || r.isEmpty() ? r
        : io.basaltdb.storage.filter.Filters.applyTo(filter, r);
  }

  /** A sorted list of cells as a cursor. */
  private static final class ListCells implements CellIterator {
    private final List<Cell> cells;
    private int i;

    ListCells(List<Cell> cells) {
      this.cells = cells;
    }

    @Override
    public void seekToFirst() {
      i = 0;
    }

    @Override
    public void seek(Cell target) {
      int lo = 0;
      int hi = cells.size();
      while (lo < hi) {
        int mid = (lo + hi) >>> 1;
        if (CellComparator.INSTANCE.compare(cells.get(mid), target) < 0) {
          lo = mid + 1;
        } else {
          hi = mid;
        }
      }
      i = lo;
    }

    @Override
    public Cell current() {
      return i < cells.size() ? cells.get(i) : null;
    }

    @Override
    public void next() {
      i++;
    }
  }
}
