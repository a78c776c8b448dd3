package io.basaltdb.sql.rel.rules;

import io.basaltdb.sql.catalog.SqlColumn;
import io.basaltdb.sql.catalog.SqlTableDef;
import io.basaltdb.sql.exec.read.LookupJoins;
import io.basaltdb.sql.index.IndexLayout;
import io.basaltdb.sql.pushdown.ScanSpec;
import io.basaltdb.sql.rel.BasaltLookupJoin;
import io.basaltdb.sql.rel.BasaltScan;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.adapter.enumerable.EnumerableConvention;
import org.apache.calcite.plan.Convention;
import org.apache.calcite.plan.RelOptRule;
import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.plan.RelRule;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.core.JoinInfo;
import org.apache.calcite.rel.core.JoinRelType;

/**
 * Offers a {@link BasaltLookupJoin} for an equi-join (INNER, LEFT, SEMI or ANTI) whose right
 * side is a Basalt table scan (filters and projection pushed, nothing else) and whose join
 * columns give a prefix of that table's primary key, or of one of its ACTIVE indexes: the
 * whole key if it can (point gets), else the longest prefix, the primary key first on ties.
 * The cost model chooses between it and Calcite's joins. An INNER join's non-equi conditions
 * stay above it as a filter; a SEMI or ANTI join's may be comparisons of a left and a right
 * field, checked per pair ({@link LookupJoins.Residual}); LEFT joins need equi-joins only.
 */
final class LookupJoinRule extends RelRule<RuleConfig> {
  static final RelOptRule INSTANCE = RuleConfig.of("BasaltLookupJoinRule",
      b -> b.operand(Join.class).predicate(j -> j.getConvention() == Convention.NONE)
          .inputs(l -> l.operand(RelNode.class).anyInputs(),
              r -> r.operand(BasaltScan.class).predicate(LookupJoinRule::plainScan).noInputs()),
      LookupJoinRule::new).toRule();

  /**
   * An INNER join whose left side is the table scan that could be looked up: the same join with
   * its sides swapped (under a projection restoring the column order), which {@link #INSTANCE}
   * then offers as a lookup join. The heuristic join order of many-table queries puts the
   * biggest table first; without this its rows could never be fetched by key from the rest.
   */
  static final RelOptRule SWAPPED = RuleConfig.of("BasaltLookupJoinSwapRule",
      b -> b.operand(Join.class).predicate(j -> j.getConvention() == Convention.NONE
              && j.getJoinType() == JoinRelType.INNER)
          .inputs(l -> l.operand(BasaltScan.class).predicate(LookupJoinRule::plainScan)
              .noInputs(), r -> r.operand(RelNode.class).anyInputs()),
      Swap::new).toRule();

  /** See {@link #SWAPPED}. */
  static final class Swap extends RelRule<RuleConfig> {
    Swap(RuleConfig config) {
      super(config);
    }

    @Override
    public void onMatch(RelOptRuleCall call) {
      Join join = call.rel(0);
      BasaltScan left = call.rel(1);
      JoinInfo info = join.analyzeCondition();
      if (info.leftKeys.isEmpty()) {
        return;
      }
      // as seen from the other side: the scan's join columns must give a key or index prefix
      if (best(left, info.rightKeys.toIntArray(), info.leftKeys.toIntArray()) == null) {
        return;
      }
      RelNode swapped = org.apache.calcite.rel.rules.JoinCommuteRule.swap(join, false,
          call.builder());
      if (swapped != null) {
        call.transformTo(swapped);
      }
    }
  }

  /**
   * An INNER join with the distinct values of a Basalt table's columns (what Calcite makes of
   * {@code EXISTS} and {@code IN} sub-queries: an aggregate with group keys only, the join on
   * all of them): the same rows as a SEMI join with the table itself, under a projection that
   * repeats the left side's key values as the aggregate's columns. {@link #INSTANCE} then offers
   * the semi-join as a lookup join, so a selective left side fetches only its matches (TPC-H's
   * Q4: the orders of a quarter, then their line items by key prefix) instead of the whole
   * table being grouped first. Only such semi-joins are made: Calcite's semi-join rules, which
   * turn any key-only join into one, stay out of the search ({@code BasaltPrepare}).
   */
  static final RelOptRule DISTINCT = RuleConfig.of("BasaltLookupDistinctRule",
      b -> b.operand(Join.class).predicate(j -> j.getConvention() == Convention.NONE
              && j.getJoinType() == JoinRelType.INNER)
          .inputs(l -> l.operand(RelNode.class).anyInputs(),
              r -> r.operand(org.apache.calcite.rel.core.Aggregate.class)
                  .predicate(a -> a.getConvention() == Convention.NONE
                      && a.getAggCallList().isEmpty()
                      && a.getGroupType() == org.apache.calcite.rel.core.Aggregate.Group.SIMPLE)
                  .oneInput(s -> s.operand(BasaltScan.class).predicate(LookupJoinRule::plainScan)
                      .noInputs())),
      Distinct::new).toRule();

