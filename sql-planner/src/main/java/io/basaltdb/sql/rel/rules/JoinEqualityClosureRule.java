package io.basaltdb.sql.rel.rules;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.calcite.plan.RelOptRule;
import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.plan.RelRule;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.rules.MultiJoin;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.type.SqlTypeUtil;
import org.apache.calcite.util.ImmutableIntList;

/**
 * Adds to an inner multi-join the column equalities its conditions imply: from {@code a = b}
 * and {@code b = c}, {@code a = c} when {@code a} and {@code c} are columns of different
 * tables. TPC-H's Q5 joins customers to suppliers and suppliers to nations on the nation key;
 * with {@code c_nationkey = n_nationkey} made explicit the heuristic join order may meet the
 * customers with the few nations of one region before the line items are looked up, instead of
 * only after, through the suppliers.
 *
 * <p>Same answers: for a row that passes {@code a = b AND b = c}, all three are equal and not
 * null, so {@code a = c} is true; the added condition removes no row the others keep. Only a
 * multi-join of inner joins (a null-generating side would change that), only between columns
 * of one type, and only equalities not already there, so the rule adds nothing the second
 * time.
 */
final class JoinEqualityClosureRule extends RelRule<RuleConfig> {
  static final RelOptRule INSTANCE = RuleConfig.of("BasaltJoinEqualityClosureRule",
      b -> b.operand(MultiJoin.class).predicate(JoinEqualityClosureRule::allInner).anyInputs(),
      JoinEqualityClosureRule::new).toRule();

  private JoinEqualityClosureRule(RuleConfig config) {
    super(config);
  }

  /** Whether every input of {@code m} is inner-joined. */
  static boolean allInner(MultiJoin m) {
    if (m.isFullOuterJoin()) {
      return false;
    }
    for (int i = 0; i < m.getInputs().size(); i++) {
      if (m.getJoinTypes().get(i) != JoinRelType.INNER
          || m.getOuterJoinConditions().get(i) != null) {
        return false;
      }
    }
    return true;
  }

  @Override
  public void onMatch(RelOptRuleCall call) {
    MultiJoin join = call.rel(0);
    RexBuilder rb = join.getCluster().getRexBuilder();
    List<RexNode> conjuncts = RelOptUtil.conjunctions(join.getJoinFilter());
    int fields = join.getRowType().getFieldCount();
    int[] factorOf = factors(join, fields);

    int[] parent = new int[fields];
    for (int i = 0; i < fields; i++) {
      parent[i] = i;
    }
    Set<Long> direct = new HashSet<>();
    for (RexNode c : conjuncts) {
      int[] pair = columnEquality(c);
      if (pair != null) {
        parent[root(parent, pair[0])] = root(parent, pair[1]);
        direct.add(pairKey(pair[0], pair[1]));
      }
    }
    Map<Integer, List<Integer>> classes = new HashMap<>();
    for (int i = 0; i < fields; i++) {
      classes.computeIfAbsent(root(parent, i), k -> new ArrayList<>()).add(i);
    }
    List<RexNode> added = new ArrayList<>();
    for (List<Integer> members : classes.values()) {
      for (int x = 0; x < members.size(); x++) {
        for (int y = x + 1; y < members.size(); y++) {
          int a = members.get(x);
          int b = members.get(y);
          if (factorOf[a] == factorOf[b] || direct.contains(pairKey(a, b))) {
            continue; // within one table, or already a condition
          }
          RexInputRef ra = rb.makeInputRef(join, a);
          RexInputRef rbRef = rb.makeInputRef(join, b);
          if (SqlTypeUtil.equalSansNullability(ra.getType(), rbRef.getType())) {
            added.add(rb.makeCall(SqlStdOperatorTable.EQUALS, ra, rbRef));
          }
        }
      }
    }
    if (added.isEmpty()) {
      return;
    }
    RexNode filter = RexUtil.composeConjunction(rb, concat(conjuncts, added));
    call.transformTo(new MultiJoin(join.getCluster(), join.getInputs(), filter,
        join.getRowType(), false, join.getOuterJoinConditions(), join.getJoinTypes(),
        join.getProjFields(), refCounts(join, factorOf, added), join.getPostJoinFilter()));
  }

  /** The fields {@code [a, b]} of {@code $a = $b}, else null. */
  private static int[] columnEquality(RexNode c) {
    if (c.getKind() != SqlKind.EQUALS) {
      return null;
    }
    List<RexNode> ops = ((RexCall) c).getOperands();
    if (ops.get(0) instanceof RexInputRef l && ops.get(1) instanceof RexInputRef r
        && l.getIndex() != r.getIndex()) {
      return new int[] {l.getIndex(), r.getIndex()};
    }
    return null;
  }

  private static int root(int[] parent, int i) {
    while (parent[i] != i) {
      parent[i] = parent[parent[i]];
      i = parent[i];
    }
    return i;
  }

  private static long pairKey(int a, int b) {
    return ((long) Math.min(a, b) << 32) | Math.max(a, b);
  }

  /** The input each field of the multi-join's row comes from. */
  private static int[] factors(MultiJoin join, int fields) {
    int[] factorOf = new int[fields];
    int field = 0;
    for (int f = 0; f < join.getInputs().size(); f++) {
      int n = join.getInputs().get(f).getRowType().getFieldCount();
      for (int i = 0; i < n; i++) {
        factorOf[field++] = f;
      }
    }
    return factorOf;
  }

  /** The join's per-input counts of references from its condition, with those added. */
  private static com.google.common.collect.ImmutableMap<Integer, ImmutableIntList> refCounts(
      MultiJoin join, int[] factorOf, List<RexNode> added) {
    Map<Integer, int[]> counts = join.getCopyJoinFieldRefCountsMap();
    int[] start = new int[join.getInputs().size()];
    for (int f = 1; f < start.length; f++) {
      start[f] = start[f - 1] + join.getInputs().get(f - 1).getRowType().getFieldCount();
    }
    for (RexNode e : added) {
      for (RexNode op : ((RexCall) e).getOperands()) {
        int i = ((RexInputRef) op).getIndex();
        counts.get(factorOf[i])[i - start[factorOf[i]]]++;
      }
    }
    var b = com.google.common.collect.ImmutableMap.<Integer, ImmutableIntList>builder();
    counts.forEach((k, v) -> b.put(k, ImmutableIntList.of(v)));
    return b.build();
  }

  private static List<RexNode> concat(List<RexNode> a, List<RexNode> b) {
    List<RexNode> all = new ArrayList<>(a);
    all.addAll(b);
    return all;
  }
}
