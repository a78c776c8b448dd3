package io.basaltdb.sql.prepare;

import io.basaltdb.sql.Switches;
import io.basaltdb.sql.rel.BasaltScan;
import io.basaltdb.sql.rel.BasaltTableModify;
import io.basaltdb.sql.rel.EnumerableTranslation;
import io.basaltdb.sql.rel.metadata.JoinCardinality;
import io.basaltdb.sql.rel.rules.BasaltRules;
import java.util.List;
import org.apache.calcite.adapter.enumerable.EnumerableFilterToCalcRule;
import org.apache.calcite.adapter.enumerable.EnumerableProjectToCalcRule;
import org.apache.calcite.plan.RelOptLattice;
import org.apache.calcite.plan.RelOptMaterialization;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.plan.hep.HepMatchOrder;
import org.apache.calcite.plan.hep.HepPlanner;
import org.apache.calcite.plan.hep.HepProgram;
import org.apache.calcite.plan.hep.HepProgramBuilder;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.core.Sort;
import org.apache.calcite.rel.core.Values;
import org.apache.calcite.rel.logical.LogicalSnapshot;
import org.apache.calcite.rel.rules.CalcMergeRule;
import org.apache.calcite.rel.rules.FilterMergeRule;
import org.apache.calcite.rel.rules.ProjectMergeRule;
import org.apache.calcite.rel.rules.ProjectRemoveRule;
import org.apache.calcite.rel.rules.ReduceExpressionsRule;
import org.apache.calcite.rel.rules.SortProjectTransposeRule;
import org.apache.calcite.rex.RexOver;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.tools.Program;

/**
 * The short path of issue 11: a statement over one Basalt table (its scan under filters,
 * projections, a sort or limit, an AS OF; or a write of rows from VALUES or from such a scan)
 * is planned by a fixed rule program instead of the cost-based search: expression reduction
 * and Basalt's pushdown rules to a fixpoint, then each operator translated to its enumerable
 * form ({@link EnumerableTranslation}). Such a statement
 * has one sensible plan, which the search also finds (the same {@code BasaltScan} and
 * {@code BasaltTableModify}, the same EXPLAIN: {@code ShortPathTest} compares them), at a
 * fraction of the cost of registering every rule and exploring. Anything else (joins,
 * aggregates, windows, set operations) goes to the search; so does a result whose traits are
 * not those asked for. {@code -Dbasalt.shortPath=false} sends everything to the search.
 */
final class ShortPath implements Program {
  /** Expression reduction, merges, and Basalt's pushdown of filters, projections and sorts. */
  static final List<org.apache.calcite.plan.RelOptRule> PUSHDOWN_RULES = List.of(
      ReduceExpressionsRule.FilterReduceExpressionsRule.FilterReduceExpressionsRuleConfig
          .DEFAULT.toRule(),
      FilterMergeRule.Config.DEFAULT.toRule(), ProjectMergeRule.Config.DEFAULT.toRule(),
      ProjectRemoveRule.Config.DEFAULT.toRule(), BasaltRules.PULL_FACTORS,
      BasaltRules.SNAPSHOT, BasaltRules.FILTER, BasaltRules.PROJECT,
      SortProjectTransposeRule.Config.DEFAULT.toRule(), BasaltRules.SORT);

  private static final HepProgram PUSHDOWN = new HepProgramBuilder()
      .addMatchOrder(HepMatchOrder.BOTTOM_UP)
      .addRuleCollection(PUSHDOWN_RULES)
      .build();

  /**
   * What Calcite's calc program ({@code Programs.calc}) does to an enumerable plan without
   * logical operators, which is what the short path makes: filters and projections to calcs,
   * adjacent calcs merged; its other rules match only logical operators.
   */
  private static final HepProgram CALC = new HepProgramBuilder()
      .addRuleInstance(EnumerableFilterToCalcRule.Config.DEFAULT.toRule())
      .addRuleInstance(EnumerableProjectToCalcRule.Config.DEFAULT.toRule())
      .addRuleInstance(CalcMergeRule.Config.DEFAULT.toRule())
      .build();

  private final Program search;

  ShortPath(Program search) {
    this.search = search;
  }

