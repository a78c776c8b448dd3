package io.basaltdb.sql.prepare;

import io.basaltdb.sql.rel.metadata.JoinCardinality;
import io.basaltdb.sql.rel.metadata.MetadataHandlers;
import io.basaltdb.sql.rel.rules.BasaltRules;
import io.basaltdb.sql.Switches;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.rel.rules.CoreRules;

/**
 * The rule programs Calcite's preparation runs on a statement that neither the short path nor
 * a direct plan took: Calcite's standard program, but joins of {@link #HEURISTIC_JOINS} or more
 * ordered by its heuristic (MultiJoin and LoptOptimizeJoinRule, with Basalt's join row counts)
 * instead of the planner's exhaustive search, which took 3 to 14 seconds to plan TPC-H's five-
 * and six-table joins (their execution: 0.1 to 0.2 s). Stateless.
 */
final class PlanPrograms {
  private PlanPrograms() {}

  /**
   * How long a statement whose joins are ordered heuristically waits for the compiled metadata
   * handlers ({@link MetadataHandlers#awaitCompiled}).
   */
  static final long COMPILE_WAIT_MILLIS = 20_000;

  /** From this many joins in a query, joins are ordered heuristically. */
  static final int HEURISTIC_JOINS = 3;

  /** The program for a statement planned by {@code planner} (its rules, Basalt's metadata). */
  static org.apache.calcite.tools.Program standard(org.apache.calcite.plan.RelOptPlanner planner) {
    var metadata = JoinCardinality.PROVIDER;
    return ShortPath.first(() -> org.apache.calcite.tools.Programs.sequence(
        BasaltRules.existsToJoins(metadata),
        org.apache.calcite.tools.Programs.subQuery(metadata),
        org.apache.calcite.tools.Programs.decorrelate(),
        org.apache.calcite.tools.Programs.measure(metadata),
        org.apache.calcite.tools.Programs.trim(),
        new ShortPath(new SmallPlans((p, rel, traits, materializations, lattices) ->
            // made when the search runs: asking the planner for its rules registers them all
            joinOrder(joinRules(planner), metadata)
                .run(p, rel, traits, materializations, lattices))),
        org.apache.calcite.tools.Programs.calc(metadata)));
  }

  /**
   * The planner's rules but those turning an inner join into a semi-join: they take a table
   * that contributes only keys (TPC-H's orders in Q5 and Q7) out of the join graph, leaving the
   * remaining tables to meet through a many-to-many key (the nation key), which is what the
   * heuristic join order then builds on. IN and EXISTS still become semi-joins.
   */
  static List<org.apache.calcite.plan.RelOptRule> joinRules(
      org.apache.calcite.plan.RelOptPlanner planner) {
    List<org.apache.calcite.plan.RelOptRule> rules = new ArrayList<>();
    for (org.apache.calcite.plan.RelOptRule r : planner.getRules()) {
      if (!(r instanceof org.apache.calcite.rel.rules.SemiJoinRule)) {
        rules.add(r);
      }
    }
    return rules;
  }

  /**
   * The planner's rules; from {@link #HEURISTIC_JOINS} joins, first each side of a join
   * filtered by what an OR in its condition implies for it
   * ({@link BasaltRules#IMPLIED_SIDE_FILTER}), an aggregate joined on a
   * group key restricted to the keys a filtered table gives
   * ({@link BasaltRules#AGGREGATE_KEY_REDUCTION}), the joins gathered into one
   * multi-join with the column equalities its conditions imply
   * ({@link BasaltRules#JOIN_EQUALITY_CLOSURE}), which
   * {@code LoptOptimizeJoinRule} and
   * {@link BasaltRules#SMALLEST_FIRST_JOIN_ORDER} then order, without the rules
   * that reassociate joins (the one that swaps a join's sides stays: the heuristic puts the
   * biggest table on the left of every join, where a hash join costs most). As Calcite's
   * {@code Programs.heuristicJoinOrder}, but its
   * multi-join step installs Calcite's default metadata on the cluster, and the ordering must
   * see Basalt's join row counts ({@link JoinCardinality}).
   */
  static org.apache.calcite.tools.Program joinOrder(
      List<org.apache.calcite.plan.RelOptRule> rules,
      org.apache.calcite.rel.metadata.RelMetadataProvider metadata) {
    return (planner, rel, traits, materializations, lattices) -> {
      MetadataHandlers.startCompiling(); // the search asks metadata often
      org.apache.calcite.tools.Program program;
      boolean heuristic = org.apache.calcite.plan.RelOptUtil.countJoins(rel) >= HEURISTIC_JOINS;
      if (heuristic && !MetadataHandlers.compiled()
          && MetadataHandlers.awaitCompiled(COMPILE_WAIT_MILLIS)) {
        rel.getCluster().setMetadataQuerySupplier(MetadataHandlers.supplier());
      }
      if (!heuristic) {
        program = org.apache.calcite.tools.Programs.ofRules(rules);
      } else {
        var gather = new org.apache.calcite.plan.hep.HepProgramBuilder()
            .addRuleInstance(CoreRules.FILTER_INTO_JOIN)
            .addRuleInstance(BasaltRules.IMPLIED_SIDE_FILTER)
            .addRuleInstance(CoreRules.FILTER_INTO_JOIN)
            .addRuleInstance(BasaltRules.AGGREGATE_KEY_REDUCTION)
            .addMatchOrder(org.apache.calcite.plan.hep.HepMatchOrder.BOTTOM_UP)
            .addRuleInstance(CoreRules.JOIN_TO_MULTI_JOIN)
            .addRuleInstance(BasaltRules.JOIN_EQUALITY_CLOSURE)
            .build();
        List<org.apache.calcite.plan.RelOptRule> order = new ArrayList<>(rules);
        order.removeAll(List.of(CoreRules.JOIN_ASSOCIATE,
            org.apache.calcite.rel.rules.JoinPushThroughJoinRule.LEFT,
            org.apache.calcite.rel.rules.JoinPushThroughJoinRule.RIGHT));
        order.add(CoreRules.MULTI_JOIN_OPTIMIZE);
        if (Switches.SMALLEST_FIRST.on()) {
          order.add(BasaltRules.SMALLEST_FIRST_JOIN_ORDER);
        }
        program = org.apache.calcite.tools.Programs.sequence(
            org.apache.calcite.tools.Programs.of(gather, false, metadata),
            org.apache.calcite.tools.Programs.ofRules(order));
      }
      rel.getCluster().invalidateMetadataQuery(); // made again, with the providers now set
      return program.run(planner, rel, traits, materializations, lattices);
    };
  }
}
