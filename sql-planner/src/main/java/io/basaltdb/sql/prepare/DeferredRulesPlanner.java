package io.basaltdb.sql.prepare;

import io.basaltdb.sql.PlannerStats;
import java.util.List;
import org.apache.calcite.plan.Context;
import org.apache.calcite.plan.RelOptCostFactory;
import org.apache.calcite.plan.RelOptRule;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.plan.volcano.RelSubset;
import org.apache.calcite.plan.volcano.VolcanoPlanner;
import org.apache.calcite.rel.RelNode;

/**
 * Calcite's cost-based planner, whose default rules (about two hundred, each an object built
 * from its configuration when its catalogue class is first used) are registered the first time
 * the planner is asked for its rules or given something to plan, not when it is made. Every
 * statement makes a planner, and a statement on the short path ({@link ShortPath}) or a DDL
 * never uses it: they no longer pay the registration, nor a fresh JVM the rule catalogues'
 * initialization. Planning with it is planning with Calcite's planner as configured by
 * {@code CalcitePrepareImpl.createPlanner}: the rules are the same, added in the same order,
 * before the first rule or expression reaches the planner; {@link #clear} drops them unseen.
 */
final class DeferredRulesPlanner extends VolcanoPlanner {
  private final PlannerStats stats;
  private Runnable defaults; // null once registered or cleared

  DeferredRulesPlanner(RelOptCostFactory costFactory, Context context, PlannerStats stats,
      Runnable defaults) {
    super(costFactory, context);
    this.stats = stats;
    this.defaults = defaults;
  }

  /** The figures of the database this planner plans for. */
  PlannerStats stats() {
    return stats;
  }

  private void registerDefaults() {
    Runnable r = defaults;
    if (r != null) {
      defaults = null; // before running: the registration adds rules through this planner
      stats.defaultRuleRegistrations.incrementAndGet();
      r.run();
    }
  }

  @Override
  public List<RelOptRule> getRules() {
    registerDefaults();
    return super.getRules();
  }

  @Override
  public boolean addRule(RelOptRule rule) {
    registerDefaults();
    return super.addRule(rule);
  }

  @Override
  public boolean removeRule(RelOptRule rule) {
    registerDefaults();
    return super.removeRule(rule);
  }

  @Override
  public void clear() {
    defaults = null;
    super.clear();
  }

  @Override
  public void setRoot(RelNode rel) {
    registerDefaults();
    super.setRoot(rel);
  }

  @Override
  public RelNode changeTraits(RelNode rel, RelTraitSet toTraits) {
    registerDefaults();
    return super.changeTraits(rel, toTraits);
  }

  @Override
  public RelSubset register(RelNode rel, RelNode equivRel) {
    registerDefaults();
    return super.register(rel, equivRel);
  }

  @Override
  public RelSubset ensureRegistered(RelNode rel, RelNode equivRel) {
    registerDefaults();
    return super.ensureRegistered(rel, equivRel);
  }

  @Override
  public RelNode findBestExp() {
    registerDefaults();
    return super.findBestExp();
  }
}
