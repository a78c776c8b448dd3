package io.basaltdb.engine;

import io.basaltdb.engine.region.ReadSpec;
import io.basaltdb.engine.region.Region;
import io.basaltdb.engine.region.RegionClosedException;
import io.basaltdb.engine.region.RowScanner;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The embedded engine's {@link Table}: each operation finds the region of this database holding
 * its row at the time it runs, again if that region split or closed meanwhile. Thread-safe and
 * cheap to make.
 */
final class LocalTable implements Table {
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
   * Whether a write above sequence {@code point} touched {@code [start, stop)} of this table
   * (empty stop: to the end), region by region.
   */
  boolean writtenAfter(byte[] start, byte[] stop, long point) {
    byte[] resume = start;
    while (true) {
      byte[][] end = new byte[1][];
      byte[] from = resume;
      Boolean found = onRegion(from, r -> {
        end[0] = r.descriptor().endRow();
        return r.writtenAfter(from, stop, point);
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

  /** Checks a write of {@code cells} to {@code row} as its region would, writing nothing. */
  void checkWrite(byte[] row, List<Cell> cells) {
    onRegion(row, r -> {
      r.checkWrite(row, cells);
      return null;
    });
  }

  /** The family of {@code c} as the table's stores name it (an unknown one refused). */
  byte[] familyOf(byte[] row, Cell c) {
    return onRegion(row, r -> r.familyOf(c));
  }

  /** Writes one row's cells: to its region, or into the transaction. */
  private List<Cell> writeRow(byte[] row, List<Cell> cells, Durability d) {
    return tx != null ? tx.write(this, row, cells)
        : onRegion(row, r -> r.mutateRow(row, cells, d));
  }

  /** A read-modify-write of one row: in its region under its lock, or in the transaction. */
  private List<Cell> writeRowWith(byte[] row, Durability d, ReadSpec read,
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
    Database.TableState s = db.state(name);
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

  // ------------------------------------------------------------ writes

  @Override
  public void put(Put put) {
    if (put.isEmpty()) {
      throw new InvalidArgumentException("put of row " + Cell.printable(put.row())
          + " has no columns");
    }
    writeRow(put.row(), put.cells(), put.durability());
  }

  @Override
  public void put(List<Put> puts) {
    for (Put p : puts) {
      put(p);
    }
  }

  @Override
  public void delete(Delete delete) {
    List<Cell> markers = delete.markers(familySet());
    writeRow(delete.row(), markers, delete.durability());
  }

  @Override
  public void delete(List<Delete> deletes) {
    for (Delete d : deletes) {
      delete(d);
    }
  }

  @Override
  public void mutateRow(RowMutations rm) {
    if (rm.mutations().isEmpty()) {
      return;
    }
    List<Cell> cells = flatten(rm);
    writeRow(rm.row(), cells, rm.mutations().get(0).durability());
  }

  /**
   * One row mutation's cells, in order. All share one sequence id, so a delete cannot cover a
   * put of the same mutation by sequence: a later delete removes the earlier puts it covers
   * here instead.
   */
  private List<Cell> flatten(RowMutations rm) {
    List<Cell> out = new ArrayList<>();
    for (Mutation m : rm.mutations()) {
      List<Cell> cells = m instanceof Delete d ? d.markers(familySet()) : m.cells();
      for (Cell c : cells) {
        if (c.type().isDelete()) {
          out.removeIf(p -> p.type() == CellType.PUT && covers(c, p));
        }
        out.add(c);
      }
    }
    return out;
  }

  private static boolean covers(Cell marker, Cell put) {
    if (!Arrays.equals(marker.family(), put.family())) {
      return false;
    }
    boolean sameColumn = Arrays.equals(marker.qualifier(), put.qualifier());
    long mts = marker.timestamp();
    long pts = put.timestamp();
    return switch (marker.type()) {
      case DELETE_FAMILY -> pts <= mts;
      case DELETE_FAMILY_VERSION -> pts == mts;
      case DELETE_COLUMN -> sameColumn && pts <= mts;
      case DELETE -> sameColumn && (mts == Cell.LATEST_TIMESTAMP || pts == mts);
      default -> false;
    };
  }

  @Override
  public Result increment(Increment inc) {
    checkColumns(inc);
    List<Cell> written = writeRowWith(inc.row(), inc.durability(), readSpec(inc, null, null),
        current -> incremented(inc, current));
    return new Result(inc.row(), written);
  }

  private void checkColumns(Increment inc) {
    if (inc.amounts().isEmpty()) {
      throw new InvalidArgumentException("increment of row " + Cell.printable(inc.row())
          + " has no columns");
    }
    for (Increment.Column c : inc.amounts().keySet()) {
      if (!familySet().contains(c.family())) {
        throw new InvalidArgumentException("unknown column family '"
            + new String(c.family(), StandardCharsets.UTF_8) + "' in table " + name
            + "; families: " + descriptor().families().keySet());
      }
    }
  }

  /** A read of the latest value of the increment's columns, and of one more column if given. */
  private static ReadSpec readSpec(Increment inc, byte[] family, byte[] qualifier) {
    Map<byte[], java.util.NavigableSet<byte[]>> columns = new java.util.TreeMap<>(
        Arrays::compareUnsigned);
    for (Increment.Column c : inc.amounts().keySet()) {
      columns.computeIfAbsent(c.family(), f -> new java.util.TreeSet<>(Arrays::compareUnsigned))
          .add(c.qualifier());
    }
    if (family != null) {
      columns.computeIfAbsent(family, f -> new java.util.TreeSet<>(Arrays::compareUnsigned))
          .add(qualifier);
    }
    return new ReadSpec(columns, 0, Long.MAX_VALUE, 1);
  }

  /** The increment's new counter cells over the row's {@code current} ones. */
  private static List<Cell> incremented(Increment inc, List<Cell> current) {
    List<Cell> puts = new ArrayList<>();
    for (Map.Entry<Increment.Column, Long> e : inc.amounts().entrySet()) {
      Cell old = find(current, e.getKey().family(), e.getKey().qualifier());
      long base = 0;
      if (old != null) {
        try {
          base = Increment.toLong(old.value());
        } catch (InvalidArgumentException ex) {
          throw new InvalidArgumentException("cannot increment " + describe(inc.row(),
              e.getKey()) + ": " + ex.getMessage());
        }
      }
      long sum;
      try {
        sum = Math.addExact(base, e.getValue());
      } catch (ArithmeticException ex) {
        throw new CounterOverflowException("cannot increment " + describe(inc.row(), e.getKey())
            + ": " + base + " + " + e.getValue() + " is out of a long's range");
      }
      puts.add(Cell.put(inc.row(), e.getKey().family(), e.getKey().qualifier(),
          Cell.LATEST_TIMESTAMP, Increment.toBytes(sum)));
    }
    return puts;
  }

  @Override
  public long incrementColumnValue(byte[] row, byte[] family, byte[] qualifier, long amount) {
    Result r = increment(new Increment(row).addColumn(family, qualifier, amount));
    return Increment.toLong(r.cells().get(0).value());
  }

  @Override
  public Result append(Append app) {
    if (app.suffixes().isEmpty()) {
      throw new InvalidArgumentException("append to row " + Cell.printable(app.row())
          + " has no columns");
    }
    List<Cell> written = writeRowWith(app.row(), app.durability(), ReadSpec.LATEST,
        current -> {
          List<Cell> puts = new ArrayList<>();
          for (Map.Entry<Increment.Column, byte[]> e : app.suffixes().entrySet()) {
            Cell old = find(current, e.getKey().family(), e.getKey().qualifier());
            byte[] base = old == null ? new byte[0] : old.value();
            byte[] v = Arrays.copyOf(base, base.length + e.getValue().length);
            System.arraycopy(e.getValue(), 0, v, base.length, e.getValue().length);
            puts.add(Cell.put(app.row(), e.getKey().family(), e.getKey().qualifier(),
                Cell.LATEST_TIMESTAMP, v));
          }
          return puts;
        });
    return new Result(app.row(), written);
  }

  @Override
  public boolean checkAndMutate(CheckAndMutate cam) {
    boolean[] applied = {false};
    Row action = cam.action();
    List<Cell> cells;
    Durability d;
    if (action instanceof Increment inc) {
      checkColumns(inc);
      writeRowWith(cam.row(), inc.durability(), readSpec(inc, cam.family(), cam.qualifier()),
          current -> {
            Cell c = find(current, cam.family(), cam.qualifier());
            applied[0] = cam.test(c == null ? null : c.value());
            return applied[0] ? incremented(inc, current) : List.of();
          });
      return applied[0];
    }
    if (action instanceof RowMutations rm) {
      cells = flatten(rm);
      d = rm.mutations().isEmpty() ? Durability.SYNC : rm.mutations().get(0).durability();
    } else if (action instanceof Delete del) {
      cells = del.markers(familySet());
      d = del.durability();
    } else {
      cells = ((Mutation) action).cells();
      d = ((Mutation) action).durability();
    }
    // only the checked column is read
    java.util.NavigableSet<byte[]> qualifier = new java.util.TreeSet<>(Arrays::compareUnsigned);
    qualifier.add(cam.qualifier());
    ReadSpec read = new ReadSpec(Map.of(cam.family(), qualifier), 0, Long.MAX_VALUE, 1);
    writeRowWith(cam.row(), d, read, current -> {
      Cell c = find(current, cam.family(), cam.qualifier());
      applied[0] = cam.test(c == null ? null : c.value());
      return applied[0] ? cells : List.of();
    });
    return applied[0];
  }

  private static Cell find(List<Cell> cells, byte[] family, byte[] qualifier) {
    for (Cell c : cells) {
      if (Arrays.equals(c.family(), family) && Arrays.equals(c.qualifier(), qualifier)) {
        return c;
      }
    }
    return null;
  }

  private static String describe(byte[] row, Increment.Column col) {
    return Cell.printable(row) + "/" + new String(col.family(), StandardCharsets.UTF_8) + ":"
        + Cell.printable(col.qualifier());
  }

  // ------------------------------------------------------------ reads

  @Override
  public Result get(Get get) {
    if (tx != null) {
      tx.read(name, get.row(), Arrays.copyOf(get.row(), get.row().length + 1));
    }
    ReadSpec spec = spec(get);
    List<Cell> cells = onRegion(get.row(), r -> r.get(get.row(), spec));
    return cells.isEmpty() ? Result.EMPTY : new Result(get.row(), cells);
  }

  @Override
  public List<Result> get(List<Get> gets) {
    List<Result> out = new ArrayList<>(gets.size());
    for (Get g : gets) {
      out.add(get(g));
    }
    return out;
  }

  @Override
  public boolean exists(Get get) {
    return !get(get).isEmpty();
  }

  private ReadSpec spec(ReadRequest<?> r) {
    ReadSpec spec = plainSpec(r);
    return tx == null ? spec : tx.spec(name, spec, r.snapshot());
  }

  private ReadSpec plainSpec(ReadRequest<?> r) {
    Set<byte[]> wanted = r.familySet();
    Set<byte[]> known = wanted.isEmpty() ? Set.of() : familySet();
    for (byte[] f : wanted) {
      if (!known.contains(f)) {
        throw new InvalidArgumentException("unknown column family '"
            + new String(f, StandardCharsets.UTF_8) + "' in table " + name + "; families: "
            + descriptor().families().keySet());
      }
    }
    return r.toSpec();
  }

  private Set<byte[]> familySet() {
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
    private byte[] resume;
    private byte[] regionEnd;

    TableScanner(ReadSpec spec, byte[] start, byte[] stop, long limit) {
      super(limit);
      this.spec = spec;
      this.resume = start;
      this.stop = stop;
    }

    @Override
    protected RowScanner openNext() {
      if (stop.length > 0 && Arrays.compareUnsigned(resume, stop) >= 0) {
        return null;
      }
      return onRegion(resume, r -> {
        regionEnd = r.descriptor().endRow();
        return r.scan(spec, resume, stop);
      });
    }

    @Override
    protected void returned(byte[] row) {
      resume = Arrays.copyOf(row, row.length + 1);
    }

    @Override
    protected boolean leaveRegion() {
      if (regionEnd.length == 0) {
        return false;
      }
      if (Arrays.compareUnsigned(regionEnd, resume) > 0) {
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
    long deadline = System.nanoTime() + RETRY_NANOS;
    while (true) {
      try {
        return op.get();
      } catch (RegionClosedException e) {
        db.checkOpen();
        if (System.nanoTime() > deadline) {
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