  /** See {@link #DISTINCT}. */
  static final class Distinct extends RelRule<RuleConfig> {
    Distinct(RuleConfig config) {
      super(config);
    }

    @Override
    public void onMatch(RelOptRuleCall call) {
      Join join = call.rel(0);
      RelNode left = call.rel(1);
      org.apache.calcite.rel.core.Aggregate distinct = call.rel(2);
      BasaltScan scan = call.rel(3);
      JoinInfo info = join.analyzeCondition();
      int groups = distinct.getGroupCount();
      if (!info.isEqui() || info.leftKeys.isEmpty()
          || !info.rightSet().equals(org.apache.calcite.util.ImmutableBitSet.range(groups))) {
        return;
      }
      List<Integer> grouped = distinct.getGroupSet().asList();
      int[] scanKeys = new int[info.rightKeys.size()];
      for (int j = 0; j < scanKeys.length; j++) {
        scanKeys[j] = grouped.get(info.rightKeys.get(j));
      }
      if (best(scan, info.leftKeys.toIntArray(), scanKeys) == null) {
        return; // no key or index prefix to look up: leave it to the other joins
      }
      var rb = join.getCluster().getRexBuilder();
      var builder = call.builder().push(left).push(scan);
      List<org.apache.calcite.rex.RexNode> equal = new ArrayList<>();
      for (int j = 0; j < scanKeys.length; j++) {
        equal.add(builder.equals(builder.field(2, 0, info.leftKeys.get(j)),
            builder.field(2, 1, scanKeys[j])));
      }
      builder.semiJoin(equal);
      // the aggregate's columns: the left key each equals (an INNER join's equal values)
      List<org.apache.calcite.rex.RexNode> out = new ArrayList<>(builder.fields());
      var joinFields = join.getRowType().getFieldList();
      int leftCount = left.getRowType().getFieldCount();
      for (int g = 0; g < groups; g++) {
        int pair = info.rightKeys.indexOf(g);
        org.apache.calcite.rex.RexNode key = builder.field(info.leftKeys.get(pair));
        out.add(rb.makeCast(joinFields.get(leftCount + g).getType(), key, true, false));
      }
      call.transformTo(builder.project(out, join.getRowType().getFieldNames(), true).build());
    }
  }

  LookupJoinRule(RuleConfig config) {
    super(config);
  }

  /**
   * The best lookup into {@code right}'s table for join pairs ({@code leftKeys[j]},
   * {@code rightKeys[j]}): the whole primary key, else the longest prefix of the key or of an
   * index, the key first on ties; null when the join gives none.
   */
  private static Lookup best(BasaltScan right, int[] leftKeys, int[] rightKeys) {
    SqlTableDef def = right.definition();
    List<Integer> rightCols = right.spec().columns();
    List<SqlColumn> keyColumns = def.keyColumns();
    int[] keyOrder = new int[keyColumns.size()];
    for (int k = 0; k < keyOrder.length; k++) {
      keyOrder[k] = def.columns().indexOf(keyColumns.get(k));
    }
    Lookup best = prefix(null, keyOrder, rightCols, leftKeys, rightKeys);
    if (best != null && best.columns.size() == keyOrder.length) {
      return best;
    }
    for (IndexLayout index : right.usableIndexes()) {
      Lookup l = prefix(index.index().name(), index.columns(), rightCols, leftKeys, rightKeys);
      if (l != null && (best == null || l.columns.size() > best.columns.size())) {
        best = l;
      }
    }
    return best;
  }

  /** A logical scan of rows with at most filters and a projection pushed into it. */
  private static boolean plainScan(BasaltScan scan) {
    ScanSpec s = scan.spec();
    return scan.getConvention() == Convention.NONE && s.keys().isNone() && s.index() == null
        && !s.isLimited() && !s.ordered() && !s.reversed()
        && scan.getTraitSet().getCollation().getFieldCollations().isEmpty();
  }

