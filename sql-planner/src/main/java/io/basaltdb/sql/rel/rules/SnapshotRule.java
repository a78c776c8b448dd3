package io.basaltdb.sql.rel.rules;

import io.basaltdb.sql.pushdown.Operand;
import io.basaltdb.sql.rel.BasaltScan;
import io.basaltdb.sql.type.ColumnType;
import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.plan.RelRule;

/** {@code FOR SYSTEM_TIME AS OF t}: the scan reads the versions current at {@code t}. */
final class SnapshotRule extends RelRule<RuleConfig> {
  SnapshotRule(RuleConfig config) {
    super(config);
  }

  @Override
  public void onMatch(RelOptRuleCall call) {
    org.apache.calcite.rel.core.Snapshot snapshot = call.rel(0);
    BasaltScan scan = call.rel(1);
    Operand t = Operand.of(snapshot.getPeriod(), ColumnType.TIMESTAMP);
    if (t == null) {
      throw new io.basaltdb.storage.InvalidArgumentException("FOR SYSTEM_TIME AS OF needs a "
          + "TIMESTAMP literal or parameter, got " + snapshot.getPeriod());
    }
    call.transformTo(scan.with(scan.spec().withAsOf(t), scan.getTraitSet()));
  }
}
