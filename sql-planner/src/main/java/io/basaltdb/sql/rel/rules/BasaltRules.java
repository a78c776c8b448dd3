package io.basaltdb.sql.rel.rules;

import io.basaltdb.sql.catalog.SqlColumn;
import io.basaltdb.sql.catalog.SqlTableDef;
import io.basaltdb.sql.pushdown.AggregateSpec;
import io.basaltdb.sql.pushdown.KeyConditions;
import io.basaltdb.sql.pushdown.KeyRangeExtractor;
import io.basaltdb.sql.pushdown.Operand;
import io.basaltdb.sql.pushdown.ScanSpec;
import io.basaltdb.sql.rel.BasaltRel;
import io.basaltdb.sql.rel.BasaltScan;
import io.basaltdb.sql.rel.BasaltToEnumerableConverter;
import io.basaltdb.sql.type.ColumnType;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.apache.calcite.adapter.enumerable.EnumerableConvention;
import org.apache.calcite.plan.Convention;
import org.apache.calcite.plan.RelOptRule;
import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.plan.RelRule;
import org.apache.calcite.rel.RelCollation;
import org.apache.calcite.rel.RelCollations;
import org.apache.calcite.rel.RelFieldCollation;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.convert.ConverterRule;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.core.Sort;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.util.ImmutableBitSet;
import org.apache.calcite.util.mapping.Mappings;

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

  private static boolean logical(BasaltScan scan) {
    return scan.getConvention() == Convention.NONE;
  }

  /** A logical scan returning table rows (not aggregated ones). */
  private static boolean logicalRows(BasaltScan scan) {
    return logical(scan) && scan.spec().aggregate() == null;
  }

  private static boolean takesFilter(BasaltScan scan) {
    ScanSpec s = scan.spec();
    return !s.isLimited() && s.keys().isNone() && s.filters().isEmpty() && s.index() == null;
  }

  /** Rewrites input refs through a mapping (scan output field -> table column, or back). */
  private static RexNode remap(RexNode n, int[] map, RexBuilder rb) {
    return n.accept(new RexShuttle() {
      @Override
      public RexNode visitInputRef(RexInputRef ref) {
        return rb.makeInputRef(ref.getType(), map[ref.getIndex()]);
      }
    });
  }

  /** Filter over a scan: key conditions and engine filters into the scan, the rest above it. */
  static final class FilterRule extends RelRule<RuleConfig> {
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
        RexNode t = remap(c, toTable, rb);
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

  /** Project over a scan: the scan returns only the columns the projection uses. */
  static final class ProjectRule extends RelRule<RuleConfig> {
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
        exprs.add(remap(e, map, rb));
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

  /** See {@link #PULL_FACTORS}. */
  static final class PullFactorsRule extends RelRule<RuleConfig> {
    PullFactorsRule(RuleConfig config) {
      super(config);
    }

    @Override
    public void onMatch(RelOptRuleCall call) {
      Filter filter = call.rel(0);
      RexNode pulled = RexUtil.pullFactors(filter.getCluster().getRexBuilder(),
          filter.getCondition());
      if (!pulled.equals(filter.getCondition())) {
        call.transformTo(filter.copy(filter.getTraitSet(), filter.getInput(), pulled));
      }
    }
  }

  /** Aggregate over a scan: the scan returns only the grouped and aggregated columns. */
  static final class AggregateColumnsRule extends RelRule<RuleConfig> {
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

  /**
   * Aggregate over a scan: COUNT, SUM, MIN and MAX grouped by a prefix of the key (or not
   * grouped) are computed in the scan. Not on a salted table when grouped (its buckets
   * interleave the groups).
   */
  static final class AggregateRule extends RelRule<RuleConfig> {
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

  /** {@code FOR SYSTEM_TIME AS OF t}: the scan reads the versions current at {@code t}. */
  static final class SnapshotRule extends RelRule<RuleConfig> {
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

  /**
   * Sort over a scan whose key order gives it: no sort; offset and limit stop the scan. A
   * salted table's buckets are merged by key as they are read (ScanExecutor).
   */
  static final class SortRule extends RelRule<RuleConfig> {
    SortRule(RuleConfig config) {
      super(config);
    }

    @Override
    public void onMatch(RelOptRuleCall call) {
      Sort sort = call.rel(0);
      BasaltScan scan = call.rel(1);
      SqlTableDef def = scan.definition();
      List<Integer> cols = scan.spec().columns();
      List<SqlColumn> keys = def.keyColumns();
      List<RelFieldCollation> fcs = sort.getCollation().getFieldCollations();
      if (!fcs.isEmpty() && scan.spec().index() != null) {
        // rows found through an index come in its order, not the key's
        Operand[] limits = limits(sort);
        for (boolean reversed : new boolean[] {false, true}) {
          if (limits != null && inIndexOrder(scan, fcs, reversed)) {
            call.transformTo(scan.with(scan.spec().withOrder(limits[0], limits[1], reversed),
                scan.getTraitSet().replace(sort.getCollation())));
          }
        }
        return;
      }
      Boolean reversed = fcs.isEmpty() ? Boolean.FALSE : null;
      if (!fcs.isEmpty()) {
        if (fcs.size() > keys.size()) {
          sortByIndex(call, sort, scan, fcs);
          return;
        }
        for (int i = 0; i < fcs.size(); i++) {
          RelFieldCollation fc = fcs.get(i);
          SqlColumn c = def.columns().get(cols.get(fc.getFieldIndex()));
          if (c != keys.get(i)) {
            sortByIndex(call, sort, scan, fcs);
            return;
          }
          boolean ascending = fc.getDirection() == RelFieldCollation.Direction.ASCENDING;
          if (fc.getDirection() != RelFieldCollation.Direction.ASCENDING
              && fc.getDirection() != RelFieldCollation.Direction.DESCENDING) {
            return;
          }
          boolean rev = ascending == c.descending();
          if (reversed != null && reversed != rev) {
            return;
          }
          reversed = rev;
        }
      }
      Operand[] limits = limits(sort);
      if (limits == null) {
        return;
      }
      ScanSpec s = fcs.isEmpty() ? scan.spec().withLimit(limits[0], limits[1], reversed)
          : scan.spec().withOrder(limits[0], limits[1], reversed);
      call.transformTo(scan.with(s, scan.getTraitSet().replace(sort.getCollation())));
    }
  }

  /**
   * A sort's offset and fetch as operands (each null when absent), or null when either is
   * something a scan cannot take (not a literal or parameter).
   */
  private static Operand[] limits(Sort sort) {
    Operand offset = sort.offset == null ? null : Operand.of(sort.offset, ColumnType.BIGINT);
    Operand fetch = sort.fetch == null ? null : Operand.of(sort.fetch, ColumnType.BIGINT);
    if ((sort.offset != null && offset == null) || (sort.fetch != null && fetch == null)) {
      return null;
    }
    return new Operand[] {offset, fetch};
  }

  /**
   * A sort the table's key order does not give, over a scan with no index conditions: the
   * whole of an index whose order gives it, read in that order (a top-N when limited).
   */
  private static void sortByIndex(RelOptRuleCall call, Sort sort, BasaltScan scan,
      List<RelFieldCollation> fcs) {
    if (!scan.spec().keys().isNone() || scan.spec().index() != null) {
      return;
    }
    Operand[] limits = limits(sort);
    if (limits == null) {
      return;
    }
    for (io.basaltdb.sql.index.IndexLayout index : scan.usableIndexes()) {
      for (boolean reversed : new boolean[] {false, true}) {
        if (inIndexOrder(index, KeyConditions.NONE, scan.spec().columns(), fcs, reversed)) {
          ScanSpec s = scan.spec().withIndex(new ScanSpec.IndexAccess(index.index().name(),
              KeyConditions.NONE)).withOrder(limits[0], limits[1], reversed);
          call.transformTo(scan.with(s, scan.getTraitSet().replace(sort.getCollation())));
        }
      }
    }
  }

  /**
   * True when the rows an index scan gives are in the order {@code fcs} asks: the sort
   * columns are the index's columns from its first, or from just after leading columns the
   * filter pins to one value, each in the index's direction with NULLs where the index puts
   * them (last ascending, first descending); or, {@code reversed}, each against it with its
   * NULLs at the other end (the index read backwards).
   */
  static boolean inIndexOrder(BasaltScan scan, List<RelFieldCollation> fcs, boolean reversed) {
    return inIndexOrder(scan.basaltTable().index(scan.spec().index().name()),
        scan.spec().index().keys(), scan.spec().columns(), fcs, reversed);
  }

  private static boolean inIndexOrder(io.basaltdb.sql.index.IndexLayout index,
      KeyConditions keys, List<Integer> cols, List<RelFieldCollation> fcs, boolean reversed) {
    if (index == null || index.index().saltBuckets() > 0) {
      return false; // a salted index is in order per bucket only
    }
    int[] columns = index.columns();
    List<List<Operand>> eq = keys.equalities();
    int pinned = 0;
    while (pinned < eq.size() && eq.get(pinned).size() == 1) {
      pinned++;
    }
    for (int start = 0; start <= pinned; start++) {
      boolean ok = start + fcs.size() <= columns.length;
      for (int i = 0; ok && i < fcs.size(); i++) {
        RelFieldCollation fc = fcs.get(i);
        boolean desc = index.index().descending().get(start + i) != reversed;
        ok = cols.get(fc.getFieldIndex()) == columns[start + i]
            && fc.getDirection() == (desc ? RelFieldCollation.Direction.DESCENDING
                : RelFieldCollation.Direction.ASCENDING)
            && fc.nullDirection == (desc ? RelFieldCollation.NullDirection.FIRST
                : RelFieldCollation.NullDirection.LAST);
      }
      if (ok) {
        return true;
      }
    }
    return false;
  }

  /** A logical scan, with all pushed into it, as the Basalt-convention scan that runs. */
  static final class ToBasaltRule extends ConverterRule {
    ToBasaltRule(Config config) {
      super(config);
    }

    @Override
    public RelNode convert(RelNode rel) {
      BasaltScan scan = (BasaltScan) rel;
      return scan.with(scan.spec(), scan.getTraitSet().replace(BasaltRel.CONVENTION));
    }
  }

  /** Basalt subtrees become enumerable through {@link BasaltToEnumerableConverter}. */
  static final class ToEnumerableRule extends ConverterRule {
    ToEnumerableRule(Config config) {
      super(config);
    }

    @Override
    public RelNode convert(RelNode rel) {
      return new BasaltToEnumerableConverter(rel.getCluster(),
          rel.getTraitSet().replace(EnumerableConvention.INSTANCE), rel);
    }
  }
}