  @Override
  public void onMatch(RelOptRuleCall call) {
    Join join = call.rel(0);
    BasaltScan right = call.rel(2);
    JoinRelType type = join.getJoinType();
    if (type != JoinRelType.INNER && type != JoinRelType.LEFT && type != JoinRelType.SEMI
        && type != JoinRelType.ANTI) {
      return;
    }
    JoinInfo info = join.analyzeCondition();
    List<LookupJoins.Residual> residuals = new ArrayList<>();
    if (info.leftKeys.isEmpty() || (!info.isEqui() && type != JoinRelType.INNER
        && !residuals(join, info, residuals))) {
      return;
    }
    List<Integer> rightCols = right.spec().columns();
    int[] leftKeys = info.leftKeys.toIntArray();
    int[] rightKeys = info.rightKeys.toIntArray();
    Lookup best = best(right, leftKeys, rightKeys);
    if (best == null) {
      return;
    }
    boolean points = best.index == null
        && best.columns.size() == right.definition().keyColumnCount();
    LookupJoins.Plan plan = new LookupJoins.Plan(best.index,
        best.columns.stream().mapToInt(Integer::intValue).toArray(),
        best.left.stream().mapToInt(Integer::intValue).toArray(),
        best.index == null && points, leftKeys, rightKeys, type, rightCols.size(),
        residuals);
    RelNode left = convert(join.getLeft(),
        join.getLeft().getTraitSet().replace(EnumerableConvention.INSTANCE));
    RelNode lookup = new BasaltLookupJoin(join.getCluster(),
        join.getTraitSet().replace(EnumerableConvention.INSTANCE), left, join, right, plan);
    if (!info.isEqui() && type == JoinRelType.INNER) {
      lookup = call.builder().push(lookup)
          .filter(org.apache.calcite.rex.RexUtil.composeConjunction(
              join.getCluster().getRexBuilder(), info.nonEquiConditions)).build();
    }
    call.transformTo(lookup);
  }

  /**
   * A SEMI or ANTI join's non-equi conditions as comparisons of a left field with a right one
   * of the same type (not CHAR, which compares padded), into {@code out}; false when some
   * condition is anything else.
   */
  private static boolean residuals(Join join, JoinInfo info, List<LookupJoins.Residual> out) {
    if (join.getJoinType() != JoinRelType.SEMI && join.getJoinType() != JoinRelType.ANTI) {
      return false;
    }
    int width = join.getLeft().getRowType().getFieldCount();
    for (org.apache.calcite.rex.RexNode c : info.nonEquiConditions) {
      if (!(c instanceof org.apache.calcite.rex.RexCall call) || call.getOperands().size() != 2
          || !org.apache.calcite.sql.SqlKind.COMPARISON.contains(call.getKind())
          || !(call.getOperands().get(0) instanceof org.apache.calcite.rex.RexInputRef a)
          || !(call.getOperands().get(1) instanceof org.apache.calcite.rex.RexInputRef b)
          || a.getType().getSqlTypeName() != b.getType().getSqlTypeName()
          || a.getType().getSqlTypeName() == org.apache.calcite.sql.type.SqlTypeName.CHAR
          || call.getKind() == org.apache.calcite.sql.SqlKind.IS_DISTINCT_FROM
          || call.getKind() == org.apache.calcite.sql.SqlKind.IS_NOT_DISTINCT_FROM) {
        return false;
      }
      boolean leftFirst = a.getIndex() < width && b.getIndex() >= width;
      boolean rightFirst = b.getIndex() < width && a.getIndex() >= width;
      if (leftFirst) {
        out.add(new LookupJoins.Residual(a.getIndex(), call.getKind(), b.getIndex() - width));
      } else if (rightFirst) {
        out.add(new LookupJoins.Residual(b.getIndex(), call.getKind().reverse(),
            a.getIndex() - width));
      } else {
        return false;
      }
    }
    return true;
  }

  /** Lookup columns (table columns) and the left fields giving them. */
  private record Lookup(String index, List<Integer> columns, List<Integer> left) {}

  /** The longest prefix of {@code order} (table columns) the join gives, or null. */
  private static Lookup prefix(String index, int[] order, List<Integer> rightCols,
      int[] leftKeys, int[] rightKeys) {
    List<Integer> columns = new ArrayList<>();
    List<Integer> left = new ArrayList<>();
    for (int column : order) {
      int pair = -1;
      for (int j = 0; j < rightKeys.length && pair < 0; j++) {
        if (rightCols.get(rightKeys[j]) == column) {
          pair = j;
        }
      }
      if (pair < 0) {
        break;
      }
      columns.add(column);
      left.add(leftKeys[pair]);
    }
    return columns.isEmpty() ? null : new Lookup(index, columns, left);
  }
}
