package io.basaltdb.engine.region;

import io.basaltdb.storage.Cell;
import io.basaltdb.storage.Durability;
import io.basaltdb.storage.InvalidArgumentException;
import io.basaltdb.engine.wal.WalEdit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.locks.Lock;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * One write of several rows, in one or more regions (a row and its secondary-index entries),
 * applied atomically: every row's lock is taken in (region name, lock stripe) order
 * ({@link RowLocks#stripe}: ordering by row could deadlock on rows sharing a stripe), each
 * part's check (if any) sees its row's current cells under that lock (and a part that must be
 * unwritten since a point fails the write if any cell of its row is newer), one sequence id is
 * taken under every involved region's MVCC monitor ({@link Mvcc#beginAll}), the parts go to
 * the log as one record ({@code WriteAheadLog#appendAll}: a crash keeps all or none) and to the
 * memstores, and the write completes in every region before it returns. A reader at a read
 * point at or below every involved region's (sequence ids are global) sees all the parts or
 * none. If the log's sync fails, every part leaves its memstore before the writer hears of it,
 * as for a single-row write. SKIP durability is not offered (nothing would hold the parts
 * together). Stateless.
 */
public final class MultiRegionWrite {
  private MultiRegionWrite() {}

  /**
   * The cells to apply to one row of one region; {@code check}, when not null, sees the row's
   * current cells (latest version of each column, staged writes included) under the lock and
   * may throw to refuse the whole write (nothing is written).
   */
  public record Part(Region region, byte[] row, List<Cell> cells, Consumer<List<Cell>> check,
      SnapshotCut unwrittenSince) {
    public Part(Region region, byte[] row, List<Cell> cells) {
      this(region, row, cells, null, null);
    }

    public Part(Region region, byte[] row, List<Cell> cells, Consumer<List<Cell>> check) {
      this(region, row, cells, check, null);
    }
  }

  /**
   * Lock order (region name, then lock stripe), and within a stripe by row, so that the parts
   * of one row of one region are next to each other.
   */
  private static final Comparator<Part> LOCK_ORDER = (a, b) -> {
    if (a.region() != b.region()) {
      int c = a.region().name().compareTo(b.region().name());
      if (c != 0) {
        return c;
      }
    }
    int c = Integer.compare(RowLocks.stripe(a.row()), RowLocks.stripe(b.row()));
    return c != 0 ? c : Arrays.compareUnsigned(a.row(), b.row());
  };

  /**
   * A read-modify-write of several rows led by one: under {@code row}'s lock in {@code region},
   * {@code plan} sees the row's current cells (as {@link Part#check} does) and returns the parts
   * to write (the row's own among them, or not; empty: nothing is written), which are then
   * applied as {@link #apply} does while the lead row stays locked. The other parts must lie in
   * regions no write leads in (a table's index tables: their rows are only ever locked in
   * order, after a lead row): then no writer waits for a lead row while holding another
   * row's lock, and lead rows cannot deadlock.
   */
  public static void applyAfterRead(Region region, byte[] row, Durability durability,
      Function<List<Cell>, List<Part>> plan, RegionContext ctx) {
    region.writes().admit(row, List.of());
    Lock lock = region.writes().lockRow(row);
    try {
      List<Part> parts = plan.apply(region.writes().readLocked(row));
      if (!parts.isEmpty()) {
        apply(parts, durability, ctx);
      }
    } finally {
      lock.unlock();
    }
  }

  /**
   * Applies {@code parts} (distinct rows; at least one) atomically. A {@link
   * RegionClosedException} (a region splitting or closing meanwhile) leaves nothing written;
   * the caller looks the regions up again and retries.
   */
  public static void apply(List<Part> parts, Durability durability, RegionContext ctx) {
    if (durability == Durability.SKIP) {
      throw new InvalidArgumentException("a write of several rows at once is logged: SKIP"
          + " durability is not offered for it");
    }
    List<Part> sorted = new ArrayList<>(parts);
    sorted.sort(LOCK_ORDER);
    for (int i = 1; i < sorted.size(); i++) {
      if (LOCK_ORDER.compare(sorted.get(i - 1), sorted.get(i)) == 0) {
        throw new InvalidArgumentException("row " + Cell.printable(sorted.get(i).row())
            + " appears twice in one write; merge its changes");
      }
    }
    for (Part p : sorted) {
      p.region().writes().admit(p.row(), p.cells());
    }
    List<Region> regions = new ArrayList<>();
    for (Part p : sorted) {
      if (regions.isEmpty() || regions.get(regions.size() - 1) != p.region()) {
        regions.add(p.region());
      }
    }
    List<Lock> locks = new ArrayList<>(sorted.size());
    List<Mvcc.WriteEntry> entries = null;
    List<List<Cell>> stamped = new ArrayList<>(sorted.size());
    long walPosition;
    try {
      for (Part p : sorted) {
        locks.add(p.region().writes().lockRow(p.row()));
      }
      checkConflicts(sorted);
      for (Part p : sorted) {
        if (p.check() != null) {
          p.check().accept(p.region().writes().readLocked(p.row()));
        }
      }
      int entered = 0;
      try {
        for (Region r : regions) {
          r.enterWrite();
          entered++;
        }
        List<Mvcc> mvccs = new ArrayList<>(regions.size());
        regions.forEach(r -> mvccs.add(r.mvcc()));
        entries = Mvcc.beginAll(mvccs, ctx.order());
        long seq = entries.get(0).sequenceId();
        long now = ctx.options().clock().millis();
        List<WalEdit> edits = new ArrayList<>(sorted.size());
        for (Part p : sorted) {
          List<Cell> cells = p.region().writes().stamp(p.row(), p.cells(), seq, now);
          stamped.add(cells);
          edits.add(new WalEdit(seq, p.region().nameBytes(), cells));
        }
        walPosition = ctx.wal().appendAll(edits);
        ctx.fs().crashPoint("write.afterLog");
        for (int i = 0; i < sorted.size(); i++) {
          sorted.get(i).region().writes().addToMemstores(stamped.get(i));
        }
      } catch (RuntimeException e) {
        if (entries != null) {
          for (int i = 0; i < stamped.size() && i < sorted.size(); i++) {
            sorted.get(i).region().writes().removeFromMemstores(stamped.get(i));
          }
          completeAll(regions, entries);
        }
        throw e;
      } finally {
        for (int i = 0; i < entered; i++) {
          regions.get(i).exitWrite();
        }
      }
    } finally {
      for (Lock l : locks) {
        l.unlock();
      }
    }
    if (durability == Durability.SYNC) {
      try {
        ctx.wal().sync(walPosition);
      } catch (RuntimeException e) {
        // told it failed: never seen, never flushed (the log is poisoned: no flush runs)
        for (int i = 0; i < sorted.size(); i++) {
          sorted.get(i).region().writes().removeFromMemstores(stamped.get(i));
        }
        completeAll(regions, entries);
        throw e;
      }
    }
    completeAll(regions, entries);
    int part = 0;
    for (int i = 0; i < regions.size(); i++) {
      regions.get(i).mvcc().awaitReadPoint(entries.get(i).sequenceId());
      int rows = 0;
      while (part < sorted.size() && sorted.get(part).region() == regions.get(i)) {
        rows++; // sorted by region, in the order of regions
        part++;
      }
      regions.get(i).writes().written(rows);
    }
  }

  private static void completeAll(List<Region> regions, List<Mvcc.WriteEntry> entries) {
    for (int i = 0; i < regions.size(); i++) {
      regions.get(i).mvcc().complete(entries.get(i));
    }
  }

  /**
   * Fails the write ({@link io.basaltdb.storage.WriteConflictException}) when a row with an
   * {@code unwrittenSince} cut was written by another writer since, under the rows' locks: a
   * row whose lock stripe has had no write above the cut's floor is not read; the others of one
   * region (consecutive in lock order) are read over one acquisition of its stores' views.
   */
  private static void checkConflicts(List<Part> sorted) {
    boolean any = false;
    for (Part p : sorted) {
      any |= p.unwrittenSince() != null;
    }
    if (!any) {
      return; // an auto-commit write: nothing to check, nothing made
    }
    int i = 0;
    while (i < sorted.size()) {
      Region region = sorted.get(i).region();
      List<byte[]> rows = new ArrayList<>();
      List<SnapshotCut> cuts = new ArrayList<>();
      for (; i < sorted.size() && sorted.get(i).region() == region; i++) {
        Part p = sorted.get(i);
        if (p.unwrittenSince() != null && !region.writes().unwrittenSince(p.row(),
            p.unwrittenSince())) {
          rows.add(p.row());
          cuts.add(p.unwrittenSince());
        }
      }
      int written = rows.isEmpty() ? -1 : region.reads().firstWrittenAfter(rows, cuts);
      if (written >= 0) {
        throw new io.basaltdb.storage.WriteConflictException("row "
            + Cell.printable(rows.get(written)) + " of region " + region.name()
            + " was written by another writer since its snapshot (" + cuts.get(written) + ")");
      }
    }
  }
}
