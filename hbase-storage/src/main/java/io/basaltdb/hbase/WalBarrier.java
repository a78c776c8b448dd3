package io.basaltdb.hbase;

import io.basaltdb.storage.Cell;
import io.basaltdb.storage.CheckAndMutate;
import io.basaltdb.storage.Durability;
import io.basaltdb.storage.Put;
import io.basaltdb.storage.RowMutations;
import io.basaltdb.storage.StorageUnavailableException;
import io.basaltdb.storage.TableName;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hbase.HRegionLocation;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Mutation;
import org.apache.hadoop.hbase.client.RegionLocator;
import org.apache.hadoop.hbase.client.Table;

/**
 * A batch of check-and-puts made durable with one WAL sync per region instead of one per row.
 * A region server runs a batch's check-and-mutates one by one, each with its own WAL sync
 * (HBase keeps them out of its mini-batches of puts): 13-20k rows/s here, against 83k when
 * they are ASYNC_WAL (hbase.md). So the batch's edits go ASYNC_WAL, and once HBase has
 * answered, a <em>barrier</em> is written SYNC_WAL into every region the batch touched: a
 * delete of one version, at {@link #TIMESTAMP}, of the cell {@link #QUALIFIER} that no put
 * writes, in a row of the batch. A WAL is one sequential log: syncing the barrier's entry syncs
 * every entry appended before it, and the batch's were appended before HBase answered.
 *
 * <p>That holds while each region stays on the server (and WAL) that took the batch. If a
 * region's location changed between before the batch and after the barrier (moved, split,
 * or its server died and it was reopened elsewhere, perhaps without the batch's unsynced
 * edits), the rows the batch applied there are read back: each put's cells at their
 * timestamps with their values. A row that no longer shows them (lost, or overwritten since)
 * fails the batch as unknown ({@link StorageUnavailableException}). The edits are visible to
 * readers before the barrier syncs them: a reader can see a row that a region server's crash
 * then takes back, whose writer got an error (hbase.md, Mapping).
 *
 * <p>Only batches of two or more check-and-mutates whose actions are puts or row mutations,
 * none SKIP, take this path; the rest keep one SYNC_WAL call each.
 */
final class WalBarrier {
  /** The barrier's cell: a qualifier no Basalt name takes (SQL names do not start with NUL). */
  static final byte[] QUALIFIER = "\0basalt-wal-barrier".getBytes(StandardCharsets.UTF_8);
  /** The version the barrier deletes: a timestamp no write takes (clocks are far below it). */
  static final long TIMESTAMP = Long.MAX_VALUE - 1;

  private WalBarrier() {}

  /** Whether {@code cams} go this way. */
  static boolean applies(List<CheckAndMutate> cams) {
    if (cams.size() < 2) {
      return false;
    }
    for (CheckAndMutate cam : cams) {
      if (!(cam.action() instanceof Put || cam.action() instanceof RowMutations)
          || durability(cam) == Durability.SKIP) {
        return false;
      }
    }
    return true;
  }

  private static Durability durability(CheckAndMutate cam) {
    if (cam.action() instanceof Put p) {
      return p.durability();
    }
    Durability d = Durability.SKIP;
    for (var m : ((RowMutations) cam.action()).mutations()) {
      if (m.durability().compareTo(d) < 0) {
        d = m.durability(); // SYNC < ASYNC < SKIP
      }
    }
    return d;
  }

  /**
   * Where a row of the batch was: region (its encoded name, kept by HBase's region info: no
   * string made per row), server (host, port, start code) and the region's open sequence number.
   */
  private record Place(String region, ServerName server, long openSeq) {
    static Place of(HRegionLocation l) {
      return new Place(l.getRegion().getEncodedName(), l.getServerName(), l.getSeqNum());
    }
  }

