package io.basaltdb.sql.rel.rules;

import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.plan.RelRule;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexUtil;

/** See {@link BasaltRules#PULL_FACTORS}. */
final class PullFactorsRule extends RelRule<RuleConfig> {
  PullFactorsRule(RuleConfig config) {
    super(config);
  }

  @Override
  public void onMatch(RelOptRuleCall call) {
    Filter filter = call.rel(0);
    RexNode pulled = RexUtil.pullFactors(filter.getCluster().getRexBuilder(),
        filter.getCondition());
    if (!pulled.equals(filter.getCondition())) {
      call.transformTo(filter.copy(filter.getTraitSet(), filter.getInput(), pulled));
    }
  }
}
