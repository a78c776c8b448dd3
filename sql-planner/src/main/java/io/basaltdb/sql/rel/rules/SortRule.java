package io.basaltdb.sql.rel.rules;

import io.basaltdb.sql.catalog.SqlColumn;
import io.basaltdb.sql.catalog.SqlTableDef;
import io.basaltdb.sql.pushdown.KeyConditions;
import io.basaltdb.sql.pushdown.Operand;
import io.basaltdb.sql.pushdown.ScanSpec;
import io.basaltdb.sql.rel.BasaltScan;
import io.basaltdb.sql.type.ColumnType;
import java.util.List;
import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.plan.RelRule;
import org.apache.calcite.rel.RelFieldCollation;
import org.apache.calcite.rel.core.Sort;

/**
 * Sort over a scan whose key order gives it: no sort; offset and limit stop the scan. A
 * salted table's buckets are merged by key as they are read (ScanExecutor).
 */
final class SortRule extends RelRule<RuleConfig> {
  SortRule(RuleConfig config) {
    super(config);
  }

  @Override
  public void onMatch(RelOptRuleCall call) {
    Sort sort = call.rel(0);
    BasaltScan scan = call.rel(1);
    SqlTableDef def = scan.definition();
    List<Integer> cols = scan.spec().columns();
    List<SqlColumn> keys = def.keyColumns();
    List<RelFieldCollation> fcs = sort.getCollation().getFieldCollations();
    if (!fcs.isEmpty() && scan.spec().index() != null) {
      // rows found through an index come in its order, not the key's
      Operand[] limits = limits(sort);
      for (boolean reversed : new boolean[] {false, true}) {
        if (limits != null && inIndexOrder(scan, fcs, reversed)) {
          call.transformTo(scan.with(scan.spec().withOrder(limits[0], limits[1], reversed),
              scan.getTraitSet().replace(sort.getCollation())));
        }
      }
      return;
    }
    Boolean reversed = fcs.isEmpty() ? Boolean.FALSE : null;
    if (!fcs.isEmpty()) {
      if (fcs.size() > keys.size()) {
        sortByIndex(call, sort, scan, fcs);
        return;
      }
      for (int i = 0; i < fcs.size(); i++) {
        RelFieldCollation fc = fcs.get(i);
        SqlColumn c = def.columns().get(cols.get(fc.getFieldIndex()));
        if (c != keys.get(i)) {
          sortByIndex(call, sort, scan, fcs);
          return;
        }
        boolean ascending = fc.getDirection() == RelFieldCollation.Direction.ASCENDING;
        if (fc.getDirection() != RelFieldCollation.Direction.ASCENDING
            && fc.getDirection() != RelFieldCollation.Direction.DESCENDING) {
          return;
        }
        boolean rev = ascending == c.descending();
        if (reversed != null && reversed != rev) {
          return;
        }
        reversed = rev;
      }
    }
    Operand[] limits = limits(sort);
    if (limits == null) {
      return;
    }
    ScanSpec s = fcs.isEmpty() ? scan.spec().withLimit(limits[0], limits[1], reversed)
        : scan.spec().withOrder(limits[0], limits[1], reversed);
    call.transformTo(scan.with(s, scan.getTraitSet().replace(sort.getCollation())));
  }

  /**
   * A sort's offset and fetch as operands (each null when absent), or null when either is
   * something a scan cannot take (not a literal or parameter).
   */
  private static Operand[] limits(Sort sort) {
    Operand offset = sort.offset == null ? null : Operand.of(sort.offset, ColumnType.BIGINT);
    Operand fetch = sort.fetch == null ? null : Operand.of(sort.fetch, ColumnType.BIGINT);
    if ((sort.offset != null && offset == null) || (sort.fetch != null && fetch == null)) {
      return null;
    }
    return new Operand[] {offset, fetch};
  }

  /**
   * A sort the table's key order does not give, over a scan with no index conditions: the
   * whole of an index whose order gives it, read in that order (a top-N when limited).
   */
  private static void sortByIndex(RelOptRuleCall call, Sort sort, BasaltScan scan,
      List<RelFieldCollation> fcs) {
    if (!scan.spec().keys().isNone() || scan.spec().index() != null) {
      return;
    }
    Operand[] limits = limits(sort);
    if (limits == null) {
      return;
    }
    for (io.basaltdb.sql.index.IndexLayout index : scan.usableIndexes()) {
      for (boolean reversed : new boolean[] {false, true}) {
        if (inIndexOrder(index, KeyConditions.NONE, scan.spec().columns(), fcs, reversed)) {
          ScanSpec s = scan.spec().withIndex(new ScanSpec.IndexAccess(index.index().name(),
              KeyConditions.NONE)).withOrder(limits[0], limits[1], reversed);
          call.transformTo(scan.with(s, scan.getTraitSet().replace(sort.getCollation())));
        }
      }
    }
  }

  /**
   * True when the rows an index scan gives are in the order {@code fcs} asks: the sort
   * columns are the index's columns from its first, or from just after leading columns the
   * filter pins to one value, each in the index's direction with NULLs where the index puts
   * them (last ascending, first descending); or, {@code reversed}, each against it with its
   * NULLs at the other end (the index read backwards).
   */
  private static boolean inIndexOrder(BasaltScan scan, List<RelFieldCollation> fcs,
      boolean reversed) {
    return inIndexOrder(scan.basaltTable().index(scan.spec().index().name()),
        scan.spec().index().keys(), scan.spec().columns(), fcs, reversed);
  }

  private static boolean inIndexOrder(io.basaltdb.sql.index.IndexLayout index,
      KeyConditions keys, List<Integer> cols, List<RelFieldCollation> fcs, boolean reversed) {
    if (index == null || index.index().saltBuckets() > 0) {
      return false; // a salted index is in order per bucket only
    }
    int[] columns = index.columns();
    List<List<Operand>> eq = keys.equalities();
    int pinned = 0;
    while (pinned < eq.size() && eq.get(pinned).size() == 1) {
      pinned++;
    }
    for (int start = 0; start <= pinned; start++) {
      boolean ok = start + fcs.size() <= columns.length;
      for (int i = 0; ok && i < fcs.size(); i++) {
        RelFieldCollation fc = fcs.get(i);
        boolean desc = index.index().descending().get(start + i) != reversed;
        ok = cols.get(fc.getFieldIndex()) == columns[start + i]
            && fc.getDirection() == (desc ? RelFieldCollation.Direction.DESCENDING
                : RelFieldCollation.Direction.ASCENDING)
            && fc.nullDirection == (desc ? RelFieldCollation.NullDirection.FIRST
                : RelFieldCollation.NullDirection.LAST);
      }
      if (ok) {
        return true;
      }
    }
    return false;
  }
}
