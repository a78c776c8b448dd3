package io.basaltdb.sql.exec.write;

import io.basaltdb.sql.SqlStateException;
import io.basaltdb.sql.catalog.SqlTableDef;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlInsert;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlUpdate;

/**
 * Columns {@code GENERATED ALWAYS AS IDENTITY} take their DEFAULT and nothing else, as in the
 * standard and PostgreSQL: a write naming one with any value but {@code DEFAULT} (an INSERT's
 * VALUES or query, an UPSERT, an UPDATE's SET) is refused with 428C9 naming the column, before
 * anything is planned. Leaving the column out, or writing {@code DEFAULT}, draws its sequence.
 * Stateless.
 */
public final class GeneratedAlways {
  private GeneratedAlways() {}

  /** Checks an INSERT's or UPSERT's values or query against {@code def}'s such columns. */
  public static void check(SqlInsert insert, SqlTableDef def) {
    if (def.generatedAlways().isEmpty()) {
      return;
    }
    List<String> targets = new ArrayList<>();
    if (insert.getTargetColumnList() == null) {
      for (int i = 0; i < def.visibleColumnCount(); i++) {
        targets.add(def.columns().get(i).name());
      }
    } else {
      for (SqlNode n : insert.getTargetColumnList()) {
        SqlIdentifier id = (SqlIdentifier) n;
        targets.add(id.names.get(id.names.size() - 1));
      }
    }
    SqlNode source = insert.getSource();
    for (int i = 0; i < targets.size(); i++) {
      if (!def.generatedAlways().contains(targets.get(i))) {
        continue;
      }
      if (source.getKind() != SqlKind.VALUES) {
        throw refused(targets.get(i), def); // a query's values are never DEFAULT
      }
      for (SqlNode row : ((SqlCall) source).getOperandList()) {
        if (row instanceof SqlCall r && r.getKind() == SqlKind.ROW && i < r.operandCount()
            && r.operand(i).getKind() != SqlKind.DEFAULT) {
          throw refused(targets.get(i), def);
        }
      }
    }
  }

  /** Checks an UPDATE's SET clauses. */
  public static void check(SqlUpdate update, SqlTableDef def) {
    if (def.generatedAlways().isEmpty()) {
      return;
    }
    List<SqlNode> columns = update.getTargetColumnList().getList();
    List<SqlNode> values = update.getSourceExpressionList().getList();
    for (int i = 0; i < columns.size(); i++) {
      SqlIdentifier id = (SqlIdentifier) columns.get(i);
      String col = id.names.get(id.names.size() - 1);
      if (def.generatedAlways().contains(col) && (i >= values.size()
          || values.get(i).getKind() != SqlKind.DEFAULT)) {
        throw refused(col, def);
      }
    }
  }

  private static SqlStateException refused(String column, SqlTableDef def) {
    return new SqlStateException(io.basaltdb.sql.SqlStates.GENERATED_ALWAYS, "cannot write a value into column " + column
        + " of " + def.table() + ": it is GENERATED ALWAYS AS IDENTITY (leave it out, or write"
        + " DEFAULT)");
  }
}