  /**
   * The whole program of a statement: one the short path takes as it comes from the SQL (no
   * sub-query, correlation or measure for Calcite's first steps to rewrite) is trimmed, pushed
   * down, translated and turned to calcs here, with rule objects of its own: Calcite's rule
   * catalogues, which its programs use, build some two hundred rules when first used (most
   * of a fresh JVM's first INSERT). Anything else runs {@code standard}, made when needed.
   */
  static Program first(java.util.function.Supplier<Program> standard) {
    return (planner, rel, traits, materializations, lattices) -> {
      if (Switches.SHORT_PATH.on() && eligible(rel) && plain(rel)) {
        RelNode trimmed = new org.apache.calcite.sql2rel.RelFieldTrimmer(null,
            org.apache.calcite.rel.core.RelFactories.LOGICAL_BUILDER.create(rel.getCluster(),
                null)).trim(rel);
        RelNode planned = EnumerableTranslation.of(hep(PUSHDOWN, trimmed));
        if (planned != null && planned.getTraitSet().satisfies(traits)) {
          count(planner);
          return calc(planned);
        }
      }
      return standard.get().run(planner, rel, traits, materializations, lattices);
    };
  }

  /** Counts a statement planned here in the figures of the database it is planned for. */
  private static void count(RelOptPlanner planner) {
    if (planner instanceof DeferredRulesPlanner p) {
      p.stats().shortPaths.incrementAndGet();
    }
  }

  @Override
  public RelNode run(RelOptPlanner planner, RelNode rel, RelTraitSet requiredOutputTraits,
      List<RelOptMaterialization> materializations, List<RelOptLattice> lattices) {
    if (Switches.SHORT_PATH.on() && eligible(rel)) {
      RelNode planned = EnumerableTranslation.of(hep(PUSHDOWN, rel));
      if (planned != null && planned.getTraitSet().satisfies(requiredOutputTraits)) {
        count(planner);
        return planned;
      }
    }
    return search.run(planner, rel, requiredOutputTraits, materializations, lattices);
  }

  /** As Calcite's calc program runs it: no DAG, the statement's metadata providers. */
  private static RelNode calc(RelNode rel) {
    HepPlanner hep = new HepPlanner(CALC, null, true, null,
        org.apache.calcite.plan.RelOptCostImpl.FACTORY);
    List<org.apache.calcite.rel.metadata.RelMetadataProvider> providers =
        new java.util.ArrayList<>(List.of(JoinCardinality.PROVIDER));
    hep.registerMetadataProviders(providers);
    rel.getCluster().setMetadataProvider(
        org.apache.calcite.rel.metadata.ChainedRelMetadataProvider.of(providers));
    hep.setRoot(rel);
    return hep.findBestExp();
  }

  /**
   * No sub-query, correlation or measure in any expression or operator: nothing Calcite's
   * sub-query, decorrelation and measure programs would change.
   */
  static boolean plain(RelNode rel) {
    if (!rel.getVariablesSet().isEmpty()) {
      return false;
    }
    var finder = new org.apache.calcite.rex.RexShuttle() {
      boolean found;

      @Override
      public org.apache.calcite.rex.RexNode visitSubQuery(
          org.apache.calcite.rex.RexSubQuery subQuery) {
        found = true;
        return subQuery;
      }

      @Override
      public org.apache.calcite.rex.RexNode visitCorrelVariable(
          org.apache.calcite.rex.RexCorrelVariable variable) {
        found = true;
        return variable;
      }

      @Override
      public org.apache.calcite.rex.RexNode visitCall(org.apache.calcite.rex.RexCall call) {
        if (call.getKind() == org.apache.calcite.sql.SqlKind.M2V
            || call.getKind() == org.apache.calcite.sql.SqlKind.AGG_M2V) {
          found = true;
          return call;
        }
        return super.visitCall(call);
      }
    };
    rel.accept(finder);
    if (finder.found) {
      return false;
    }
    for (RelNode in : rel.getInputs()) {
      if (!plain(in)) {
        return false;
      }
    }
    return true;
  }

  /** {@code rel} rewritten by {@code program} to a fixpoint (no DAG, cost not asked). */
  static RelNode hep(HepProgram program, RelNode rel) {
    HepPlanner hep = new HepPlanner(program, null, true, null,
        org.apache.calcite.plan.RelOptCostImpl.FACTORY);
    hep.setRoot(rel);
    return hep.findBestExp();
  }

  /** One Basalt table read or written through single-input operators; no windows. */
  static boolean eligible(RelNode rel) {
    return tables(rel) <= 1;
  }

  /** The Basalt tables {@code rel} reads, or 2 when it has an operator not taken here. */
  private static int tables(RelNode rel) {
    boolean ok;
    if (rel instanceof BasaltScan) {
      return 1;
    } else if (rel instanceof Project p) {
      ok = !RexOver.containsOver(p.getProjects(), null);
    } else if (rel instanceof Filter f) {
      ok = !RexUtil.containsCorrelation(f.getCondition());
    } else {
      ok = rel instanceof Sort || rel instanceof Values || rel instanceof LogicalSnapshot
          || rel instanceof BasaltTableModify;
    }
    int n = 0;
    for (RelNode in : rel.getInputs()) {
      n += ok ? tables(in) : 2;
    }
    return ok ? n : 2;
  }
}
