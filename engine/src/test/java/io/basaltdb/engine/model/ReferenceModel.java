package io.basaltdb.engine.model;

import io.basaltdb.storage.Cell;
import io.basaltdb.storage.CellType;
import io.basaltdb.storage.FamilyOptions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.NavigableSet;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The engine's semantics written as plainly as possible, for comparison: every write kept in a
 * list, every read computed from scratch by the rules in {@code CellResolver}'s header (which
 * this class restates independently rather than calling).
 */
final class ReferenceModel {
  record Rec(String family, byte[] row, byte[] qualifier, long ts, CellType type, long seq,
      byte[] value) {}

  private final Map<String, FamilyOptions> families;
  private final List<Rec> recs = new ArrayList<>();
  private long seq;

  ReferenceModel(Map<String, FamilyOptions> families) {
    this.families = families;
  }

  /** Applies one row mutation as the engine stamps it. */
  void apply(byte[] row, List<Cell> cells, long now) {
    long s = ++seq;
    List<Rec> add = new ArrayList<>();
    for (Cell c : cells) {
      String f = new String(c.family());
      long ts = c.timestamp();
      if (ts == Cell.LATEST_TIMESTAMP) {
        ts = now;
        if (c.type() == CellType.DELETE) {
          List<Rec> v = visible(f, row, c.qualifier(), 0, Long.MAX_VALUE, 1, now);
          if (!v.isEmpty()) {
            ts = v.get(0).ts;
          }
        }
      }
      add.add(new Rec(f, row, c.type().isFamilyMarker() ? new byte[0] : c.qualifier(), ts,
          c.type(), s, c.value()));
    }
    recs.addAll(add);
  }

  /** Visible versions of one column, newest first, after the query's range and versions. */
  List<Rec> visible(String f, byte[] row, byte[] q, long minTs, long maxTs, int versions,
      long now) {
    FamilyOptions fo = families.get(f);
    List<Rec> puts = new ArrayList<>();
    List<Rec> markers = new ArrayList<>();
    for (Rec r : recs) {
      if (!r.family.equals(f) || !Arrays.equals(r.row, row)) {
        continue;
      }
      if (r.type.isFamilyMarker()) {
        markers.add(r);
      } else if (Arrays.equals(r.qualifier, q)) {
        (r.type == CellType.PUT ? puts : markers).add(r);
      }
    }
    puts.sort(Comparator.comparingLong((Rec r) -> -r.ts).thenComparingLong(r -> -r.seq));
    Set<Long> seen = new HashSet<>();
    List<Rec> live = new ArrayList<>();
    for (Rec p : puts) {
      if (!seen.add(p.ts)) {
        continue;
      }
      boolean covered = false;
      for (Rec m : markers) {
        boolean range = m.type == CellType.DELETE_COLUMN || m.type == CellType.DELETE_FAMILY;
        if (range && m.ts >= p.ts && m.seq > p.seq) {
          covered = true;
        }
      }
      if (!covered) {
        live.add(p);
      }
    }
    long expiry = fo.ttlSeconds() == 0 ? Long.MIN_VALUE : now - fo.ttlSeconds() * 1000;
    List<Rec> kept = new ArrayList<>();
    for (int i = 0; i < Math.min(live.size(), fo.maxVersions()); i++) {
      Rec p = live.get(i);
      boolean versionDeleted = false;
      for (Rec m : markers) {
        boolean exact = m.type == CellType.DELETE || m.type == CellType.DELETE_FAMILY_VERSION;
        if (exact && m.ts == p.ts && m.seq > p.seq) {
          versionDeleted = true;
        }
      }
      boolean expired = p.ts < expiry;
      if (!versionDeleted && (!expired || i < fo.minVersions())) {
        kept.add(p);
      }
    }
    List<Rec> out = new ArrayList<>();
    for (Rec p : kept) {
      if (p.ts >= minTs && p.ts < maxTs && out.size() < versions) {
        out.add(p);
      }
    }
    return out;
  }

  /** A row as the engine returns it, rendered as text; families null = all. */
  List<String> get(byte[] row, Map<String, NavigableSet<byte[]>> wanted, long minTs, long maxTs,
      int versions, long now) {
    List<String> out = new ArrayList<>();
    for (Rec p : getCells(row, wanted, minTs, maxTs, versions, now)) {
      out.add(render(p.family, p.qualifier, p.ts, p.value));
    }
    return out;
  }

  /** A row's visible cells in the engine's order; families null = all. */
  List<Rec> getCells(byte[] row, Map<String, NavigableSet<byte[]>> wanted, long minTs,
      long maxTs, int versions, long now) {
    List<Rec> out = new ArrayList<>();
    TreeMap<byte[], String> fams = new TreeMap<>(Arrays::compareUnsigned);
    for (String f : (wanted == null ? families.keySet() : wanted.keySet())) {
      fams.put(f.getBytes(), f);
    }
    for (String f : fams.values()) {
      NavigableSet<byte[]> quals = new TreeSet<>(Arrays::compareUnsigned);
      for (Rec r : recs) {
        if (r.family.equals(f) && Arrays.equals(r.row, row) && r.type == CellType.PUT) {
          quals.add(r.qualifier);
        }
      }
      for (byte[] q : quals) {
        if (wanted != null && wanted.get(f) != null && !wanted.get(f).contains(q)) {
          continue;
        }
        out.addAll(visible(f, row, q, minTs, maxTs, versions, now));
      }
    }
    return out;
  }

  NavigableSet<byte[]> rows() {
    NavigableSet<byte[]> rows = new TreeSet<>(Arrays::compareUnsigned);
    for (Rec r : recs) {
      rows.add(r.row);
    }
    return rows;
  }

  static String render(String family, byte[] q, long ts, byte[] value) {
    return family + ":" + new String(q) + "@" + ts + "=" + Cell.printable(value);
  }

  static String render(Cell c) {
    return render(new String(c.family()), c.qualifier(), c.timestamp(), c.value());
  }
}
