package io.basaltdb.sql.rel;

import io.basaltdb.sql.catalog.SqlTableDef;
import io.basaltdb.sql.exec.TableRuns;
import io.basaltdb.sql.index.IndexLayout;
import java.util.List;

/**
 * What Basalt's rel nodes need of a table: its definition, the indexes queries may use, the
 * handle their plans call at run time, and a column statistic. The schema's table ({@code
 * BasaltSqlTable}) implements it and makes the rel nodes; the rel nodes know only this, and
 * the executors neither: the table describes, the rel nodes plan, the executors run against
 * the storage seam, each pointing one way.
 */
public interface PlannedTable {
  SqlTableDef definition();

  /** The ACTIVE indexes, those queries may use. */
  List<IndexLayout> indexes();

  /** The ACTIVE index named {@code name}, or null. */
  IndexLayout index(String name);

  /** What plans of this table call at run time (scans, lookup joins, writes). */
  TableRuns runs();

  /** Estimated distinct values of a column, for join and filter cardinalities. */
  double distinctValues(int column);

  /**
   * The Basalt convention's planner rules, which the nodes register with a planner when it
   * first meets one (Calcite's {@code RelNode.register}); given by the table, so the nodes
   * never name the rules that make them.
   */
  List<org.apache.calcite.plan.RelOptRule> rules();
}
