package io.basaltdb.sql.prepare;

import io.basaltdb.sql.Switches;
import io.basaltdb.sql.rel.BasaltScan;
import io.basaltdb.sql.rel.EnumerableTranslation;
import io.basaltdb.sql.rel.rules.BasaltRules;
import java.util.EnumSet;
import java.util.List;
import org.apache.calcite.plan.RelOptLattice;
import org.apache.calcite.plan.RelOptMaterialization;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.plan.RelOptRule;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.plan.hep.HepMatchOrder;
import org.apache.calcite.plan.hep.HepProgram;
import org.apache.calcite.plan.hep.HepProgramBuilder;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.core.Sort;
import org.apache.calcite.rel.core.Values;
import org.apache.calcite.rel.logical.LogicalAggregate;
import org.apache.calcite.rel.logical.LogicalJoin;
import org.apache.calcite.rel.rules.AggregateReduceFunctionsRule;
import org.apache.calcite.rel.rules.CoreRules;
import org.apache.calcite.rex.RexOver;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.tools.Program;

/**
 * Plans of small tables without the cost-based search (issue 40, item 6): a statement whose
 * joins and aggregates (what the short path, {@link ShortPath}, leaves to the search;
 * sub-queries come here as joins once Calcite's programs removed them) read only tables of at
 * most {@link #SMALL_ROWS} rows, none hinted, is pushed down by a fixed rule program (filters
 * into joins and scans, projections and aggregates into scans) and translated node by node
 * ({@link EnumerableTranslation}: a join as Calcite's join rule converts it, an aggregate
 * hashed). On such tables any plan reads a few thousand row pairs at most, while the search
 * costs milliseconds: a BI tool's or a test suite's statements over small tables are mostly
 * search. A plan over a bigger table (where a lookup join, a join order or a pushed-down
 * aggregate pays), a table with an index hint, an operator not translated here, or a result
 * without the traits asked for goes to the search. {@code -Dbasalt.smallPlans=false} sends
 * everything there.
 */
final class SmallPlans implements Program {
  /**
   * Tables of at most this many rows (the table's estimate) are small: a nested-loop join of
   * two is ten thousand pairs, less than the search costs; past it a lookup join through an
   * index may beat a hash join by more (a few rows probing a table of hundreds).
   */
  static final double SMALL_ROWS = 100;

  private static final HepProgram PUSHDOWN = new HepProgramBuilder()
      .addMatchOrder(HepMatchOrder.BOTTOM_UP)
      .addRuleCollection(rules())
      .build();

  /**
   * The short path's pushdown, filters into and through joins, and aggregates into scans.
   * AVG and the variances become SUMs and COUNTs (which scans compute); SUM itself does not:
   * it would become a CASE over its COUNT whose constant makes the generated code uncacheable
   * (a static field), compiled again for every statement.
   */
  private static List<RelOptRule> rules() {
    List<RelOptRule> rules = new java.util.ArrayList<>(ShortPath.PUSHDOWN_RULES);
    rules.addAll(List.of(CoreRules.FILTER_INTO_JOIN, CoreRules.JOIN_CONDITION_PUSH,
        CoreRules.AGGREGATE_PROJECT_MERGE,
        AggregateReduceFunctionsRule.Config.DEFAULT.withFunctionsToReduce(EnumSet.of(
            SqlKind.AVG, SqlKind.STDDEV_POP, SqlKind.STDDEV_SAMP, SqlKind.VAR_POP,
            SqlKind.VAR_SAMP)).toRule(),
        BasaltRules.AGGREGATE_COLUMNS, BasaltRules.AGGREGATE));
    return rules;
  }

  private final Program search;

  SmallPlans(Program search) {
    this.search = search;
  }

  @Override
  public RelNode run(RelOptPlanner planner, RelNode rel, RelTraitSet requiredOutputTraits,
      List<RelOptMaterialization> materializations, List<RelOptLattice> lattices) {
    if (Switches.SMALL_PLANS.on() && small(rel)) {
      RelNode planned = EnumerableTranslation.of(ShortPath.hep(PUSHDOWN, rel));
      if (planned != null && planned.getTraitSet().satisfies(requiredOutputTraits)) {
        if (planner instanceof DeferredRulesPlanner p) {
          p.stats().smallPlans.incrementAndGet();
        }
        return planned;
      }
    }
    return search.run(planner, rel, requiredOutputTraits, materializations, lattices);
  }

  /**
   * Only operators translated here (filters, projections without windows, sorts, plain
   * aggregates, joins, values, Basalt scans), no correlation, and every table small.
   */
  static boolean small(RelNode rel) {
    if (rel instanceof BasaltScan scan) { // a hinted scan gets the search, which reads hints
      return scan.getHints().isEmpty() && scan.getTable().getRowCount() <= SMALL_ROWS;
    }
    boolean known = rel instanceof Project p ? !RexOver.containsOver(p.getProjects(), null)
        : rel instanceof Filter f ? !RexUtil.containsCorrelation(f.getCondition())
        : rel instanceof LogicalAggregate a ? a.getGroupType() == Aggregate.Group.SIMPLE
        : rel instanceof LogicalJoin j ? j.getVariablesSet().isEmpty()
            && !RexUtil.containsCorrelation(j.getCondition())
        : rel instanceof Sort || rel instanceof Values;
    if (!known) {
      return false;
    }
    for (RelNode in : rel.getInputs()) {
      if (!small(in)) {
        return false;
      }
    }
    return true;
  }
}
