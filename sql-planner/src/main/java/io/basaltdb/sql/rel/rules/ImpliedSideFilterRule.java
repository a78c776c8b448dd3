package io.basaltdb.sql.rel.rules;

import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.plan.RelOptPredicateList;
import org.apache.calcite.plan.RelOptRule;
import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.plan.RelRule;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.logical.LogicalJoin;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexSimplify;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.util.ImmutableBitSet;

/**
 * Filters one side of an inner join by what an OR in its condition implies for that side:
 * when every branch of the OR has conditions on the side's columns alone, the OR of those
 * conditions holds for every row the join keeps. TPC-H's Q7 joins two nations under
 * {@code (n1.n_name = 'FRANCE' AND n2.n_name = 'GERMANY') OR (n1.n_name = 'GERMANY' AND
 * n2.n_name = 'FRANCE')}; each nation is then read as {@code n_name = 'FRANCE' OR n_name =
 * 'GERMANY'}, two nations instead of 25, and so their suppliers and customers.
 *
 * <p>Same answers: the join's condition stays whole; the side filter removes only rows for
 * which no branch can hold. Only deterministic conditions are copied; a side whose filter
 * already implies the derived one is left alone, so the rule adds nothing the second time
 * (it runs in a Hep step of its own, before the filters are pushed further down).
 */
final class ImpliedSideFilterRule extends RelRule<RuleConfig> {
  static final RelOptRule INSTANCE = RuleConfig.of("BasaltImpliedSideFilterRule",
      b -> b.operand(LogicalJoin.class).predicate(j -> j.getJoinType() == JoinRelType.INNER
          && RexUtil.findOperatorCall(org.apache.calcite.sql.fun.SqlStdOperatorTable.OR,
              j.getCondition()) != null).anyInputs(),
      ImpliedSideFilterRule::new).toRule();

  private ImpliedSideFilterRule(RuleConfig config) {
    super(config);
  }

  @Override
  public void onMatch(RelOptRuleCall call) {
    Join join = call.rel(0);
    RexBuilder rb = join.getCluster().getRexBuilder();
    int leftCount = join.getLeft().getRowType().getFieldCount();
    int total = join.getRowType().getFieldCount();
    List<RexNode> conjuncts = RelOptUtil.conjunctions(join.getCondition());
    List<RelNode> inputs = new ArrayList<>(join.getInputs());
    RexSimplify simplify = new RexSimplify(rb, RelOptPredicateList.EMPTY, RexUtil.EXECUTOR);
    boolean changed = false;
    for (int side = 0; side < 2; side++) {
      ImmutableBitSet fields = side == 0 ? ImmutableBitSet.range(0, leftCount)
          : ImmutableBitSet.range(leftCount, total);
      int shift = side == 0 ? 0 : -leftCount;
      RelNode input = join.getInput(side);
      // a side this rule filtered already: its filter's conditions (as the builder simplified
      // them; metadata sees no predicates through the vertices of a Hep program)
      List<RexNode> known = input.stripped() instanceof org.apache.calcite.rel.core.Filter f
          ? RelOptUtil.conjunctions(f.getCondition()) : List.of();
      List<RexNode> derived = new ArrayList<>();
      for (RexNode c : conjuncts) {
        if (c.getKind() != SqlKind.OR || !RexUtil.isDeterministic(c)) {
          continue;
        }
        RexNode implied = implied(rb, c, fields);
        if (implied != null) {
          RexNode onSide = RexUtil.shift(implied, shift);
          if (!known.contains(simplify.simplifyUnknownAsFalse(onSide))) {
            derived.add(onSide);
          }
        }
      }
      if (!derived.isEmpty()) {
        inputs.set(side, call.builder().push(input).filter(derived).build());
        changed = true;
      }
    }
    if (changed) {
      call.transformTo(join.copy(join.getTraitSet(), inputs));
    }
  }

  /**
   * The OR, over {@code or}'s branches, of each branch's conditions on {@code fields} alone;
   * null when a branch has none.
   */
  private static RexNode implied(RexBuilder rb, RexNode or, ImmutableBitSet fields) {
    List<RexNode> branches = new ArrayList<>();
    for (RexNode branch : RelOptUtil.disjunctions(or)) {
      List<RexNode> own = new ArrayList<>();
      for (RexNode c : RelOptUtil.conjunctions(branch)) {
        ImmutableBitSet used = RelOptUtil.InputFinder.bits(c);
        if (!used.isEmpty() && fields.contains(used)) {
          own.add(c);
        }
      }
      if (own.isEmpty()) {
        return null;
      }
      branches.add(RexUtil.composeConjunction(rb, own));
    }
    return RexUtil.composeDisjunction(rb, branches);
  }
}