  /** Runs {@code batch} (HBase's forms of {@code cams}, in order); which were applied. */
  static boolean[] run(Table t, RegionLocator locator, TableName name, List<CheckAndMutate> cams,
      List<org.apache.hadoop.hbase.client.CheckAndMutate> batch) throws IOException {
    for (var cam : batch) {
      var action = cam.getAction();
      if (action instanceof org.apache.hadoop.hbase.client.RowMutations rm) {
        rm.getMutations().forEach(m -> m.setDurability(
            org.apache.hadoop.hbase.client.Durability.ASYNC_WAL));
      } else {
        ((Mutation) action).setDurability(org.apache.hadoop.hbase.client.Durability.ASYNC_WAL);
      }
    }
    Place[] before = places(locator, cams);
    var results = t.checkAndMutate(batch);
    boolean[] applied = new boolean[cams.size()];
    for (int i = 0; i < applied.length; i++) {
      applied[i] = results.get(i).isSuccess();
    }
    t.delete(barriers(cams, before));
    Place[] after = places(locator, cams);
    List<Integer> moved = new ArrayList<>();
    for (int i = 0; i < cams.size(); i++) {
      if (applied[i] && !before[i].equals(after[i])) {
        moved.add(i);
      }
    }
    if (!moved.isEmpty()) {
      confirm(t, name, cams, moved);
    }
    return applied;
  }

  private static Place[] places(RegionLocator locator, List<CheckAndMutate> cams)
      throws IOException {
    Place[] out = new Place[cams.size()];
    for (int i = 0; i < out.length; i++) {
      out[i] = Place.of(locator.getRegionLocation(cams.get(i).row(), false));
    }
    return out;
  }

  /** One SYNC_WAL barrier per region of the batch, in the first of its rows. */
  private static List<org.apache.hadoop.hbase.client.Delete> barriers(List<CheckAndMutate> cams,
      Place[] at) {
    Map<String, org.apache.hadoop.hbase.client.Delete> perRegion = new LinkedHashMap<>();
    for (int i = 0; i < cams.size(); i++) {
      CheckAndMutate cam = cams.get(i);
      perRegion.computeIfAbsent(at[i].region(), r -> {
        var d = new org.apache.hadoop.hbase.client.Delete(cam.row());
        d.addColumn(cam.family(), QUALIFIER, TIMESTAMP);
        d.setDurability(org.apache.hadoop.hbase.client.Durability.SYNC_WAL);
        return d;
      });
    }
    return new ArrayList<>(perRegion.values());
  }

  /**
   * Reads back the applied rows of regions that moved during the batch: each put cell must be
   * there, at its timestamp, with its value; else the batch's outcome is unknown.
   */
  private static void confirm(Table t, TableName name, List<CheckAndMutate> cams,
      List<Integer> moved) throws IOException {
    List<Get> gets = new ArrayList<>(moved.size());
    List<List<Cell>> expected = new ArrayList<>(moved.size());
    for (int i : moved) {
      List<Cell> cells = putCells(cams.get(i));
      Get g = new Get(cams.get(i).row()).readAllVersions();
      cells.forEach(c -> g.addColumn(c.family(), c.qualifier()));
      gets.add(g);
      expected.add(cells);
    }
    var rows = t.get(gets);
    for (int k = 0; k < rows.length; k++) {
      for (Cell c : expected.get(k)) {
        if (!holds(rows[k], c)) {
          throw new StorageUnavailableException("HBase moved a region of " + name
              + " while a batch of check-and-mutates was written; row "
              + Cell.printable(c.row()) + " no longer shows its write, which may be lost:"
              + " the batch's outcome is unknown (rows before and after it may be written)",
              null);
        }
      }
    }
  }

  private static List<Cell> putCells(CheckAndMutate cam) {
    if (cam.action() instanceof Put p) {
      return p.cells();
    }
    List<Cell> out = new ArrayList<>();
    for (var m : ((RowMutations) cam.action()).mutations()) {
      if (m instanceof Put p) {
        out.addAll(p.cells());
      }
    }
    return out;
  }

  private static boolean holds(org.apache.hadoop.hbase.client.Result r, Cell c) {
    for (org.apache.hadoop.hbase.Cell stored : r.getColumnCells(c.family(), c.qualifier())) {
      if ((c.timestamp() == Cell.LATEST_TIMESTAMP || stored.getTimestamp() == c.timestamp())
          && Arrays.equals(org.apache.hadoop.hbase.CellUtil.cloneValue(stored), c.value())) {
        return true;
      }
    }
    return false;
  }
}
