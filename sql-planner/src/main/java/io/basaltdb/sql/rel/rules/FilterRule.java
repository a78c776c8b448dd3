package io.basaltdb.sql.rel.rules;

import io.basaltdb.sql.catalog.SqlTableDef;
import io.basaltdb.sql.pushdown.KeyConditions;
import io.basaltdb.sql.pushdown.KeyRangeExtractor;
import io.basaltdb.sql.pushdown.ScanSpec;
import io.basaltdb.sql.rel.BasaltScan;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.plan.RelRule;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexNode;

/** Filter over a scan: key conditions and engine filters into the scan, the rest above it. */
final class FilterRule extends RelRule<RuleConfig> {
  FilterRule(RuleConfig config) {
    super(config);
  }

  @Override
  public void onMatch(RelOptRuleCall call) {
    Filter filter = call.rel(0);
    BasaltScan scan = call.rel(1);
    SqlTableDef def = scan.definition();
    RexBuilder rb = filter.getCluster().getRexBuilder();
    List<Integer> cols = scan.spec().columns();
    int[] toTable = cols.stream().mapToInt(Integer::intValue).toArray();
    List<RexNode> onTable = new ArrayList<>();
    Map<RexNode, RexNode> original = new IdentityHashMap<>();
    for (RexNode c : KeyRangeExtractor.conjuncts(rb, filter.getCondition())) {
      RexNode t = BasaltRules.remap(c, toTable, rb);
      onTable.add(t);
      original.put(t, c);
    }
    KeyRangeExtractor.Analysis a = KeyRangeExtractor.analyze(def, onTable);
    List<RexNode> rest = new ArrayList<>();
    for (RexNode r : a.residual()) {
      rest.add(original.get(r));
    }
    if (!a.keys().isNone() || !a.pushed().isEmpty()) {
      RelNode pushed = scan.with(scan.spec().withFilter(a.keys(), a.pushed()),
          scan.getTraitSet());
      call.transformTo(call.builder().push(pushed).filter(rest).build());
    }
    if ((a.keys().isNone() || scan.indexHint().forced()) && scan.spec().index() == null) {
      // the same rows found through an index whose leading columns the filter binds; the
      // filters apply to the rows fetched (the cost decides between them), but those the
      // index's equalities hold exactly: a row found under an entry has the entry's values
      // (both read at one snapshot, kept atomically). A plan whose index is gone when it
      // runs scans the table instead, with every filter.
      for (io.basaltdb.sql.index.IndexLayout index : scan.usableIndexes()) {
        List<RexNode> onIndex = index.onIndex(onTable, rb); // position for position
        KeyRangeExtractor.Analysis ia = KeyRangeExtractor.analyze(index.keyDefinition(),
            onIndex);
        KeyConditions keys = ia.keys();
        if (!keys.isNone() || scan.indexHint().forced()) { // hinted: the whole index if need be
          RelNode through = scan.with(scan.spec().withFilter(KeyConditions.NONE, a.pushed())
              .withIndex(new ScanSpec.IndexAccess(index.index().name(), keys,
                  KeyRangeExtractor.held(a, onTable, ia, onIndex))),
              scan.getTraitSet());
          // the table key's conditions, if any, stay above: the index scan does not apply them
          call.transformTo(call.builder().push(through)
              .filter(a.keys().isNone() ? rest : List.of(filter.getCondition())).build());
        }
      }
    }
  }
}
