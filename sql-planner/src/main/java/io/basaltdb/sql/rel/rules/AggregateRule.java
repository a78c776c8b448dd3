package io.basaltdb.sql.rel.rules;

import io.basaltdb.sql.catalog.SqlColumn;
import io.basaltdb.sql.catalog.SqlTableDef;
import io.basaltdb.sql.pushdown.AggregateSpec;
import io.basaltdb.sql.rel.BasaltScan;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.plan.RelRule;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.AggregateCall;

/**
 * Aggregate over a scan: COUNT, SUM, MIN and MAX grouped by a prefix of the key (or not
 * grouped) are computed in the scan. Not on a salted table when grouped (its buckets
 * interleave the groups).
 */
final class AggregateRule extends RelRule<RuleConfig> {
  AggregateRule(RuleConfig config) {
    super(config);
  }

  @Override
  public void onMatch(RelOptRuleCall call) {
    Aggregate agg = call.rel(0);
    BasaltScan scan = call.rel(1);
    SqlTableDef def = scan.definition();
    if (agg.getGroupType() != Aggregate.Group.SIMPLE || scan.spec().index() != null) {
      return;
    }
    List<Integer> cols = scan.spec().columns();
    List<Integer> groups = agg.getGroupSet().asList();
    if (!groups.isEmpty()) {
      if (def.saltBuckets() > 0) {
        return;
      }
      java.util.Set<Integer> keyPositions = new java.util.HashSet<>();
      for (int g : groups) {
        SqlColumn c = def.columns().get(cols.get(g));
        if (!c.isKey()) {
          return;
        }
        keyPositions.add(c.keyPosition());
      }
      for (int k = 0; k < groups.size(); k++) {
        if (!keyPositions.contains(k)) {
          return; // not a prefix of the key: groups would not arrive together
        }
      }
    }
    List<AggregateSpec.Call> calls = new ArrayList<>();
    for (AggregateCall ac : agg.getAggCallList()) {
      if (ac.isDistinct() || ac.filterArg >= 0 || ac.getArgList().size() > 1
          || !ac.collation.getFieldCollations().isEmpty() || ac.isApproximate()) {
        return;
      }
      AggregateSpec.Kind kind = switch (ac.getAggregation().getKind()) {
        case COUNT -> AggregateSpec.Kind.COUNT;
        case SUM -> AggregateSpec.Kind.SUM;
        case SUM0 -> AggregateSpec.Kind.SUM0;
        case MIN -> AggregateSpec.Kind.MIN;
        case MAX -> AggregateSpec.Kind.MAX;
        default -> null;
      };
      if (kind == null || (kind != AggregateSpec.Kind.COUNT && ac.getArgList().isEmpty())) {
        return;
      }
      calls.add(new AggregateSpec.Call(kind, ac.getArgList().isEmpty() ? -1
          : ac.getArgList().get(0), ac.getType().getSqlTypeName(), ac.getName()));
    }
    call.transformTo(scan.withAggregate(new AggregateSpec(groups, calls), agg.getRowType()));
  }
}
