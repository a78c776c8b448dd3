package io.basaltdb.sql.exec.write;

import io.basaltdb.sql.SqlStateException;
import io.basaltdb.sql.SqlStates;
import io.basaltdb.sql.catalog.SqlTableDef;
import io.basaltdb.sql.pushdown.WriteSpec;

/**
 * Refuses a row a write would leave without a value in a NOT NULL column (23502, naming column
 * and table), before anything of it is written: an INSERT's every cell column, an UPSERT's
 * named ones (the others stay as they are), an UPDATE's assigned ones ({@code c = c + n} keeps
 * a value a value). Key columns are the row key's to refuse. One per write execution.
 */
final class NotNullCheck {
  private final SqlTableDef def;
  private final WriteSpec spec;
  /** The columns the rows are checked at: cell columns declared NOT NULL the write sets. */
  private final int[] columns;
  /** For UPDATE, the position among the assignments of each of {@link #columns}. */
  private final int[] assignment;

  NotNullCheck(SqlTableDef def, WriteSpec spec) {
    this.def = def;
    this.spec = spec;
    int updates = spec.kind() == WriteSpec.Kind.UPDATE ? spec.updated().size() : 0;
    int[] cols = new int[Math.max(def.visibleColumnCount(), updates)];
    int[] at = new int[updates];
    int n = 0;
    switch (spec.kind()) {
      case INSERT, UPSERT -> {
        for (int i = 0; i < def.visibleColumnCount(); i++) {
          boolean set = spec.kind() == WriteSpec.Kind.INSERT || spec.listed().contains(i);
          if (set && notNullCell(i)) {
            cols[n++] = i;
          }
        }
      }
      case UPDATE -> {
        for (int u = 0; u < spec.updated().size(); u++) {
          if (spec.increments().get(u) == null && notNullCell(spec.updated().get(u))) {
            cols[n] = spec.updated().get(u);
            at[n++] = u;
          }
        }
      }
      default -> { }
    }
    columns = java.util.Arrays.copyOf(cols, n);
    assignment = at.length == 0 ? at : java.util.Arrays.copyOf(at, n);
  }

  private boolean notNullCell(int i) {
    return !def.columns().get(i).isKey() && !def.columns().get(i).nullable();
  }

  /** Refuses {@code row} (as the write's input gives it) when it breaks a NOT NULL. */
  void check(Object[] row) {
    boolean update = spec.kind() == WriteSpec.Kind.UPDATE;
    for (int k = 0; k < columns.length; k++) {
      Object v = update ? row[def.visibleColumnCount() + assignment[k]] : row[columns[k]];
      if (v == null) {
        throw refusal(def, columns[k]);
      }
    }
  }

  /** Refuses NULL for column {@code col} when it is a NOT NULL cell column. */
  static void checkValue(SqlTableDef def, int col, Object v) {
    if (v == null && !def.columns().get(col).isKey() && !def.columns().get(col).nullable()) {
      throw refusal(def, col);
    }
  }

  private static SqlStateException refusal(SqlTableDef def, int col) {
    return new SqlStateException(SqlStates.NOT_NULL_VIOLATION, "NULL not allowed for column "
        + def.columns().get(col).name() + " of table " + def.table() + " (NOT NULL)");
  }
}
