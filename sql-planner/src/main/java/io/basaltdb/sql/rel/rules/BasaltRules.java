package io.basaltdb.sql.rel.rules;

import io.basaltdb.sql.pushdown.ScanSpec;
import io.basaltdb.sql.rel.BasaltRel;
import io.basaltdb.sql.rel.BasaltScan;
import java.util.List;
import org.apache.calcite.adapter.enumerable.EnumerableConvention;
import org.apache.calcite.plan.Convention;
import org.apache.calcite.plan.RelOptRule;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.convert.ConverterRule;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.core.Sort;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;

/**
 * The planner rules that push operators into a {@link BasaltScan}: a filter (key ranges,
 * engine filters; the rest stays above), a projection (only used columns are read), a sort
 * that the key order already gives (forward or reversed) with its offset and limit; and the
 * converter to Calcite's enumerable convention. Each rule fires only when the scan's spec can
 * still take the operator (nothing is pushed beneath an offset or limit).
 */
public final class BasaltRules {
  private BasaltRules() {}

  public static final RelOptRule FILTER = RuleConfig.of("BasaltFilterRule",
      b -> b.operand(Filter.class).predicate(f -> f.getConvention() == Convention.NONE)
          .oneInput(s -> s.operand(BasaltScan.class)
              .predicate(scan -> logical(scan) && takesFilter(scan)).noInputs()),
      FilterRule::new).toRule();

  public static final RelOptRule PROJECT = RuleConfig.of("BasaltProjectRule",
      b -> b.operand(Project.class).predicate(p -> p.getConvention() == Convention.NONE)
          .oneInput(s -> s.operand(BasaltScan.class).predicate(BasaltRules::logicalRows)
              .noInputs()),
      ProjectRule::new).toRule();

  public static final RelOptRule SORT = RuleConfig.of("BasaltSortRule",
      b -> b.operand(Sort.class).predicate(s -> s.getConvention() == Convention.NONE)
          .oneInput(s -> s.operand(BasaltScan.class)
              .predicate(scan -> logical(scan) && !scan.spec().isLimited()
                  && !scan.spec().reversed()
                  && scan.getTraitSet().getCollation().getFieldCollations().isEmpty())
              .noInputs()),
      SortRule::new).toRule();

  public static final RelOptRule AGGREGATE_COLUMNS = RuleConfig.of("BasaltAggregateColumnsRule",
      b -> b.operand(Aggregate.class).predicate(a -> a.getConvention() == Convention.NONE)
          .oneInput(s -> s.operand(BasaltScan.class).predicate(BasaltRules::logicalRows)
              .noInputs()),
      AggregateColumnsRule::new).toRule();

  public static final RelOptRule AGGREGATE = RuleConfig.of("BasaltAggregateRule",
      b -> b.operand(Aggregate.class).predicate(a -> a.getConvention() == Convention.NONE)
          .oneInput(s -> s.operand(BasaltScan.class)
              .predicate(scan -> logical(scan) && !scan.spec().isLimited()
                  && scan.getTraitSet().getCollation().getFieldCollations().isEmpty())
              .noInputs()),
      AggregateRule::new).toRule();

  public static final RelOptRule SNAPSHOT = RuleConfig.of("BasaltSnapshotRule",
      b -> b.operand(org.apache.calcite.rel.core.Snapshot.class)
          .predicate(s -> s.getConvention() == Convention.NONE)
          .oneInput(s -> s.operand(BasaltScan.class)
              .predicate(scan -> logical(scan) && scan.spec().asOf() == null).noInputs()),
      SnapshotRule::new).toRule();

  /**
   * Pulls the factors an OR's branches share out of it ({@code (a AND b) OR (a AND c)} becomes
   * {@code a AND (b OR c)}), so a join condition repeated in every branch, as in TPC-H's Q19,
   * becomes a join condition instead of a filter over a cartesian product.
   */
  public static final RelOptRule PULL_FACTORS = RuleConfig.of("BasaltPullFactorsRule",
      b -> b.operand(Filter.class).predicate(f -> f.getConvention() == Convention.NONE
          && f.getCondition().getKind() == org.apache.calcite.sql.SqlKind.OR).anyInputs(),
      PullFactorsRule::new).toRule();

  public static final RelOptRule TO_BASALT = ConverterRule.Config.INSTANCE
      .withConversion(BasaltScan.class, Convention.NONE, BasaltRel.CONVENTION, "BasaltScanRule")
      .withRuleFactory(ToBasaltRule::new)
      .toRule(ToBasaltRule.class);

  public static final RelOptRule TO_ENUMERABLE = ConverterRule.Config.INSTANCE
      .withConversion(RelNode.class, BasaltRel.CONVENTION, EnumerableConvention.INSTANCE,
          "BasaltToEnumerableConverterRule")
      .withRuleFactory(ToEnumerableRule::new)
      .toRule(ToEnumerableRule.class);

  /** Restricts an aggregate joined on a group key to the keys a filtered table gives. */
  public static final RelOptRule AGGREGATE_KEY_REDUCTION = AggregateKeyReductionRule.INSTANCE;

  /** Adds the column equalities an inner multi-join's conditions imply ({@code a = c}). */
  public static final RelOptRule JOIN_EQUALITY_CLOSURE = JoinEqualityClosureRule.INSTANCE;

  /** Filters a join's side by what an OR in the join's condition implies for that side. */
  public static final RelOptRule IMPLIED_SIDE_FILTER = ImpliedSideFilterRule.INSTANCE;

  /** Join orders adding the table that gives the fewest rows next, one from each table. */
  public static final RelOptRule SMALLEST_FIRST_JOIN_ORDER = SmallestFirstJoinOrderRule.INSTANCE;

  public static final List<RelOptRule> ALL =
      List.of(FILTER, PROJECT, SORT, AGGREGATE_COLUMNS, AGGREGATE, SNAPSHOT, PULL_FACTORS,
          TO_BASALT, TO_ENUMERABLE, LookupJoinRule.INSTANCE, LookupJoinRule.SWAPPED,
          LookupJoinRule.DISTINCT);

  /**
   * The program step before Calcite's sub-query removal: {@code [NOT] EXISTS} sub-queries that
   * are a filter over an uncorrelated relation become SEMI (ANTI) joins
   * ({@link ExistsToJoinRule}).
   */
  public static org.apache.calcite.tools.Program existsToJoins(
      org.apache.calcite.rel.metadata.RelMetadataProvider metadata) {
    return org.apache.calcite.tools.Programs.of(new org.apache.calcite.plan.hep.HepProgramBuilder()
        .addRuleInstance(ExistsToJoinRule.INSTANCE).build(), true, metadata);
  }

  static boolean logical(BasaltScan scan) {
    return scan.getConvention() == Convention.NONE;
  }

  /** A logical scan returning table rows (not aggregated ones). */
  static boolean logicalRows(BasaltScan scan) {
    return logical(scan) && scan.spec().aggregate() == null;
  }

  static boolean takesFilter(BasaltScan scan) {
    ScanSpec s = scan.spec();
    return !s.isLimited() && s.keys().isNone() && s.filters().isEmpty() && s.index() == null;
  }

  /** Rewrites input refs through a mapping (scan output field -> table column, or back). */
  static RexNode remap(RexNode n, int[] map, RexBuilder rb) {
    return n.accept(new RexShuttle() {
      @Override
      public RexNode visitInputRef(RexInputRef ref) {
        return rb.makeInputRef(ref.getType(), map[ref.getIndex()]);
      }
    });
  }
}
