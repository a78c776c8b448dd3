package io.basaltdb.sql.rel.rules;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.calcite.plan.RelOptRule;
import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.plan.RelRule;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.CorrelationId;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.logical.LogicalFilter;
import org.apache.calcite.rel.logical.LogicalJoin;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexCorrelVariable;
import org.apache.calcite.rex.RexFieldAccess;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexSubQuery;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.rex.RexVisitorImpl;
import org.apache.calcite.sql.SqlKind;

/**
 * {@code WHERE ... AND [NOT] EXISTS (SELECT ... FROM r WHERE cond)}, where {@code r} is
 * uncorrelated and the outer row appears only in {@code cond}: the filter's other conditions,
 * then a SEMI (ANTI) join of their rows with {@code r} on {@code cond}, the outer row's fields
 * in place of the correlation variable. Calcite's sub-query removal would make a correlate,
 * which its decorrelator turns, when {@code cond} is more than equalities (TPC-H's Q21:
 * {@code l2.l_orderkey = l1.l_orderkey AND l2.l_suppkey <> l1.l_suppkey}), into aggregates
 * over all of {@code r} joined with the distinct outer rows, the outer query computed again for
 * them. The join keeps the equalities as its keys and the rest as its condition per pair, so a
 * key prefix of {@code r} can be looked up ({@link LookupJoinRule}). Same answers: a SEMI join
 * keeps each left row for which some right row makes the condition TRUE, an ANTI join each row
 * for which none does, as EXISTS and NOT EXISTS do. Runs before Calcite's sub-query removal.
 */
final class ExistsToJoinRule extends RelRule<RuleConfig> {
  static final RelOptRule INSTANCE = RuleConfig.of("BasaltExistsToJoinRule",
      b -> b.operand(LogicalFilter.class).predicate(f -> RexUtil.SubQueryFinder.find(
          f.getCondition()) != null).anyInputs(),
      ExistsToJoinRule::new).toRule();

  private ExistsToJoinRule(RuleConfig config) {
    super(config);
  }

  @Override
  public void onMatch(RelOptRuleCall call) {
    LogicalFilter filter = call.rel(0);
    RelNode input = filter.getInput();
    RexBuilder rex = filter.getCluster().getRexBuilder();
    List<RexNode> rest = new ArrayList<>();
    List<JoinRelType> types = new ArrayList<>();
    List<RelNode> rights = new ArrayList<>();
    List<RexNode> conditions = new ArrayList<>();
    for (RexNode c : RelOptUtil.conjunctions(filter.getCondition())) {
      boolean not = c.getKind() == SqlKind.NOT;
      RexNode e = not ? ((RexCall) c).getOperands().get(0) : c;
      RexNode joined = e instanceof RexSubQuery q && q.getKind() == SqlKind.EXISTS
          ? joinCondition(q.rel, filter.getVariablesSet(), input, rex, rights) : null;
      if (joined == null) {
        rest.add(c);
      } else {
        types.add(not ? JoinRelType.ANTI : JoinRelType.SEMI);
        conditions.add(joined);
      }
    }
    if (types.isEmpty()) {
      return;
    }
    RelNode out = rest.isEmpty() ? input : LogicalFilter.create(input,
        RexUtil.composeConjunction(rex, rest),
        com.google.common.collect.ImmutableSet.copyOf(filter.getVariablesSet()));
    for (int i = 0; i < types.size(); i++) {
      out = LogicalJoin.create(out, rights.get(i), List.of(), conditions.get(i), Set.of(),
          types.get(i));
    }
    call.transformTo(out);
  }

  /**
   * The join condition of an EXISTS sub-query over {@code outer}'s rows, or null when it is
   * not of the form taken; on success its right side is added to {@code rights}.
   */
  private static RexNode joinCondition(RelNode subQuery, Set<CorrelationId> variables,
      RelNode outer, RexBuilder rex, List<RelNode> rights) {
    RelNode rel = subQuery;
    while (rel instanceof LogicalProject p && !RexUtil.SubQueryFinder.containsSubQuery(p)) {
      rel = p.getInput(); // EXISTS asks for rows, not columns
    }
    if (!(rel instanceof LogicalFilter f) || !f.getVariablesSet().isEmpty()
        || !RelOptUtil.getVariablesUsed(f.getInput()).isEmpty()
        || RexUtil.SubQueryFinder.find(f.getCondition()) != null) {
      return null;
    }
    int width = outer.getRowType().getFieldCount();
    boolean[] ok = {true};
    // the condition's own correlation: only the filter's variables; their fields are found in
    // the filter's input by name (its columns may have been pruned since the variable was
    // made), each name once there and of the same type
    f.getCondition().accept(new RexVisitorImpl<Void>(true) {
      @Override
      public Void visitFieldAccess(RexFieldAccess access) {
        if (access.getReferenceExpr() instanceof RexCorrelVariable v
            && (!variables.contains(v.id) || field(outer, access) < 0)) {
          ok[0] = false;
        }
        return super.visitFieldAccess(access);
      }
    });
    if (!ok[0]) {
      return null;
    }
    RexNode condition = f.getCondition().accept(new RexShuttle() {
      @Override
      public RexNode visitInputRef(RexInputRef ref) {
        return new RexInputRef(ref.getIndex() + width, ref.getType());
      }

      @Override
      public RexNode visitFieldAccess(RexFieldAccess access) {
        if (access.getReferenceExpr() instanceof RexCorrelVariable) {
          int i = field(outer, access);
          return rex.makeInputRef(outer.getRowType().getFieldList().get(i).getType(), i);
        }
        return super.visitFieldAccess(access);
      }
    });
    ok[0] = true;
    condition.accept(new RexVisitorImpl<Void>(true) {
      @Override
      public Void visitCorrelVariable(RexCorrelVariable v) {
        ok[0] = false; // a correlation left in a nested expression
        return null;
      }
    });
    if (!ok[0]) {
      return null;
    }
    // conditions on the sub-query's rows alone stay a filter over them (pushed into a scan)
    List<RexNode> onRight = new ArrayList<>();
    List<RexNode> onPairs = new ArrayList<>();
    for (RexNode c : RelOptUtil.conjunctions(condition)) {
      org.apache.calcite.util.ImmutableBitSet used = RelOptUtil.InputFinder.bits(c);
      (used.isEmpty() || used.nextSetBit(0) < width ? onPairs : onRight).add(c);
    }
    if (onPairs.isEmpty()) {
      return null; // uncorrelated: Calcite's removal handles it
    }
    RelNode right = f.getInput();
    if (!onRight.isEmpty()) {
      right = LogicalFilter.create(right, RexUtil.shift(RexUtil.composeConjunction(rex, onRight),
          -width));
    }
    rights.add(right);
    return RexUtil.composeConjunction(rex, onPairs);
  }

  /** The field of {@code outer} a correlation field access reads, or -1. */
  private static int field(RelNode outer, RexFieldAccess access) {
    String name = access.getField().getName();
    int found = -1;
    List<org.apache.calcite.rel.type.RelDataTypeField> fields = outer.getRowType().getFieldList();
    for (int i = 0; i < fields.size(); i++) {
      if (fields.get(i).getName().equals(name)) {
        if (found >= 0) {
          return -1; // the name twice: which one is meant is not known
        }
        found = i;
      }
    }
    return found >= 0 && fields.get(found).getType().equals(access.getField().getType())
        ? found : -1;
  }
}
