package io.basaltdb.sql.rel;

import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.adapter.enumerable.EnumerableAggregate;
import org.apache.calcite.adapter.enumerable.EnumerableConvention;
import org.apache.calcite.adapter.enumerable.EnumerableFilter;
import org.apache.calcite.adapter.enumerable.EnumerableLimit;
import org.apache.calcite.adapter.enumerable.EnumerableProject;
import org.apache.calcite.adapter.enumerable.EnumerableRules;
import org.apache.calcite.adapter.enumerable.EnumerableSort;
import org.apache.calcite.adapter.enumerable.EnumerableValues;
import org.apache.calcite.plan.Convention;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelCollation;
import org.apache.calcite.rel.RelCollationTraitDef;
import org.apache.calcite.rel.RelCollations;
import org.apache.calcite.rel.RelFieldCollation;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.convert.ConverterRule;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.core.Sort;
import org.apache.calcite.rel.core.Values;
import org.apache.calcite.rel.logical.LogicalAggregate;
import org.apache.calcite.rel.logical.LogicalJoin;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;

/**
 * A logical plan translated node by node into the enumerable plan the planner's converter rules
 * would build (a Basalt scan behind its converter; a sort with a limit as a limit over a sort,
 * as Calcite's {@code EnumerableLimitRule} makes it; a join as Calcite's join rule converts it,
 * a hash join on its equal keys; an aggregate hashed). For the short path, where a fixed
 * program has done the pushdown and there is nothing to choose, and for plans of small tables,
 * where choosing would cost more than any choice saves. Returns null for an operator it does
 * not know.
 */
public final class EnumerableTranslation {
  private EnumerableTranslation() {}

  /**
   * The order a projection of rows in {@code order} keeps: the longest prefix of the input's
   * sort fields that the projection passes through as plain columns. The input's own trait
   * is the truth here (a Basalt scan's order is its trait, which metadata, asking the table's
   * statistics, does not see), so a sort the pushdown moved into the scan below a
   * projection is not wanted again above it.
   */
  static RelCollation collationThrough(List<RexNode> projects, RelCollation order) {
    List<RelFieldCollation> kept = new ArrayList<>();
    for (RelFieldCollation fc : order.getFieldCollations()) {
      int at = -1;
      for (int i = 0; i < projects.size() && at < 0; i++) {
        if (projects.get(i) instanceof RexInputRef ref && ref.getIndex() == fc.getFieldIndex()) {
          at = i;
        }
      }
      if (at < 0) {
        break;
      }
      kept.add(fc.withFieldIndex(at));
    }
    return RelCollations.of(kept);
  }

  /** The one order {@code rel}'s rows come in, or none (also when it has several, as VALUES). */
  private static RelCollation orderOf(RelNode rel) {
    List<RelCollation> orders = rel.getTraitSet().getTraits(RelCollationTraitDef.INSTANCE);
    return orders == null || orders.size() != 1 ? RelCollations.EMPTY : orders.get(0);
  }

  public static RelNode of(RelNode rel) {
    List<RelNode> inputs = new ArrayList<>();
    for (RelNode in : rel.getInputs()) {
      RelNode converted = of(in);
      if (converted == null) {
        return null;
      }
      inputs.add(converted);
    }
    if (rel.getConvention() != Convention.NONE) {
      return null;
    }
    if (rel instanceof BasaltScan scan) {
      BasaltScan basalt = scan.with(scan.spec(), scan.getTraitSet().replace(BasaltRel.CONVENTION));
      return new BasaltToEnumerableConverter(scan.getCluster(),
          basalt.getTraitSet().replace(EnumerableConvention.INSTANCE), basalt);
    }
    if (rel instanceof Project p) {
      RelNode in = inputs.get(0);
      EnumerableProject project = EnumerableProject.create(in, p.getProjects(), p.getRowType());
      RelCollation kept = collationThrough(p.getProjects(), orderOf(in));
      return kept.getFieldCollations().isEmpty() ? project
          : project.copy(project.getTraitSet().replace(kept), in, project.getProjects(),
              project.getRowType());
    }
    if (rel instanceof Filter f) {
      RelNode in = inputs.get(0);
      RelTraitSet traits = f.getTraitSet().replace(EnumerableConvention.INSTANCE);
      RelCollation order = orderOf(in);
      return new EnumerableFilter(f.getCluster(),
          order.getFieldCollations().isEmpty() ? traits : traits.replace(order), in,
          f.getCondition());
    }
    if (rel instanceof Sort s) {
      RelNode in = inputs.get(0);
      if (!s.getCollation().getFieldCollations().isEmpty()) {
        in = EnumerableSort.create(in, s.getCollation(), null, null);
      }
      return s.offset == null && s.fetch == null ? in
          : EnumerableLimit.create(in, s.offset, s.fetch);
    }
    if (rel instanceof Values v) {
      return EnumerableValues.create(v.getCluster(), v.getRowType(), v.getTuples());
    }
    if (rel instanceof BasaltTableModify m) {
      return m.enumerable(inputs.get(0));
    }
    if (rel instanceof LogicalJoin j) { // Calcite's own choice: hash join on the equal keys
      return ((ConverterRule) EnumerableRules.ENUMERABLE_JOIN_RULE)
          .convert(j.copy(j.getTraitSet(), inputs)); // inputs enumerable: it converts none
    }
    if (rel instanceof LogicalAggregate a) {
      try {
        return new EnumerableAggregate(a.getCluster(),
            a.getCluster().traitSetOf(EnumerableConvention.INSTANCE), inputs.get(0),
            a.getGroupSet(), a.getGroupSets(), a.getAggCallList());
      } catch (org.apache.calcite.rel.InvalidRelException e) {
        return null; // an aggregate the enumerable one does not take: the search's
      }
    }
    return null;
  }
}
