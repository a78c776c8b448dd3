package io.basaltdb.sql;

import io.basaltdb.sql.rel.BasaltRules;
import io.basaltdb.sql.rel.BasaltScan;
import io.basaltdb.sql.rel.BasaltTableModify;
import io.basaltdb.sql.rel.EnumerableTranslation;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
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
import org.apache.calcite.rel.rules.CoreRules;
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
  static final String SWITCH = "basalt.shortPath";
  /** Statements planned on the short path, for tests and figures. */
  static final AtomicLong USED = new AtomicLong();

  private static final HepProgram PUSHDOWN = new HepProgramBuilder()
      .addMatchOrder(HepMatchOrder.BOTTOM_UP)
      .addRuleCollection(List.of(CoreRules.FILTER_REDUCE_EXPRESSIONS,
          CoreRules.FILTER_MERGE, CoreRules.PROJECT_MERGE,
          CoreRules.PROJECT_REMOVE, BasaltRules.PULL_FACTORS, BasaltRules.SNAPSHOT,
          BasaltRules.FILTER, BasaltRules.PROJECT, CoreRules.SORT_PROJECT_TRANSPOSE,
          BasaltRules.SORT))
      .build();

  private final Program search;

  ShortPath(Program search) {
    this.search = search;
  }

  @Override
  public RelNode run(RelOptPlanner planner, RelNode rel, RelTraitSet requiredOutputTraits,
      List<RelOptMaterialization> materializations, List<RelOptLattice> lattices) {
    if (!"false".equals(System.getProperty(SWITCH)) && eligible(rel)) {
      RelNode planned = EnumerableTranslation.of(hep(PUSHDOWN, rel));
      if (planned != null && planned.getTraitSet().satisfies(requiredOutputTraits)) {
        USED.incrementAndGet();
        return planned;
      }
    }
    return search.run(planner, rel, requiredOutputTraits, materializations, lattices);
  }

  private static RelNode hep(HepProgram program, RelNode rel) {
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
