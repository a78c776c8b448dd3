package io.basaltdb.engine;

import io.basaltdb.storage.Cell;
import io.basaltdb.storage.Delete;
import io.basaltdb.storage.Durability;
import io.basaltdb.storage.Get;
import io.basaltdb.storage.InvalidArgumentException;
import io.basaltdb.storage.Put;
import io.basaltdb.storage.ReadRequest;
import io.basaltdb.storage.Result;
import io.basaltdb.storage.ResultScanner;
import io.basaltdb.storage.Row;
import io.basaltdb.storage.RowMutations;
import io.basaltdb.storage.Scan;
import io.basaltdb.storage.TableDescriptor;
import io.basaltdb.storage.TableDisabledException;
import io.basaltdb.storage.TableName;
import io.basaltdb.engine.region.ReadSpec;
import io.basaltdb.engine.region.Region;
import io.basaltdb.engine.region.RegionClosedException;
import io.basaltdb.engine.region.RowScanner;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The embedded engine's {@link Table}: each operation finds the region of this database holding
 * its row at the time it runs, again if that region split or closed meanwhile. Thread-safe and
 * cheap to make.
 */
final class LocalTable extends RowWriteTable {
  private final Database db;
  private final TableName name;
  /** The transaction this handle reads and writes through, or null: the database itself. */
  private final Transaction tx;

  LocalTable(Database db, TableName name, Transaction tx) {
    this.db = db;
    this.name = name;
    this.tx = tx;
  }

  Database database() {
    return db;
  }

  Transaction transaction() {
    return tx;
  }

  /** The row's cells as {@code spec} asks (the spec made for this handle's reads). */
  List<Cell> readRow(byte[] row, ReadSpec spec) {
    return onRegion(row, r -> r.get(row, spec));
  }

  /**
   * Whether a write {@code cut} does not see touched {@code [start, stop)} of this table
   * (empty stop: to the end), region by region.
   */
  boolean writtenAfter(byte[] start, byte[] stop, io.basaltdb.engine.region.SnapshotCut cut) {
    byte[] resume = start;
    while (true) {
      byte[][] end = new byte[1][];
      byte[] from = resume;
      Boolean found = onRegion(from, r -> {
        end[0] = r.descriptor().endRow();
        return r.writtenAfter(from, stop, cut);
      });
      if (Boolean.TRUE.equals(found)) {
        return true;
      }
      if (end[0] == null || end[0].length == 0
          || stop.length > 0 && Arrays.compareUnsigned(end[0], stop) >= 0) {
        return false;
      }
      resume = end[0];
    }
  }

  /**
   * Checks a write of {@code cells} to {@code row} as its region would, writing nothing; each
   * cell's family as the table's stores name it.
   */
  List<byte[]> checkWrite(byte[] row, List<Cell> cells) {
    return onRegion(row, r -> r.checkWrite(row, cells));
  }

  /**
   * Puts several rows: outside a transaction in groups of one region's rows ({@link
   * BatchPuts}), else row by row.
   */
  @Override
  public void put(List<Put> puts) {
    if (tx != null || puts.size() < 2) {
      super.put(puts);
    } else {
      BatchPuts.write(this, puts);
    }
  }

  /** Writes one row's cells: to its region, or into the transaction. */
  @Override
  List<Cell> writeRow(byte[] row, List<Cell> cells, Durability d) {
    return tx != null ? tx.write(this, row, cells)
        : onRegion(row, r -> r.mutateRow(row, cells, d));
  }

  /** A read-modify-write of one row: in its region under its lock, or in the transaction. */
  @Override
  List<Cell> writeRowWith(byte[] row, Durability d, ReadSpec read,
      Function<List<Cell>, List<Cell>> fn) {
    return tx != null ? tx.writeWith(this, row, read, fn)
        : onRegion(row, r -> r.mutateRowWith(row, d, read, fn));
  }

  @Override
  public TableName name() {
    return name;
  }

  @Override
  public TableDescriptor descriptor() {
    return db.state(name).descriptor;
  }

