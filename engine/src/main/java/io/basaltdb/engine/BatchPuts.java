package io.basaltdb.engine;

import io.basaltdb.engine.region.MultiRegionWrite;
import io.basaltdb.engine.region.Region;
import io.basaltdb.storage.Cell;
import io.basaltdb.storage.Durability;
import io.basaltdb.storage.Put;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A put of many rows outside a transaction (what the SQL layer's batched writes call), written
 * a region's rows at a time, as HBase's batch mutation writes a region's share of a batch:
 * each group is one {@link MultiRegionWrite} (one sequence id, one log record, one MVCC
 * completion and one pass through the region's update lock, instead of one each per row).
 *
 * <p>The batch is cut into windows of consecutive puts of distinct rows and one durability (a
 * row met again starts a new window: a group's rows share a sequence id and, within a
 * millisecond, a timestamp, and the later put must land after the earlier); a window's puts
 * are grouped by region, at most {@link #GROUP_ROWS} to a group. A group locks its rows, so
 * groups are kept small: two loaders writing different rows of one region wait for each other
 * only when their rows share one of the region's lock stripes, which a group of 128 rows did
 * for most groups (9% of a two-thread load's time waiting). SKIP puts and a lone put go row by
 * row. A group is all-or-nothing: a put its region refuses leaves its group unwritten; groups
 * written before it stay written, as the rows before a refused one did row by row. A region
 * that splits or closes under a group is looked up again for the puts not yet written.
 * Stateless.
 */
final class BatchPuts {
  private BatchPuts() {}

  /** Puts of distinct rows considered together (then grouped by region). */
  static final int WINDOW_ROWS = 128;
  /** Rows of one region written as one write. */
  static final int GROUP_ROWS = 32;

  static void write(LocalTable table, List<Put> puts) {
    int from = 0;
    while (from < puts.size()) {
      Durability d = puts.get(from).durability();
      Set<ByteBuffer> rows = new HashSet<>();
      int to = from;
      while (to < puts.size() && to - from < WINDOW_ROWS && puts.get(to).durability() == d
          && rows.add(ByteBuffer.wrap(puts.get(to).row()))) {
        to++;
      }
      List<Put> window = puts.subList(from, to);
      if (d == Durability.SKIP || window.size() == 1) {
        for (Put p : window) {
          table.put(p);
        }
      } else {
        writeWindow(table, window, d);
      }
      from = to;
    }
  }

  /** Puts of distinct rows, one durability (not SKIP), a region's at a time. */
  private static void writeWindow(LocalTable table, List<Put> window, Durability d) {
    List<List<Cell>> cells = new ArrayList<>(window.size());
    for (Put p : window) {
      cells.add(table.cellsOf(p)); // refuses an empty put before any group is written
    }
    boolean[] written = new boolean[window.size()];
    Database db = table.database();
    LocalTable.whileRegionsMove(db, () -> {
      // looked up again after a region moved: only the puts not yet written
      Map<Region, List<Integer>> byRegion = new IdentityHashMap<>();
      List<Region> order = new ArrayList<>();
      for (int i = 0; i < window.size(); i++) {
        if (!written[i]) {
          Region r = table.regionFor(window.get(i).row());
          List<Integer> of = byRegion.get(r);
          if (of == null) {
            byRegion.put(r, of = new ArrayList<>());
            order.add(r);
          }
          of.add(i);
        }
      }
      for (Region r : order) {
        List<Integer> of = byRegion.get(r);
        for (int g = 0; g < of.size(); g += GROUP_ROWS) {
          List<Integer> group = of.subList(g, Math.min(of.size(), g + GROUP_ROWS));
          List<MultiRegionWrite.Part> parts = new ArrayList<>(group.size());
          for (int i : group) {
            parts.add(new MultiRegionWrite.Part(r, window.get(i).row(), cells.get(i)));
          }
          MultiRegionWrite.apply(parts, d, db.context());
          for (int i : group) {
            written[i] = true;
          }
        }
      }
      return null;
    });
  }
}
