package io.basaltdb.sql.rel.rules;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import org.apache.calcite.plan.RelOptRule;
import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.plan.RelRule;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.logical.LogicalJoin;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rel.rules.MultiJoin;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.tools.RelBuilder;
import org.apache.calcite.util.ImmutableBitSet;

/**
 * More join orders for an inner multi-join, beside those of Calcite's
 * {@code LoptOptimizeJoinRule}: from each table in turn, the table added next is the one whose
 * join with the tables so far is estimated to give the fewest rows ({@link JoinCardinality}).
 * Calcite's heuristic adds the table giving the most rows among those joined by an equality,
 * which builds the big hash joins first; it never looks TPC-H's Q5 orders up in the customers
 * and cuts them to one region's nations before their line items are looked up. Every order
 * made here is offered to the cost-based planner with Calcite's, which keeps the cheapest;
 * nothing is taken away.
 *
 * <p>Only joins whose every input is inner (a null-generating side must come after the sides
 * it depends on), of at most {@link #MAX_TABLES} tables. A table no condition connects is
 * added last, the smallest first.
 */
final class SmallestFirstJoinOrderRule extends RelRule<RuleConfig> {
  static final int MAX_TABLES = 12;

  static final RelOptRule INSTANCE = RuleConfig.of("BasaltSmallestFirstJoinOrderRule",
      b -> b.operand(MultiJoin.class).predicate(m -> m.getInputs().size() <= MAX_TABLES
          && JoinEqualityClosureRule.allInner(m)).anyInputs(),
      SmallestFirstJoinOrderRule::new).toRule();

  private SmallestFirstJoinOrderRule(RuleConfig config) {
    super(config);
  }

  @Override
  public void onMatch(RelOptRuleCall call) {
    MultiJoin join = call.rel(0);
    Factors factors = new Factors(join, call.getMetadataQuery());
    List<RelNode> plans = new ArrayList<>();
    java.util.Set<List<Integer>> seen = new java.util.HashSet<>();
    for (int first = 0; first < join.getInputs().size(); first++) {
      Ordered o = factors.orderFrom(first, call.builder());
      // from a and then b, or from b and then a: one join tree, its sides swapped, which the
      // planner tries anyway; offered once (a cold TPC-H Q2 planned a third slower with both)
      List<Integer> key = new ArrayList<>(o.order());
      if (key.size() > 1 && key.get(0) > key.get(1)) {
        java.util.Collections.swap(key, 0, 1);
      }
      if (seen.add(key)) {
        plans.add(o.plan());
      }
    }
    plans.forEach(call::transformTo); // after all are built: none is registered half made
  }

  /** A join order (the factors in the order joined) and its plan. */
  private record Ordered(List<Integer> order, RelNode plan) {}

  /** A multi-join's inputs and conditions, and the order-building step. */
  private static final class Factors {
    private final MultiJoin join;
    private final RelMetadataQuery mq;
    private final RexBuilder rb;
    private final List<RelNode> inputs;
    private final int[] start;
    private final List<RexNode> conditions;
    private final List<ImmutableBitSet> conditionFactors = new ArrayList<>();

    Factors(MultiJoin join, RelMetadataQuery mq) {
      this.join = join;
      this.mq = mq;
      this.rb = join.getCluster().getRexBuilder();
      this.inputs = join.getInputs();
      this.start = new int[inputs.size() + 1];
      for (int f = 0; f < inputs.size(); f++) {
        start[f + 1] = start[f] + inputs.get(f).getRowType().getFieldCount();
      }
      this.conditions = RelOptUtil.conjunctions(join.getJoinFilter());
      for (RexNode c : conditions) {
        ImmutableBitSet.Builder fs = ImmutableBitSet.builder();
        for (int field : RelOptUtil.InputFinder.bits(c)) {
          fs.set(factorOf(field));
        }
        conditionFactors.add(fs.build());
      }
    }

    private int factorOf(int field) {
      int f = 0;
      while (start[f + 1] <= field) {
        f++;
      }
      return f;
    }

