package io.basaltdb.sql.rel.rules;

import io.basaltdb.sql.rel.BasaltScan;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.plan.RelRule;
import org.apache.calcite.rel.RelCollation;
import org.apache.calcite.rel.RelCollations;
import org.apache.calcite.rel.RelFieldCollation;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.util.ImmutableBitSet;

/** Project over a scan: the scan returns only the columns the projection uses. */
final class ProjectRule extends RelRule<RuleConfig> {
  ProjectRule(RuleConfig config) {
    super(config);
  }

  @Override
  public void onMatch(RelOptRuleCall call) {
    Project project = call.rel(0);
    BasaltScan scan = call.rel(1);
    ImmutableBitSet used = RelOptUtil.InputFinder.bits(project.getProjects(), null);
    List<Integer> cols = scan.spec().columns();
    if (used.cardinality() == cols.size()) {
      return; // every column is used: nothing to narrow
    }
    List<Integer> kept = new ArrayList<>();
    int[] map = new int[cols.size()];
    List<Integer> refs = new ArrayList<>(); // a projection of distinct columns: in its order,
    for (RexNode e : project.getProjects()) { // so no reordering projection stays above
      if (!(e instanceof RexInputRef ref) || refs.contains(ref.getIndex())) {
        refs = null;
        break;
      }
      refs.add(ref.getIndex());
    }
    for (int i : refs != null ? refs : used.asList()) {
      map[i] = kept.size();
      kept.add(cols.get(i));
    }
    RelCollation collation = scan.getTraitSet().getCollation();
    for (RelFieldCollation fc : collation.getFieldCollations()) {
      if (!used.get(fc.getFieldIndex())) {
        return; // the scan's order is on a column the projection drops: keep it
      }
    }
    RexBuilder rb = project.getCluster().getRexBuilder();
    List<RexNode> exprs = new ArrayList<>();
    for (RexNode e : project.getProjects()) {
      exprs.add(BasaltRules.remap(e, map, rb));
    }
    List<RelFieldCollation> order = new ArrayList<>();
    for (RelFieldCollation fc : collation.getFieldCollations()) {
      order.add(fc.withFieldIndex(map[fc.getFieldIndex()]));
    }
    BasaltScan narrowed = scan.with(scan.spec().withColumns(kept),
        scan.getTraitSet().replace(RelCollations.of(order)));
    call.transformTo(call.builder().push(narrowed)
        .project(exprs, project.getRowType().getFieldNames()).build());
  }
}
