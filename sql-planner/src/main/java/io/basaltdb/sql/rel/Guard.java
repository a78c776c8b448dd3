package io.basaltdb.sql.rel;

import io.basaltdb.sql.exec.context.QueryGuard;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.adapter.enumerable.EnumerableAggregate;
import org.apache.calcite.adapter.enumerable.EnumerableHashJoin;
import org.apache.calcite.adapter.enumerable.EnumerableIntersect;
import org.apache.calcite.adapter.enumerable.EnumerableMinus;
import org.apache.calcite.adapter.enumerable.EnumerableRel;
import org.apache.calcite.adapter.enumerable.EnumerableRelImplementor;
import org.apache.calcite.adapter.enumerable.EnumerableSort;
import org.apache.calcite.adapter.enumerable.EnumerableUnion;
import org.apache.calcite.adapter.enumerable.EnumerableWindow;
import org.apache.calcite.linq4j.tree.BlockBuilder;
import org.apache.calcite.linq4j.tree.Expression;
import org.apache.calcite.linq4j.tree.Expressions;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelWriter;
import org.apache.calcite.rel.SingleRel;

/**
 * A pass-through node, put into a physical plan just before it is implemented, that reads its
 * input through {@link QueryGuard}: the statement's cancel flag at every row and, for the input
 * of an operator that keeps what it reads, its memory budget. {@link #insert} puts one under
 * every input that is not a Basalt scan (which checks for itself) nor a write's, and at the
 * root, and under
 * every input an operator keeps (scan or not): a sort, a window, a hash join's build (right)
 * side, the inputs of a distinct union, a set difference or an intersection, and a hash
 * aggregate's input (charged per group, not per row). Never in EXPLAIN
 * (inserted after it is written), never in plans without generated code.
 */
public final class Guard extends SingleRel implements EnumerableRel {
  private final String operator;
  private final boolean retains;
  /** For a hash aggregate's input: its group fields ("0,2") and accumulator count; else null. */
  private final String groupKeys;
  private final int accumulators;

  private Guard(RelNode input, String operator, boolean retains) {
    this(input, operator, retains, null, 0);
  }

  private Guard(RelNode input, String operator, boolean retains, String groupKeys,
      int accumulators) {
    super(input.getCluster(), input.getTraitSet(), input);
    this.operator = operator;
    this.retains = retains;
    this.groupKeys = groupKeys;
    this.accumulators = accumulators;
  }

  @Override
  public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
    return new Guard(sole(inputs), operator, retains, groupKeys, accumulators);
  }

  @Override
  public RelWriter explainTerms(RelWriter pw) {
    return super.explainTerms(pw).item("operator", operator).item("retains", retains)
        .itemIf("groups", groupKeys, groupKeys != null);
  }

  @Override
  public Result implement(EnumerableRelImplementor implementor, Prefer pref) {
    Result in = implementor.visitChild(this, 0, (EnumerableRel) getInput(), pref);
    BlockBuilder b = new BlockBuilder();
    Expression child = b.append("guarded", in.block);
    b.add(Expressions.return_(null, groupKeys != null
        ? Expressions.call(QueryGuard.class, "guardGroups", child,
            implementor.getRootExpression(), Expressions.constant(operator),
            Expressions.constant(groupKeys), Expressions.constant(accumulators))
        : Expressions.call(QueryGuard.class, "guard", child,
            implementor.getRootExpression(), Expressions.constant(operator),
            Expressions.constant(retains))));
    return implementor.result(in.physType, b.toBlock());
  }

  /** {@code root} (an enumerable plan) with guards under its inputs and at its top. */
  public static RelNode insert(RelNode root) {
    return new Guard(guardInputs(root), root.getRelTypeName() + " (result)", false);
  }

  private static RelNode guardInputs(RelNode node) {
    List<RelNode> inputs = node.getInputs();
    if (inputs.isEmpty() || node instanceof BasaltToEnumerableConverter) {
      return node;
    }
    List<RelNode> guarded = new ArrayList<>(inputs.size());
    boolean changed = false;
    for (int i = 0; i < inputs.size(); i++) {
      RelNode in = guardInputs(inputs.get(i));
      boolean retains = retains(node, i);
      // a write's input stays as it is: the write recognizes its shape (a counter update by
      // key), and it writes each row as it comes (deeper inputs are guarded)
      boolean checksItself = in instanceof BasaltToEnumerableConverter
          || node instanceof BasaltTableModify;
      if (node instanceof EnumerableAggregate agg && !agg.getGroupSet().isEmpty()) {
        // a hash aggregate keeps a group per distinct key: charged per new group
        in = new Guard(in, describe(node, i), false, agg.getGroupSet().asList().stream()
            .map(String::valueOf).collect(java.util.stream.Collectors.joining(",")),
            agg.getAggCallList().size());
      } else if (retains || !checksItself) {
        in = new Guard(in, describe(node, i), retains);
      }
      changed |= in != inputs.get(i);
      guarded.add(in);
    }
    return changed ? node.copy(node.getTraitSet(), guarded) : node;
  }

  private static boolean retains(RelNode node, int input) {
    return node instanceof EnumerableSort s && !s.getCollation().getFieldCollations().isEmpty()
            && s.fetch == null
        || node instanceof EnumerableWindow
        || node instanceof EnumerableHashJoin && input == 1
        || node instanceof EnumerableMinus || node instanceof EnumerableIntersect
        || node instanceof EnumerableUnion u && !u.all;
  }

  private static String describe(RelNode node, int input) {
    String name = node.getRelTypeName().replaceFirst("^Enumerable", "");
    if (node instanceof EnumerableHashJoin) {
      return name + (input == 1 ? " (build side)" : " (probe side)");
    }
    return node.getInputs().size() > 1 ? name + " (input " + (input + 1) + ")" : name;
  }
}
