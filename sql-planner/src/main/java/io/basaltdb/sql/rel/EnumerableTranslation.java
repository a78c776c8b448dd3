package io.basaltdb.sql.rel;

import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.adapter.enumerable.EnumerableConvention;
import org.apache.calcite.adapter.enumerable.EnumerableFilter;
import org.apache.calcite.adapter.enumerable.EnumerableLimit;
import org.apache.calcite.adapter.enumerable.EnumerableProject;
import org.apache.calcite.adapter.enumerable.EnumerableSort;
import org.apache.calcite.adapter.enumerable.EnumerableValues;
import org.apache.calcite.plan.Convention;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.core.Sort;
import org.apache.calcite.rel.core.Values;

/**
 * A logical plan of single-input operators over at most one Basalt scan, translated node by
 * node into the enumerable plan the planner's converter rules would build (a Basalt scan
 * behind its converter; a sort with a limit as a limit over a sort, as Calcite's
 * {@code EnumerableLimitRule} makes it). For the short path, where a fixed program has done
 * the pushdown and there is nothing to choose. Returns null for an operator it does not know.
 */
public final class EnumerableTranslation {
  private EnumerableTranslation() {}

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
      return EnumerableProject.create(inputs.get(0), p.getProjects(), p.getRowType());
    }
    if (rel instanceof Filter f) {
      return new EnumerableFilter(f.getCluster(),
          f.getTraitSet().replace(EnumerableConvention.INSTANCE), inputs.get(0),
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
    return null;
  }
}
