package io.basaltdb.sql.pushdown;

import io.basaltdb.sql.catalog.SqlColumn;
import io.basaltdb.sql.catalog.SqlTableDef;
import java.util.ArrayList;
import java.util.List;

/**
 * Everything a {@code BasaltScan} asks of the engine, as planned: key conditions (row-key
 * ranges), engine filters, the table columns it returns (in output order), rows to skip and
 * to return, and the scan direction. Parameters stay {@link Operand}s until execution.
 * Immutable; the planner rules derive new specs from old ones.
 *
 * @param columns table column indexes, in the scan's output order
 * @param offset rows to skip, or null
 * @param fetch rows to return at most, or null
 * @param reversed scan in descending key order
 * @param aggregate an aggregation computed in the scan over its columns, or null
 * @param asOf {@code FOR SYSTEM_TIME AS OF}: read the table as of this TIMESTAMP, or null
 * @param ordered the plan relies on the rows coming in key order (a sort was pushed); else
 *     regions may be read in parallel
 * @param index the secondary index whose key ranges find the rows (then fetched from the
 *     table, and every filter applied to them), or null: the table's own key ranges
 */
public record ScanSpec(KeyConditions keys, List<PushedPredicate> filters, List<Integer> columns,
    Operand offset, Operand fetch, boolean reversed, AggregateSpec aggregate, Operand asOf,
    boolean ordered, IndexAccess index) {
  /**
   * Rows found through an index: its name, the key conditions on its columns, and the filters
   * of the spec its equalities hold exactly ({@link KeyRangeExtractor.Analysis#pinned}),
   * which the rows found through it need not pass again (the same objects as in
   * {@link #filters}; a scan of the table instead, the index gone, applies them all).
   */
  public record IndexAccess(String name, KeyConditions keys, List<PushedPredicate> held) {
    public IndexAccess {
      held = List.copyOf(held);
    }

    public IndexAccess(String name, KeyConditions keys) {
      this(name, keys, List.of());
    }
  }

  /** The filters rows found through {@link #index} must pass: all but those it holds. */
  public List<PushedPredicate> filtersThroughIndex() {
    if (index == null || index.held().isEmpty()) {
      return filters;
    }
    List<PushedPredicate> out = new ArrayList<>(filters.size());
    for (PushedPredicate f : filters) {
      boolean held = false;
      for (PushedPredicate h : index.held()) {
        held |= h == f;
      }
      if (!held) {
        out.add(f);
      }
    }
    return out;
  }

  public ScanSpec {
    filters = List.copyOf(filters);
    columns = List.copyOf(columns);
  }

  /** A scan of the whole table, every visible column. */
  public static ScanSpec all(SqlTableDef def) {
    List<Integer> cols = new ArrayList<>();
    for (int i = 0; i < def.visibleColumnCount(); i++) {
      cols.add(i);
    }
    return new ScanSpec(KeyConditions.NONE, List.of(), cols, null, null, false, null, null,
        false, null);
  }

  /**
   * True once rows are skipped, limited or aggregated: nothing more may be pushed beneath
   * that.
   */
  public boolean isLimited() {
    return offset != null || fetch != null || aggregate != null;
  }

  public ScanSpec withFilter(KeyConditions k, List<PushedPredicate> f) {
    return new ScanSpec(k, f, columns, offset, fetch, reversed, aggregate, asOf, ordered, index);
  }

  public ScanSpec withColumns(List<Integer> c) {
    return new ScanSpec(keys, filters, c, offset, fetch, reversed, aggregate, asOf, ordered,
        index);
  }

  /** Rows in key order (or its reverse), maybe skipped and limited. */
  public ScanSpec withOrder(Operand off, Operand f, boolean rev) {
    return new ScanSpec(keys, filters, columns, off, f, rev, aggregate, asOf, true, index);
  }

  public ScanSpec withLimit(Operand off, Operand f, boolean rev) {
    return new ScanSpec(keys, filters, columns, off, f, rev, aggregate, asOf, ordered, index);
  }

  public ScanSpec withAggregate(AggregateSpec a) {
    return new ScanSpec(keys, filters, columns, offset, fetch, reversed, a, asOf, ordered, index);
  }

  /** Rows found through {@code access}'s index ranges instead of the table's key ranges. */
  public ScanSpec withIndex(IndexAccess access) {
    return new ScanSpec(KeyConditions.NONE, filters, columns, offset, fetch, reversed, aggregate,
        asOf, ordered, access);
  }

  public ScanSpec withAsOf(Operand t) {
    return new ScanSpec(keys, filters, columns, offset, fetch, reversed, aggregate, t, ordered,
        index);
  }

  /** The spec in words, for EXPLAIN. */
  public List<String[]> describe(SqlTableDef def) {
    List<String[]> out = new ArrayList<>();
    if (asOf != null) {
      out.add(new String[] {"asOf", asOf.isParameter() ? asOf.toString()
          : java.time.Instant.ofEpochMilli((Long) asOf.bind(null)).toString()});
    }
    if (!keys.isNone()) {
      out.add(new String[] {"keys", keys.describe(def)});
    }
    List<PushedPredicate> applied = filtersThroughIndex(); // what the rows found must pass
    if (!applied.isEmpty()) {
      List<String> fs = new ArrayList<>();
      applied.forEach(f -> fs.add(f.describe(def)));
      out.add(new String[] {"filter", String.join(" AND ", fs)});
    }
    List<String> names = new ArrayList<>();
    for (int c : columns) {
      SqlColumn col = def.columns().get(c);
      names.add(col.isKey() ? col.name() : col.family() + "." + col.name());
    }
    out.add(new String[] {"columns", String.join(", ", names)});
    if (reversed) {
      out.add(new String[] {"order", "reversed"});
    }
    if (offset != null) {
      out.add(new String[] {"offset", offset.toString()});
    }
    if (fetch != null) {
      out.add(new String[] {"limit", fetch.toString()});
    }
    if (aggregate != null) {
      List<String> g = new ArrayList<>();
      aggregate.groups().forEach(i -> g.add(def.columns().get(columns.get(i)).name()));
      List<String> calls = new ArrayList<>();
      for (AggregateSpec.Call c : aggregate.calls()) {
        calls.add(c.kind() + "(" + (c.arg() < 0 ? "*"
            : def.columns().get(columns.get(c.arg())).name()) + ")");
      }
      out.add(new String[] {"aggregate", (g.isEmpty() ? "" : "GROUP BY " + String.join(", ", g)
          + ": ") + String.join(", ", calls)});
    }
    return out;
  }
}
