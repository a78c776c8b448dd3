package io.basaltdb.sql.rel.rules;

import java.util.function.Function;
import org.apache.calcite.plan.RelOptRule;
import org.apache.calcite.plan.RelRule;
import org.apache.calcite.tools.RelBuilderFactory;

/**
 * A planner rule's configuration (operands, description, builder factory) as a plain record,
 * where Calcite's own rules use generated Immutables classes.
 */
record RuleConfig(RelBuilderFactory relBuilderFactory, String description,
    RelRule.OperandTransform operandSupplier, Function<RuleConfig, RelOptRule> factory)
    implements RelRule.Config {
  static RuleConfig of(String description, RelRule.OperandTransform operands,
      Function<RuleConfig, RelOptRule> factory) {
    return new RuleConfig(org.apache.calcite.rel.core.RelFactories.LOGICAL_BUILDER, description,
        operands, factory);
  }

  @Override
  public RelOptRule toRule() {
    return factory.apply(this);
  }

  @Override
  public RuleConfig withRelBuilderFactory(RelBuilderFactory f) {
    return new RuleConfig(f, description, operandSupplier, factory);
  }

  @Override
  public RuleConfig withDescription(String d) {
    return new RuleConfig(relBuilderFactory, d, operandSupplier, factory);
  }

  @Override
  public RuleConfig withOperandSupplier(RelRule.OperandTransform t) {
    return new RuleConfig(relBuilderFactory, description, t, factory);
  }
}
