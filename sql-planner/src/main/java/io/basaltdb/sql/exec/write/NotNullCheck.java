package io.basaltdb.sql.exec.write;

import io.basaltdb.sql.SqlStateException;
import io.basaltdb.sql.SqlStates;
import io.basaltdb.sql.catalog.SqlTableDef;
import io.basaltdb.sql.pushdown.WriteSpec;
import java.util.ArrayList;
import java.util.List;

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
    List<Integer> cols = new ArrayList<>();
    List<Integer> at = new ArrayList<>();
    switch (spec.kind()) {
      case INSERT, UPSERT -> {
        for (int i = 0; i < def.visibleColumnCount(); i++) {
          boolean set = spec.kind() == WriteSpec.Kind.INSERT || spec.listed().contains(i);
          if (set && notNullCell(i)) {
            cols.add(i);
          }
        }
      }
      case UPDATE -> {
        for (int u = 0; u < spec.updated().size(); u++) {
          if (spec.increments().get(u) == null && notNullCell(spec.updated().get(u))) {
            cols.add(spec.updated().get(u));
            at.add(u);
          }
        }
      }
      default -> { }
    }
    columns = cols.stream().mapToInt(Integer::intValue).toArray();
    assignment = at.stream().mapToInt(Integer::intValue).toArray();
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