    /** A left-deep order from {@code first}, projected back to the multi-join's row. */
    Ordered orderFrom(int first, RelBuilder builder) {
      List<Integer> order = new ArrayList<>(List.of(first));
      ImmutableBitSet joined = ImmutableBitSet.of(first);
      BitSet applied = new BitSet();
      RelNode tree = inputs.get(first);
      while (order.size() < inputs.size()) {
        RelNode best = null;
        int bestFactor = -1;
        double bestRows = Double.MAX_VALUE;
        BitSet bestApplied = null;
        for (int f = 0; f < inputs.size(); f++) {
          if (joined.get(f)) {
            continue;
          }
          ImmutableBitSet with = joined.set(f);
          BitSet now = new BitSet();
          for (int c = 0; c < conditions.size(); c++) {
            if (!applied.get(c) && conditionFactors.get(c).get(f)
                && with.contains(conditionFactors.get(c))) {
              now.set(c);
            }
          }
          if (now.isEmpty()) {
            continue; // not connected yet
          }
          RelNode candidate = join(tree, order, f, now);
          Double rows = mq.getRowCount(candidate);
          double r = rows == null ? Double.MAX_VALUE / 2 : rows;
          if (r < bestRows) {
            best = candidate;
            bestFactor = f;
            bestRows = r;
            bestApplied = now;
          }
        }
        if (best == null) { // nothing connected: the smallest table left, as a cross join
          for (int f = 0; f < inputs.size(); f++) {
            Double rows = mq.getRowCount(inputs.get(f));
            double r = rows == null ? Double.MAX_VALUE / 2 : rows;
            if (!joined.get(f) && r < bestRows) {
              bestFactor = f;
              bestRows = r;
            }
          }
          bestApplied = new BitSet();
          best = join(tree, order, bestFactor, bestApplied);
        }
        tree = best;
        order.add(bestFactor);
        joined = joined.set(bestFactor);
        applied.or(bestApplied);
      }
      List<RexNode> rest = new ArrayList<>();
      for (int c = applied.nextClearBit(0); c < conditions.size();
          c = applied.nextClearBit(c + 1)) {
        rest.add(conditions.get(c)); // within one table, or none
      }
      int[] position = positions(order);
      builder.push(tree);
      List<RexNode> fields = new ArrayList<>();
      for (int i = 0; i < position.length; i++) {
        fields.add(builder.field(position[i]));
      }
      builder.project(fields, join.getRowType().getFieldNames(), true);
      if (!rest.isEmpty()) {
        builder.filter(rest);
      }
      if (join.getPostJoinFilter() != null) {
        builder.filter(join.getPostJoinFilter());
      }
      return new Ordered(order, builder.build());
    }

    /** {@code tree} (the factors of {@code order}) joined with factor {@code f}. */
    private RelNode join(RelNode tree, List<Integer> order, int f, BitSet conds) {
      List<Integer> after = new ArrayList<>(order);
      after.add(f);
      int[] position = positions(after);
      List<RexNode> on = new ArrayList<>();
      for (int c = conds.nextSetBit(0); c >= 0; c = conds.nextSetBit(c + 1)) {
        on.add(conditions.get(c).accept(new RexShuttle() {
          @Override
          public RexNode visitInputRef(RexInputRef ref) {
            return rb.makeInputRef(ref.getType(), position[ref.getIndex()]);
          }
        }));
      }
      return LogicalJoin.create(tree, inputs.get(f), List.of(),
          RexUtil.composeConjunction(rb, on), java.util.Set.of(), JoinRelType.INNER);
    }

    /**
     * Where each field of the multi-join's row is in a join of the factors {@code order} (-1
     * for a factor not joined yet).
     */
    private int[] positions(List<Integer> order) {
      int[] position = new int[start[inputs.size()]];
      java.util.Arrays.fill(position, -1);
      int at = 0;
      for (int f : order) {
        for (int i = start[f]; i < start[f + 1]; i++) {
          position[i] = at++;
        }
      }
      return position;
    }
  }
}
