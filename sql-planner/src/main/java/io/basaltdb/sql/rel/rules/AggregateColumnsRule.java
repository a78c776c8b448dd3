package io.basaltdb.sql.rel.rules;

import io.basaltdb.sql.rel.BasaltScan;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.plan.RelRule;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.util.ImmutableBitSet;
import org.apache.calcite.util.mapping.Mappings;

/** Aggregate over a scan: the scan returns only the grouped and aggregated columns. */
final class AggregateColumnsRule extends RelRule<RuleConfig> {
  AggregateColumnsRule(RuleConfig config) {
    super(config);
  }

  @Override
  public void onMatch(RelOptRuleCall call) {
    Aggregate agg = call.rel(0);
    BasaltScan scan = call.rel(1);
    List<Integer> cols = scan.spec().columns();
    ImmutableBitSet.Builder usedB = agg.getGroupSet().rebuild();
    for (AggregateCall ac : agg.getAggCallList()) {
      usedB.addAll(ac.getArgList());
      if (ac.filterArg >= 0) {
        usedB.set(ac.filterArg);
      }
      ac.collation.getFieldCollations().forEach(fc -> usedB.set(fc.getFieldIndex()));
    }
    ImmutableBitSet used = usedB.build();
    if (used.cardinality() == cols.size()
        || !scan.getTraitSet().getCollation().getFieldCollations().isEmpty()) {
      return;
    }
    List<Integer> kept = new ArrayList<>();
    Map<Integer, Integer> map = new java.util.HashMap<>();
    for (int i : used) {
      map.put(i, kept.size());
      kept.add(cols.get(i));
    }
    Mappings.TargetMapping mapping = Mappings.target(map, cols.size(), kept.size());
    List<AggregateCall> calls = new ArrayList<>();
    for (AggregateCall ac : agg.getAggCallList()) {
      calls.add(ac.transform(mapping));
    }
    BasaltScan narrowed = scan.with(scan.spec().withColumns(kept), scan.getTraitSet());
    ImmutableBitSet groups = ImmutableBitSet.of(agg.getGroupSet().asList().stream()
        .map(map::get).toList());
    List<ImmutableBitSet> groupSets = new ArrayList<>();
    for (ImmutableBitSet g : agg.getGroupSets()) {
      groupSets.add(ImmutableBitSet.of(g.asList().stream().map(map::get).toList()));
    }
    call.transformTo(agg.copy(agg.getTraitSet(), narrowed, groups, groupSets, calls));
  }
}