  private List<Region> regions() {
    TableState s = db.state(name);
    if (!s.enabled) {
      throw new TableDisabledException(name);
    }
    return s.regions;
  }

  /** A put's cells, a delete's markers over this table's families, or row mutations' both. */
  List<Cell> cellsOf(Row m) {
    if (m instanceof Delete d) {
      return d.markers(familySet());
    }
    if (m instanceof RowMutations rm) {
      if (rm.mutations().isEmpty()) {
        throw new InvalidArgumentException("row mutations of row " + Cell.printable(m.row())
            + " are empty");
      }
      return flatten(rm);
    }
    if (!(m instanceof Put p)) {
      throw new InvalidArgumentException("only puts and deletes are written several rows at"
          + " once, not " + m.getClass().getSimpleName());
    }
    if (p.cells().isEmpty()) {
      throw new InvalidArgumentException("put of row " + Cell.printable(m.row())
          + " has no columns");
    }
    return p.cells();
  }

  /** The region whose range holds {@code row}. */
  Region regionFor(byte[] row) {
    List<Region> rs = regions();
    int lo = 0;
    int hi = rs.size() - 1;
    while (lo < hi) { // last region whose start row <= row
      int mid = (lo + hi + 1) >>> 1;
      if (Arrays.compareUnsigned(rs.get(mid).descriptor().startRow(), row) <= 0) {
        lo = mid;
      } else {
        hi = mid - 1;
      }
    }
    return rs.get(lo);
  }

  // ------------------------------------------------------------ reads

  @Override
  public Result get(Get get) {
    if (tx != null) {
      tx.read(name, get.row(), Arrays.copyOf(get.row(), get.row().length + 1));
    }
    ReadSpec spec = spec(get);
    List<Cell> cells = tx == null ? onRegion(get.row(), r -> r.get(get.row(), spec))
        : tx.get(name, get.row(), spec, get.snapshot(),
            () -> onRegion(get.row(), r -> r.get(get.row(), spec)));
    return cells.isEmpty() ? Result.EMPTY : new Result(get.row(), cells);
  }

  private ReadSpec spec(ReadRequest<?> r) {
    ReadSpec spec = plainSpec(r);
    return tx == null ? spec : tx.spec(name, spec, r.snapshot());
  }

  private ReadSpec plainSpec(ReadRequest<?> r) {
    Set<byte[]> wanted = r.columns().keySet();
    Set<byte[]> known = wanted.isEmpty() ? Set.of() : familySet();
    for (byte[] f : wanted) {
      if (!known.contains(f)) {
        throw unknownFamily(f);
      }
    }
    ReadSpec spec = r.columnsShared()
        ? ReadSpec.overShared(r.columns(), r.minTimestamp(), r.maxTimestamp(), r.maxVersions(),
            r.filter(), PinnedSnapshot.cutOf(r.snapshot()))
        : new ReadSpec(r.columns(), r.minTimestamp(), r.maxTimestamp(), r.maxVersions(),
            r.filter(), PinnedSnapshot.cutOf(r.snapshot()));
    return spec.withMetrics(r.metrics());
  }

  @Override
  Set<byte[]> familySet() {
    return db.state(name).familyBytes;
  }

  @Override
  public ResultScanner getScanner(Scan scan) {
    if (tx != null) {
      if (scan.isReversed()) {
        tx.read(name, scan.reversedLowerInclusive(), scan.reversedUpperExclusive());
      } else {
        tx.read(name, scan.effectiveStart(), scan.effectiveStop());
      }
    }
    if (scan.isReversed()) {
      return new ReverseTableScanner(spec(scan), scan.reversedUpperExclusive(),
          scan.reversedLowerInclusive(), scan.limit());
    }
    return new TableScanner(spec(scan), scan.effectiveStart(), scan.effectiveStop(), scan.limit());
  }

  /** The region holding the last row before {@code upper} (empty: the last region), or null. */
  private Region regionBefore(byte[] upper) {
    List<Region> rs = regions();
    if (upper.length == 0) {
      return rs.get(rs.size() - 1);
    }
    Region r = regionFor(upper);
    if (Arrays.compareUnsigned(r.descriptor().startRow(), upper) < 0) {
      return r;
    }
    int i = rs.indexOf(r);
    return i > 0 ? rs.get(i - 1) : null;
  }

