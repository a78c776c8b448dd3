package io.basaltdb.engine;

import io.basaltdb.storage.Cell;
import io.basaltdb.storage.CellType;
import io.basaltdb.storage.Durability;
import io.basaltdb.storage.FamilyOptions;
import io.basaltdb.storage.Get;
import io.basaltdb.storage.InvalidArgumentException;
import io.basaltdb.storage.ReadRequest;
import io.basaltdb.storage.Result;
import io.basaltdb.storage.ResultScanner;
import io.basaltdb.storage.Scan;
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

/**
 * A table of the storage seen through a {@link ClientTransaction}: writes kept in the client
 * (the transaction's own writes), reads merging them into what the storage returns; a row the
 * transaction wrote is read without the read's filter and resolved with the own cells by the
 * engine's rules, then filtered here. Thread-safety as the transaction's.
 */
final class ClientTable extends RowWriteTable {
  private final ClientTransaction tx;
  private final Table stored;
  /** The table's descriptor, read once per handle (over HBase a call to the cluster). */
  private TableDescriptor descriptor;
  private Set<byte[]> families;

  ClientTable(ClientTransaction tx, Table stored) {
    this.tx = tx;
    this.stored = stored;
  }

  @Override
  public TableName name() {
    return stored.name();
  }

  /** The transaction this table is read and written through. */
  ClientTransaction transaction() {
    return tx;
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
    synchronized (tx) {
      tx.checkOpen();
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
      return tx.own.keep(name(), row, stamped, null);
    }
  }

  @Override
  List<Cell> writeRowWith(byte[] row, Durability d, ReadSpec read,
      Function<List<Cell>, List<Cell>> fn) {
    synchronized (tx) {
      tx.checkOpen();
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
    long upTo = tx.upTo(get);
    if (!touches(get.row(), get, upTo)) {
      return stored.get(get);
    }
    Result merged = merged(get.row(), stored.get(plain(get, get.row())), get, upTo);
    return filtered(merged, get.filter());
  }

  @Override
  public ResultScanner getScanner(Scan scan) {
    long upTo = tx.upTo(scan);
    byte[] low = scan.isReversed() ? scan.reversedLowerInclusive() : scan.effectiveStart();
    byte[] high = scan.isReversed() ? scan.reversedUpperExclusive() : scan.effectiveStop();
    NavigableSet<byte[]> rows;
    synchronized (tx) {
      rows = tx.own.rows(name(), low, high, upTo);
    }
    if (rows.isEmpty()) {
      return stored.getScanner(scan);
    }
    return new MergedScanner(scan, rows, upTo);
  }

  /** Whether the transaction wrote {@code row} in a family {@code r} reads. */
  private boolean touches(byte[] row, ReadRequest<?> r, long upTo) {
    synchronized (tx) {
      for (byte[] f : families(r)) {
        if (!tx.own.cells(name(), f, row, upTo).isEmpty()) {
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
    Map<String, FamilyOptions> options = descriptor().families();
    for (byte[] family : families(r)) {
      List<Cell> own;
      synchronized (tx) {
        own = tx.own.cells(name(), family, row, upTo);
      }
      resolve(row, family, own, stored, options, new ColumnQuery(r.columns().isEmpty() ? null
          : r.columns().get(family), r.minTimestamp(), r.maxTimestamp(), r.maxVersions()), out);
    }
    return out.isEmpty() ? Result.EMPTY : new Result(row, out);
  }

  /**
   * The row {@code row} as its own cells {@code own} (stamped: newer than any stored cell) of
   * {@code family} leave {@code stored}, resolved by the engine's rules as {@code query} asks,
   * into {@code out}.
   */
  static void resolve(byte[] row, byte[] family, List<Cell> own, Result stored,
      Map<String, FamilyOptions> options, ColumnQuery query, List<Cell> out) {
    List<Cell> cells = new ArrayList<>(own);
    for (Cell c : stored.cells()) {
      if (Arrays.equals(c.family(), family)) {
        cells.add(new Cell(row, family, c.qualifier(), c.timestamp(), c.type(), 0, c.value()));
      }
    }
    cells.sort(CellComparator.INSTANCE);
    FamilyOptions fo = options.get(new String(family, java.nio.charset.StandardCharsets.UTF_8));
    CellResolver resolver = new CellResolver(new ListCells(cells),
        io.basaltdb.engine.read.RetentionRules.of(fo == null ? FamilyOptions.DEFAULT : fo),
        System.currentTimeMillis(), Long.MAX_VALUE, CellResolver.Mode.READ, query);
    resolver.seekToRow(row, family);
    for (Cell c = resolver.next(); c != null; c = resolver.next()) {
      out.add(c);
    }
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
