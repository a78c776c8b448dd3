package io.basaltdb.engine;

import io.basaltdb.storage.Cell;
import io.basaltdb.storage.Durability;
import io.basaltdb.storage.InvalidArgumentException;
import io.basaltdb.storage.Result;
import io.basaltdb.storage.RowChange;
import io.basaltdb.storage.Table;
import io.basaltdb.engine.region.MultiRegionWrite;
import io.basaltdb.engine.region.RegionContext;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Writes of several rows of one or more tables as one ({@link MultiRegionWrite}): logged as one
 * record, so a crash keeps all of them or none; each row locked meanwhile; visible in each
 * region once complete in all. Retried whole while a region splits or closes under them.
 * Stateless.
 */
final class AtomicWrites {
  private AtomicWrites() {}

  /**
   * Applies {@code changes} (a row appears at most once) at the first mutation's durability
   * (SYNC or ASYNC).
   */
  static void apply(Database db, List<RowChange> changes, RegionContext ctx) {
    if (changes.isEmpty()) {
      return;
    }
    Durability durability = changes.get(0).durability();
    LocalTable.whileRegionsMove(db, () -> {
      MultiRegionWrite.apply(parts(db, changes), durability, ctx);
      return null;
    });
  }

  /**
   * Under {@code row}'s lock, {@code plan} sees the row's current cells (latest version of each
   * column, writes still completing included) and returns the changes to make, applied as
   * {@link #apply} applies them while the row stays locked; no change: nothing is written.
   * {@code plan} may run more than once (again when a region moved under the write) and may
   * throw to write nothing. Its other rows must be of tables no such write leads in (a table's
   * index tables), or two writers could deadlock.
   */
  static void applyAfterRead(Database db, Table table, byte[] row, Durability durability,
      Function<Result, List<RowChange>> plan, RegionContext ctx) {
    LocalTable.whileRegionsMove(db, () -> {
      MultiRegionWrite.applyAfterRead(local(db, table).regionFor(row), row, durability,
          cells -> parts(db, plan.apply(new Result(row, cells))), ctx);
      return null;
    });
  }

  /**
   * One row's cells for {@link #applyCells}, to be written only if the row holds no cell that
   * the snapshot cut {@code unwrittenSince} does not see (null: no such condition).
   */
  record RowCells(LocalTable table, byte[] row, List<io.basaltdb.storage.Cell> cells,
      io.basaltdb.engine.region.SnapshotCut unwrittenSince) {}

  /**
   * Writes the rows' cells (each row once; timestamps already set) as one write at {@code
   * durability}, or nothing if a row was written since its point ({@link
   * WriteConflictException}): a transaction's commit.
   */
  static void applyCells(Database db, List<RowCells> rows, Durability durability,
      RegionContext ctx) {
    LocalTable.whileRegionsMove(db, () -> {
      List<MultiRegionWrite.Part> parts = new ArrayList<>(rows.size());
      for (RowCells r : rows) {
        parts.add(new MultiRegionWrite.Part(r.table().regionFor(r.row()), r.row(), r.cells(),
            null, r.unwrittenSince()));
      }
      MultiRegionWrite.apply(parts, durability, ctx);
      return null;
    });
  }

  private static List<MultiRegionWrite.Part> parts(Database db, List<RowChange> changes) {
    List<MultiRegionWrite.Part> parts = new ArrayList<>(changes.size());
    for (RowChange c : changes) {
      byte[] row = c.mutation().row();
      Consumer<List<io.basaltdb.storage.Cell>> check = c.check() == null ? null
          : cells -> c.check().accept(new Result(row, cells));
      LocalTable t = local(db, c.table());
      parts.add(new MultiRegionWrite.Part(t.regionFor(row), row, t.cellsOf(c.mutation()), check));
    }
    return parts;
  }

  /** {@code t} as a table of {@code db}: one atomic write stays within one database. */
  private static LocalTable local(Database db, Table t) {
    if (t instanceof LocalTable lt && lt.database() == db) {
      return lt;
    }
    throw new InvalidArgumentException("table " + t.name() + " is not a table of database "
        + db.directory() + "; an atomic write stays within one database");
  }
}