  /** Rows in descending order, region by region from the top, following splits. */
  private final class ReverseTableScanner extends RegionChainScanner {
    private final ReadSpec spec;
    private final byte[] lower;
    private byte[] upper;
    private byte[] regionStart;

    ReverseTableScanner(ReadSpec spec, byte[] upper, byte[] lower, long limit) {
      super(limit);
      this.spec = spec;
      this.upper = upper;
      this.lower = lower;
    }

    @Override
    protected RowScanner openNext() {
      if (upper.length > 0 && lower.length > 0 && Arrays.compareUnsigned(upper, lower) <= 0) {
        return null;
      }
      return retrying(() -> regionBefore(upper), r -> {
        regionStart = r.descriptor().startRow();
        return r.scanReversed(spec, upper, lower);
      });
    }

    @Override
    protected void returned(byte[] row) {
      upper = row;
    }

    @Override
    protected boolean leaveRegion() {
      upper = regionStart;
      return regionStart.length > 0;
    }
  }

  /** Rows in key order, region by region, following splits. */
  private final class TableScanner extends RegionChainScanner {
    private final ReadSpec spec;
    private final byte[] stop;
    /** Where the next region's scan starts; null: just after {@link #lastReturned}. */
    private byte[] resume;
    /** The key of the row last returned (a row's key array never changes). */
    private byte[] lastReturned;
    private byte[] regionEnd;

    TableScanner(ReadSpec spec, byte[] start, byte[] stop, long limit) {
      super(limit);
      this.spec = spec;
      this.resume = start;
      this.stop = stop;
    }

    /** The row to start from, made when asked: most scans never leave their first region. */
    private byte[] resume() {
      if (resume == null) {
        resume = Arrays.copyOf(lastReturned, lastReturned.length + 1);
      }
      return resume;
    }

    @Override
    protected RowScanner openNext() {
      byte[] from = resume();
      if (stop.length > 0 && Arrays.compareUnsigned(from, stop) >= 0) {
        return null;
      }
      return onRegion(from, r -> {
        regionEnd = r.descriptor().endRow();
        return r.scan(spec, from, stop);
      });
    }

    @Override
    protected void returned(byte[] row) {
      lastReturned = row;
      resume = null;
    }

    @Override
    protected boolean leaveRegion() {
      if (regionEnd.length == 0) {
        return false;
      }
      if (Arrays.compareUnsigned(regionEnd, resume()) > 0) {
        resume = regionEnd;
      }
      return true;
    }
  }

  private static final long RETRY_NANOS = 60_000_000_000L;

  /** Runs {@code op} on the region holding {@code row}, again if that region split meanwhile. */
  private <R> R onRegion(byte[] row, Function<Region, R> op) {
    return retrying(() -> regionFor(row), op);
  }

  /**
   * Runs {@code op} on the region {@code locate} finds (null: none, returns null), looking it
   * up again after a short wait while the region is closed or splitting, up to a deadline.
   */
  private <R> R retrying(Supplier<Region> locate, Function<Region, R> op) {
    return whileRegionsMove(db, () -> {
      Region r = locate.get();
      return r == null ? null : op.apply(r);
    });
  }

  /**
   * Runs {@code op} (which looks its regions up), again after a short wait while a region it
   * met was closed or splitting, up to a deadline.
   */
  static <R> R whileRegionsMove(Database db, Supplier<R> op) {
    long deadline = 0; // set at the first miss: a clock read per operation costs ~1% of a get
    while (true) {
      try {
        return op.get();
      } catch (RegionClosedException e) {
        db.checkOpen();
        long now = System.nanoTime();
        if (deadline == 0) {
          deadline = now + RETRY_NANOS;
        } else if (now > deadline) {
          throw e;
        }
        try {
          Thread.sleep(1);
        } catch (InterruptedException ie) {
          Thread.currentThread().interrupt();
          throw e;
        }
      }
    }
  }
}
