package io.basaltdb.sql.rel;

import io.basaltdb.sql.exec.context.Analysis;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.adapter.enumerable.EnumerableRel;
import org.apache.calcite.adapter.enumerable.EnumerableRelImplementor;
import org.apache.calcite.linq4j.tree.BlockBuilder;
import org.apache.calcite.linq4j.tree.Expression;
import org.apache.calcite.linq4j.tree.Expressions;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelWriter;
import org.apache.calcite.rel.SingleRel;

/**
 * A pass-through node over each enumerable operator of a plan that EXPLAIN ANALYZE runs: it
 * counts the operator's rows and time ({@link Analysis#counted}) under the operator's number,
 * its position in the plan's pre-order (as EXPLAIN prints the plan). Only in plans made for
 * EXPLAIN ANALYZE.
 */
public final class AnalyzeProbe extends SingleRel implements EnumerableRel {
  private final int operator;

  private AnalyzeProbe(RelNode input, int operator) {
    super(input.getCluster(), input.getTraitSet(), input);
    this.operator = operator;
  }

  @Override
  public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
    return new AnalyzeProbe(sole(inputs), operator);
  }

  @Override
  public RelWriter explainTerms(RelWriter pw) {
    return super.explainTerms(pw).item("operator", operator);
  }

  @Override
  public Result implement(EnumerableRelImplementor implementor, Prefer pref) {
    Result in = implementor.visitChild(this, 0, (EnumerableRel) getInput(), pref);
    BlockBuilder b = new BlockBuilder();
    Expression child = b.append("probed", in.block);
    b.add(Expressions.return_(null, Expressions.call(Analysis.class, "counted", child,
        implementor.getRootExpression(), Expressions.constant(operator))));
    return implementor.result(in.physType, b.toBlock());
  }

  /**
   * {@code root} with a probe over every enumerable operator, numbered in pre-order (every
   * node counts, enumerable or not); {@code count[0]} gets the number of nodes.
   */
  public static RelNode insert(RelNode root, int[] count) {
    return probe(root, count);
  }

  private static RelNode probe(RelNode node, int[] next) {
    int id = next[0]++;
    List<RelNode> inputs = new ArrayList<>();
    boolean changed = false;
    for (RelNode in : node.getInputs()) {
      RelNode p = probe(in, next);
      changed |= p != in;
      inputs.add(p);
    }
    RelNode n = changed ? node.copy(node.getTraitSet(), inputs) : node;
    return n instanceof EnumerableRel ? new AnalyzeProbe(n, id) : n;
  }
}
