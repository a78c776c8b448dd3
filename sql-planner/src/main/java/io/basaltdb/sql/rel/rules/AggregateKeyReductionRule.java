package io.basaltdb.sql.rel.rules;

import io.basaltdb.sql.rel.BasaltScan;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.plan.RelOptRule;
import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.plan.RelRule;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.core.JoinInfo;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.core.TableScan;
import org.apache.calcite.rel.logical.LogicalJoin;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.tools.RelBuilder;

/**
 * An inner join of rows with an aggregate on one of its group keys, where the join column
 * comes from a filtered table: the aggregate's input is first joined with that table's
 * distinct filtered values of the column, so only the groups the join can meet are computed.
 * Calcite decorrelates TPC-H's Q2 ({@code ps_supplycost = (SELECT MIN(ps_supplycost) FROM
 * partsupp, ... WHERE ps_partkey = p_partkey ...)}) into the minimum of every part's offers
 * joined with the parts the outer filter keeps: 160,000 groups for some 750 parts. With the
 * distinct part keys joined in, the join order can start from them and look the offers up by
 * key prefix ({@link LookupJoinRule#DISTINCT}).
 *
 * <p>Same answers: a row of the join needs a group whose key equals its column's value, and
 * every such value is among the table's filtered values (the row came through the same table
 * and filter); a group is kept or dropped whole, since the restriction is on its key. Runs in
 * the heuristic join-order program, after filters are pushed to the tables and before the
 * joins are gathered, so the new join takes part in the ordering. Only for a column traced
 * through joins and projections to one table under at least one filter (an unfiltered table
 * restricts nothing), and an aggregate computing something (a DISTINCT, as the keys added
 * here, is left alone); an aggregate already restricted is left alone.
 */
final class AggregateKeyReductionRule extends RelRule<RuleConfig> {
  static final RelOptRule INSTANCE = RuleConfig.of("BasaltAggregateKeyReductionRule",
      b -> b.operand(LogicalJoin.class)
          .predicate(j -> j.getJoinType() == JoinRelType.INNER).anyInputs(),
      AggregateKeyReductionRule::new).toRule();

  private AggregateKeyReductionRule(RuleConfig config) {
    super(config);
  }

  @Override
  public void onMatch(RelOptRuleCall call) {
    Join join = call.rel(0);
    JoinInfo info = join.analyzeCondition();

    for (int side = 0; side < 2; side++) {
      RelNode aggSide = join.getInput(side).stripped();
      RelNode other = join.getInput(1 - side);
      List<Integer> aggKeys = side == 0 ? info.leftKeys : info.rightKeys;
      List<Integer> otherKeys = side == 0 ? info.rightKeys : info.leftKeys;
      for (int k = 0; k < aggKeys.size(); k++) {
        RelNode reduced = reduce(call.builder(), aggSide, aggKeys.get(k), other,
            otherKeys.get(k));
        if (reduced != null) {
          List<RelNode> inputs = new ArrayList<>(join.getInputs());
          inputs.set(side, reduced);
          call.transformTo(join.copy(join.getTraitSet(), inputs));
          return;
        }
      }
    }
  }

  /**
   * {@code aggSide} (an aggregate, or a projection of one) with its aggregate's input joined to
   * the distinct values of the table column {@code otherField} of {@code other} traces to, when
   * {@code aggField} is a group key and that table is filtered; else null.
   */
  private static RelNode reduce(RelBuilder b, RelNode aggSide, int aggField, RelNode other,
      int otherField) {
    Project project = null;
    RelNode node = aggSide;
    if (node instanceof Project p) {
      if (!(p.getProjects().get(aggField) instanceof RexInputRef ref)) {
        return null;
      }
      project = p;
      aggField = ref.getIndex();
      node = p.getInput().stripped();
    }
    if (!(node instanceof Aggregate agg) || agg.getGroupSets().size() != 1
        || agg.getAggCallList().isEmpty() // a DISTINCT, such as the keys this rule adds
        || aggField >= agg.getGroupCount() || alreadyReduced(agg)) {
      return null;
    }
    Source source = trace(other, otherField);
    if (source == null || !source.filtered) {
      return null;
    }
    int inputField = agg.getGroupSet().asList().get(aggField);
    RelNode input = agg.getInput();
    Project inputProject = null;
    if (input.stripped() instanceof Project p && p.getProjects().get(inputField)
        instanceof RexInputRef ref) {
      // the keys joined beneath the projection, next to the joins it projects, so that the
      // join order gathers them with those joins (a projection between would keep them apart)
      inputProject = p;
      input = p.getInput();
      inputField = ref.getIndex();
    }
    int width = input.getRowType().getFieldCount();
    RelNode keys = b.push(source.rel).project(b.field(source.field)).distinct().build();
    b.push(input).push(keys)
        .join(JoinRelType.INNER, b.equals(b.field(2, 0, inputField), b.field(2, 1, 0)));
    if (inputProject == null) {
      b.project(b.fields().subList(0, width)); // the keys dropped
    } else {
      b.project(inputProject.getProjects(), inputProject.getRowType().getFieldNames());
    }
    RelNode restricted = b.build();
    RelNode newAgg = agg.copy(agg.getTraitSet(), List.of(restricted));
    return project == null ? newAgg
        : project.copy(project.getTraitSet(), newAgg, project.getProjects(),
            project.getRowType());
  }

  /**
   * An aggregate whose input has the shape this rule gives it: a projection of an inner join
   * not using the one column of its right side (the keys; a unique column's keys need no
   * DISTINCT, so they may be a bare projection).
   */
  private static boolean alreadyReduced(Aggregate agg) {
    RelNode in = agg.getInput().stripped();
    if (in instanceof Project p && p.getInput().stripped() instanceof Join j
        && j.getJoinType() == JoinRelType.INNER
        && j.getRight().getRowType().getFieldCount() == 1) {
      int leftWidth = j.getLeft().getRowType().getFieldCount();
      return p.getProjects().stream().allMatch(e -> org.apache.calcite.plan.RelOptUtil
          .InputFinder.bits(e).stream().allMatch(i -> i < leftWidth));
    }
    return false;
  }

  /** A table (under its filters) and the field of it a column comes from. */
  private record Source(RelNode rel, int field, boolean filtered) {}

  /** Follows {@code field} of {@code node} down through projections and joins to its table. */
  private static Source trace(RelNode node, int field) {
    node = node.stripped();
    if (node instanceof TableScan || node instanceof BasaltScan) {
      return new Source(node, field, false);
    }
    if (node instanceof Filter f) {
      Source s = trace(f.getInput(), field);
      if (s == null || !org.apache.calcite.rex.RexUtil.isDeterministic(f.getCondition())) {
        return null; // evaluated twice, a random filter would keep other rows the second time
      }
      // a filter right over the table (its projections, its filters) restricts it
      return s.rel == f.getInput().stripped() ? new Source(f, field, true) : s;
    }
    if (node instanceof Project p) {
      if (!(p.getProjects().get(field) instanceof RexInputRef ref)) {
        return null;
      }
      Source s = trace(p.getInput(), ref.getIndex());
      // a projection of the table (or of its filters) is part of it: a filter above still counts
      return s != null && s.rel == p.getInput().stripped() ? new Source(p, field, s.filtered) : s;
    }
    if (node instanceof Join j && j.getJoinType() == JoinRelType.INNER) {
      int leftWidth = j.getLeft().getRowType().getFieldCount();
      return field < leftWidth ? trace(j.getLeft(), field)
          : trace(j.getRight(), field - leftWidth);
    }
    return null;
  }
}
