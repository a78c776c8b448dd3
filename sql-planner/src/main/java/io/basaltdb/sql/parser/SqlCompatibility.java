package io.basaltdb.sql.parser;

import java.util.List;
import java.util.regex.Pattern;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlCharStringLiteral;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlUnresolvedFunction;

/**
 * SQL that H2 and PostgreSQL accept, that query layers generate, and that Calcite's grammar or
 * validator refuses, rewritten to what it means:
 *
 * <ul>
 *   <li>an empty IN list, {@code x IN ()}: false, and {@code x NOT IN ()} true, whatever x (as
 *       H2: the empty set holds nothing). The text {@code IN ()} becomes {@code IN
 *       (BASALT$EMPTY_LIST())} before parsing ({@link #withEmptyLists}), and the parsed call
 *       the boolean ({@link #rewritten});
 *   <li>{@code LIKE p ESCAPE ''} (Hibernate writes it for every LIKE): an empty escape is none,
 *       as in H2 and PostgreSQL; so is an empty string bound to {@code ESCAPE ?}: the parameter
 *       becomes {@code COALESCE(NULLIF(CAST(? AS VARCHAR), ''), U&'\0000')}, the NUL
 *       character escaping nothing a pattern holds (a longer escape is still 22019);
 *   <li>a unary plus is its operand ({@code SELECT + c} of a text column is the text, as H2
 *       and SQLite give it; Calcite would read it as a number).
 * </ul>
 *
 * <p>String literals, quoted identifiers and comments are never rewritten.
 */
public final class SqlCompatibility {
  private static final String EMPTY_LIST = "BASALT$EMPTY_LIST";
  private static final Pattern EMPTY_IN = Pattern.compile("(?i)\\bIN\\s*\\(\\s*\\)");

  private SqlCompatibility() {}

  /** {@code sql} with each {@code IN ()} made parseable ({@code IN (BASALT$EMPTY_LIST())}). */
  public static String withEmptyLists(String sql) {
    return HintText.rewriteOutside(sql, EMPTY_IN, true, (m, out) -> {
      out.append("IN (").append(EMPTY_LIST).append("())");
      return m.end();
    });
  }

  /**
   * {@code stmt} (parsed from {@code sql}) with the forms above rewritten, in place: a node
   * whose child is replaced gets it with {@link SqlCall#setOperand}.
   */
  public static SqlNode rewritten(SqlNode stmt, String sql) {
    if (stmt == null || sql == null || sql.indexOf('+') < 0 && !sql.contains(EMPTY_LIST)
        && !ESCAPE.matcher(sql).find()) {
      return stmt;
    }
    return rewrite(stmt);
  }

  private static final Pattern ESCAPE = Pattern.compile("(?i)\\bESCAPE\\b");

  private static SqlNode rewrite(SqlNode n) {
    if (n instanceof SqlNodeList list) {
      for (int i = 0; i < list.size(); i++) {
        SqlNode e = list.get(i);
        if (e != null) {
          list.set(i, rewrite(e));
        }
      }
      return list;
    }
    if (!(n instanceof SqlCall call)) {
      return n;
    }
    SqlNode replacement = replacement(call);
    if (replacement != null) {
      return rewrite(replacement);
    }
    List<SqlNode> operands = call.getOperandList();
    for (int i = 0; i < operands.size(); i++) {
      SqlNode o = operands.get(i);
      if (o == null) {
        continue;
      }
      SqlNode r = rewrite(o);
      if (r != o) {
        try {
          call.setOperand(i, r);
        } catch (UnsupportedOperationException e) {
          // a call Calcite keeps fixed: left as written, to be refused as before
        }
      }
    }
    return call;
  }

  /** What {@code call} is rewritten to, or null when it stays. */
  private static SqlNode replacement(SqlCall call) {
    SqlKind kind = call.getKind();
    if ((kind == SqlKind.IN || kind == SqlKind.NOT_IN) && call.operandCount() == 2
        && call.operand(1) instanceof SqlNodeList list && list.size() == 1
        && isEmptyListMarker(list.get(0))) {
      return SqlLiteral.createBoolean(kind == SqlKind.NOT_IN, call.getParserPosition());
    }
    if (kind == SqlKind.PLUS_PREFIX) {
      return call.operand(0);
    }
    if (kind == SqlKind.LIKE && call.operandCount() == 3
        && call.operand(2) instanceof SqlCharStringLiteral escape
        && escape.getValueAs(String.class).isEmpty()) {
      return call.getOperator().createCall(call.getParserPosition(), call.operand(0),
          call.operand(1));
    }
    if (kind == SqlKind.LIKE && call.operandCount() == 3
        && call.operand(2) instanceof org.apache.calcite.sql.SqlDynamicParam p) {
      var pos = p.getParserPosition();
      SqlNode oneChar = org.apache.calcite.sql.fun.SqlStdOperatorTable.CAST.createCall(pos, p,
          new org.apache.calcite.sql.SqlDataTypeSpec(new org.apache.calcite.sql
              .SqlBasicTypeNameSpec(org.apache.calcite.sql.type.SqlTypeName.VARCHAR, pos),
              pos));
      SqlNode emptyIsNone = org.apache.calcite.sql.fun.SqlStdOperatorTable.NULLIF.createCall(
          pos, oneChar, SqlLiteral.createCharString("", pos));
      return call.getOperator().createCall(call.getParserPosition(), call.operand(0),
          call.operand(1), org.apache.calcite.sql.fun.SqlStdOperatorTable.COALESCE.createCall(
              pos, emptyIsNone, SqlLiteral.createCharString("\u0000", pos)));
    }
    return null;
  }

  private static boolean isEmptyListMarker(SqlNode n) {
    return n instanceof SqlCall c && c.getOperator() instanceof SqlUnresolvedFunction f
        && f.getName().equalsIgnoreCase(EMPTY_LIST) && c.operandCount() == 0;
  }
}
