package io.basaltdb.engine;

import io.basaltdb.storage.Append;
import io.basaltdb.storage.Cell;
import io.basaltdb.storage.CellType;
import io.basaltdb.storage.CheckAndMutate;
import io.basaltdb.storage.CounterOverflowException;
import io.basaltdb.storage.Delete;
import io.basaltdb.storage.Durability;
import io.basaltdb.storage.Get;
import io.basaltdb.storage.Increment;
import io.basaltdb.storage.InvalidArgumentException;
import io.basaltdb.storage.Mutation;
import io.basaltdb.storage.Put;
import io.basaltdb.storage.Result;
import io.basaltdb.storage.Row;
import io.basaltdb.storage.RowMutations;
import io.basaltdb.storage.Table;
import io.basaltdb.engine.region.ReadSpec;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * The write operations of a {@link Table} (puts, deletes, row mutations, increments, appends,
 * check-and-mutate), each turned into the cells of one row written at once ({@link #writeRow})
 * or from the row's current cells ({@link #writeRowWith}): the embedded table writes them to
 * its region under the row's lock or into its transaction ({@link LocalTable}), a client-side
 * transaction into its own writes ({@link ClientTransaction}). Stateless beyond its subclass.
 */
abstract class RowWriteTable implements Table {
  /** The table's family names, as its writes must use them. */
  /** The gets one by one (both engine tables read a row at a time). */
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

  abstract Set<byte[]> familySet();

  /** The error of a read or write naming a family the table does not have. */
  InvalidArgumentException unknownFamily(byte[] family) {
    return new InvalidArgumentException("unknown column family '"
        + new String(family, StandardCharsets.UTF_8) + "' in table " + name() + "; families: "
        + descriptor().families().keySet());
  }

  /** Writes {@code cells} (a put's, a delete's markers, row mutations') to {@code row}. */
  abstract List<Cell> writeRow(byte[] row, List<Cell> cells, Durability d);

  /**
   * Writes to {@code row} the cells {@code fn} makes of the row's current cells that {@code
   * read} asks for (none: nothing), atomically with that read; returns them as written.
   */
  abstract List<Cell> writeRowWith(byte[] row, Durability d, ReadSpec read,
      Function<List<Cell>, List<Cell>> fn);


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
  List<Cell> flatten(RowMutations rm) {
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

  static boolean covers(Cell marker, Cell put) {
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
        throw unknownFamily(c.family());
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

  static Cell find(List<Cell> cells, byte[] family, byte[] qualifier) {
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
}
