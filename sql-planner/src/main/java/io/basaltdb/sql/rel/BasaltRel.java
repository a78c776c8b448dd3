package io.basaltdb.sql.rel;

import org.apache.calcite.plan.Convention;
import org.apache.calcite.rel.RelNode;

/**
 * A relational operator Basalt runs inside the engine's region scans rather than in Calcite's
 * enumerable code. Its calling convention, {@link #CONVENTION}, is what the planner rules
 * target; {@link BasaltToEnumerableConverter} joins such a subtree to the rest of the plan.
 */
public interface BasaltRel extends RelNode {
  Convention CONVENTION = new Convention.Impl("BASALT", BasaltRel.class);
}
