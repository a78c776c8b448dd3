package io.basaltdb.sql.rel;

import io.basaltdb.sql.exec.TableRuns;
import io.basaltdb.sql.pushdown.ScanSpec;
import java.util.List;
import org.apache.calcite.adapter.enumerable.EnumerableRel;
import org.apache.calcite.adapter.enumerable.EnumerableRelImplementor;
import org.apache.calcite.adapter.enumerable.JavaRowFormat;
import org.apache.calcite.adapter.enumerable.PhysType;
import org.apache.calcite.adapter.enumerable.PhysTypeImpl;
import org.apache.calcite.linq4j.tree.BlockBuilder;
import org.apache.calcite.linq4j.tree.Expression;
import org.apache.calcite.linq4j.tree.Expressions;
import org.apache.calcite.plan.ConventionTraitDef;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptCost;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.convert.ConverterImpl;
import org.apache.calcite.rel.metadata.RelMetadataQuery;

/**
 * Joins a Basalt subtree (a {@link BasaltScan}) to Calcite's enumerable plan: the generated
 * code calls {@link TableRuns#query} with the scan's spec, both handed over as stashed
 * objects (never re-planned per execution), and gets rows as {@code Object[]} (one-field rows
 * as the bare values, the form Calcite's operators expect of them). The scan that is its
 * plan's only read ({@link SoleRead}) is called as a {@link TableRuns.SoleScan} instead: a
 * point read then runs as one get, without a statement snapshot.
 */
public final class BasaltToEnumerableConverter extends ConverterImpl implements EnumerableRel {
  /** The scan is its plan's only read of storage. */
  private final boolean soleRead;

  public BasaltToEnumerableConverter(RelOptCluster cluster, RelTraitSet traits, RelNode input) {
    this(cluster, traits, input, false);
  }

  private BasaltToEnumerableConverter(RelOptCluster cluster, RelTraitSet traits, RelNode input,
      boolean soleRead) {
    super(cluster, ConventionTraitDef.INSTANCE, traits, input);
    this.soleRead = soleRead;
  }

  /** This converter, its scan being its plan's only read. */
  BasaltToEnumerableConverter asSoleRead() {
    return new BasaltToEnumerableConverter(getCluster(), getTraitSet(), getInput(), true);
  }

  @Override
  public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
    return new BasaltToEnumerableConverter(getCluster(), traitSet, sole(inputs), soleRead);
  }

  @Override
  public RelOptCost computeSelfCost(RelOptPlanner planner, RelMetadataQuery mq) {
    return super.computeSelfCost(planner, mq).multiplyBy(0.1);
  }

  @Override
  public Result implement(EnumerableRelImplementor implementor, Prefer pref) {
    BasaltScan scan = (BasaltScan) getInput();
    // one field: rows are the values themselves, as Calcite's operators read one-field rows
    boolean scalar = getRowType().getFieldCount() == 1;
    PhysType physType = PhysTypeImpl.of(implementor.getTypeFactory(), getRowType(),
        scalar ? JavaRowFormat.SCALAR : JavaRowFormat.ARRAY, false);
    BlockBuilder b = new BlockBuilder();
    if (soleRead) {
      Expression run = implementor.stash(scan.basaltTable().runs().soleScan(scan.spec()),
          TableRuns.SoleScan.class);
      b.add(Expressions.return_(null, Expressions.call(run, scalar ? "values" : "rows",
          implementor.getRootExpression())));
      return implementor.result(physType, b.toBlock());
    }
    Expression table = implementor.stash(scan.basaltTable().runs(), TableRuns.class);
    Expression spec = implementor.stash(scan.spec(), ScanSpec.class);
    b.add(Expressions.return_(null, Expressions.call(table, scalar ? "queryScalar" : "query",
        implementor.getRootExpression(), spec)));
    return implementor.result(physType, b.toBlock());
  }
}
