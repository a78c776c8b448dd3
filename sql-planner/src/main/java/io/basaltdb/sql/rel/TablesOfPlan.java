package io.basaltdb.sql.rel;

import io.basaltdb.storage.TableName;
import java.util.HashSet;
import java.util.Set;
import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.rel.RelNode;

/**
 * The Basalt tables a finished plan reads or writes: every operator's table (scans, writes)
 * and each lookup join's right side, which is not an input. What a plan cached across catalog
 * versions depends on: a change of any other table's indexes leaves it valid.
 */
public final class TablesOfPlan {
  private TablesOfPlan() {}

  /**
   * The tables of {@code plan}, or null when it reads a table that is not a Basalt table
   * (INFORMATION_SCHEMA and other system views, whose rows come from the catalog): such a plan
   * may depend on anything.
   */
  public static Set<TableName> of(RelNode plan) {
    Set<TableName> tables = new HashSet<>();
    return collect(plan, tables) ? Set.copyOf(tables) : null;
  }

  private static boolean collect(RelNode rel, Set<TableName> into) {
    if (rel instanceof BasaltLookupJoin join && !add(join.lookedUp().getTable(), into)) {
      return false;
    }
    RelOptTable table = rel.getTable();
    if (table != null && !add(table, into)) {
      return false;
    }
    for (RelNode in : rel.getInputs()) {
      if (!collect(in, into)) {
        return false;
      }
    }
    return true;
  }

  private static boolean add(RelOptTable table, Set<TableName> into) {
    PlannedTable planned = table.unwrap(PlannedTable.class);
    if (planned == null || planned.definition() == null) {
      return false;
    }
    into.add(planned.definition().table());
    return true;
  }
}
