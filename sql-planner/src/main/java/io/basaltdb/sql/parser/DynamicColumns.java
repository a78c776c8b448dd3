package io.basaltdb.sql.parser;

import java.util.HashMap;
import java.util.Map;
import java.util.regex.Pattern;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.util.SqlShuttle;

/**
 * Phoenix's dynamic columns, declared where a statement uses them: {@code SELECT ... FROM t
 * (extra VARCHAR)}, {@code FROM t EXTEND (f.extra VARCHAR)}, {@code UPSERT INTO t (id,
 * f.extra VARCHAR) VALUES ...}. Calcite parses them as the table extended by typed columns and
 * names a column {@code f.extra} "F.EXTRA"; a statement refers to it as {@code extra}, as to the
 * declared columns of a family. The table, extended by "F.EXTRA", names the column EXTRA in
 * family F ({@code schema.DynamicColumnDefs}); a column without a family is in the table's
 * first family. After parsing, an INSERT's target column {@code f.extra} that the statement's
 * own EXTEND declares is renamed to its last name, as the table names it.
 */
public final class DynamicColumns {
  private static final Pattern TYPED = Pattern.compile("(?i)\\b(EXTEND|VARCHAR|CHAR|CHARACTER|"
      + "INTEGER|INT|BIGINT|SMALLINT|TINYINT|DOUBLE|FLOAT|REAL|DECIMAL|NUMERIC|DATE|TIME|"
      + "TIMESTAMP|BOOLEAN|BINARY|VARBINARY|ARRAY)\\b");

  private static final String NAME = "(?:\"(?:[^\"]|\"\")+\"|[A-Za-z_][A-Za-z0-9_$]*)";
  /**
   * A table name followed by a parenthesis whose first item is a family-qualified name and a
   * type: Phoenix's {@code FROM t (f.extra VARCHAR)}, which Calcite's grammar reads as a table
   * function's arguments ({@code t(f.extra ...)}) unless EXTEND comes between.
   */
  private static final Pattern FAMILY_FIRST = Pattern.compile("(?i)\\b(FROM|JOIN|UPDATE)(\\s+"
      + NAME + "(?:\\s*\\.\\s*" + NAME + ")*\\s*)\\((\\s*" + NAME + "\\s*\\.\\s*" + NAME
      + "\\s+(?:VARCHAR|CHAR|CHARACTER|INTEGER|INT|BIGINT|SMALLINT|TINYINT|DOUBLE|FLOAT|REAL"
      + "|DECIMAL|NUMERIC|DATE|TIME|TIMESTAMP|BOOLEAN|BINARY|VARBINARY|TEXT|STRING)\\b)");

  private DynamicColumns() {}

  /**
   * {@code sql} with EXTEND put before a parenthesis of dynamic columns whose first is
   * family-qualified ({@code FROM t (f.x VARCHAR)} becomes {@code FROM t EXTEND (f.x VARCHAR)});
   * nothing inside string literals or comments is touched.
   */
  public static String withExtend(String sql) {
    return HintText.rewriteOutside(sql, FAMILY_FIRST, false, (m, out) -> {
      out.append(sql, m.start(), m.start(3) - 1).append("EXTEND (");
      return m.start(3);
    });
  }

  /** {@code stmt} (parsed from {@code sql}) with its INSERT targets named as its table does. */
  public static SqlNode named(SqlNode stmt, String sql) {
    Map<String, String> families = new HashMap<>(); // column -> family, of EXTEND lists
    if (stmt == null || sql == null || !TYPED.matcher(sql).find()) {
      return stmt;
    }
    stmt.accept(new SqlShuttle() {
      @Override
      public SqlNode visit(SqlCall call) {
        if (call.getKind() == SqlKind.EXTEND
            && call.getOperandList().get(1) instanceof SqlNodeList columns) {
          for (int i = 0; i + 1 < columns.size(); i += 2) {
            if (columns.get(i) instanceof SqlIdentifier id && id.names.size() == 2) {
              families.put(id.names.get(1), id.names.get(0));
            }
          }
        }
        for (SqlNode operand : call.getOperandList()) {
          if (operand != null) {
            operand.accept(this);
          }
        }
        if (call instanceof org.apache.calcite.sql.SqlInsert insert
            && insert.getTargetColumnList() != null) { // after its EXTEND: families known
          SqlNodeList targets = insert.getTargetColumnList();
          for (int i = 0; i < targets.size(); i++) {
            if (targets.get(i) instanceof SqlIdentifier id && id.names.size() == 2
                && id.names.get(0).equals(families.get(id.names.get(1)))) {
              targets.set(i, new SqlIdentifier(id.names.get(1), id.getParserPosition()));
            }
          }
        }
        return call;
      }
    });
    return stmt;
  }
}
