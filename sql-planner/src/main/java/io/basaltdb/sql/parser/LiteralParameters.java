package io.basaltdb.sql.parser;

import java.math.BigDecimal;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.List;
import java.util.Set;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlCharStringLiteral;
import org.apache.calcite.sql.SqlDynamicParam;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlInsert;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlNumericLiteral;
import org.apache.calcite.sql.SqlUpdate;
import org.apache.calcite.sql.parser.SqlParserPos;

/**
 * The literals of a statement that can become parameters without changing its meaning, so that
 * statements differing only in those values share one plan (issue 11): numbers and plain
 * strings compared with a column ({@code =, <>, <, <=, >, >=}, {@code BETWEEN}, {@code IN},
 * {@code LIKE}), the values of {@code INSERT}/{@code UPSERT ... VALUES}, and {@code SET c =
 * literal} or {@code c = c + literal} of an {@code UPDATE}. Each such place types its
 * parameter from the column, so the plan is the same for any value that fits it. Besides
 * those, a number in arithmetic ({@code + - * /}) or a {@code COALESCE} with an expression over
 * columns is an <em>exact</em> site ({@link Site#exact}): its parameter takes its type from that
 * expression, and it may stand for the literal only when that type is the literal's own (an
 * INTEGER for {@code 3}), so that every type Calcite derives from it, and the result's, is
 * the same as with the literal. Everything else stays a
 * literal (select-list constants, ordinals, LIMIT, CAST targets, dates, NULL, strings with a
 * prefix or trailing spaces). A statement with parameters of its own
 * is left alone. Found from the parse tree; replaced in the text by position, so no statement
 * is unparsed.
 */
public final class LiteralParameters {
  /**
   * A literal: where it is in the text (offsets), its value (BigDecimal, Double, String), and
   * whether its parameter must have the literal's own type ({@link #find}).
   */
  public record Site(int start, int end, Object value, boolean exact) {}

  private static final Set<SqlKind> COMPARISONS = Set.of(SqlKind.EQUALS, SqlKind.NOT_EQUALS,
      SqlKind.LESS_THAN, SqlKind.LESS_THAN_OR_EQUAL, SqlKind.GREATER_THAN,
      SqlKind.GREATER_THAN_OR_EQUAL);
  private static final Set<SqlKind> ARITHMETIC = Set.of(SqlKind.PLUS, SqlKind.MINUS,
      SqlKind.TIMES, SqlKind.DIVIDE);

  private LiteralParameters() {}

  /**
   * The literals of {@code stmt} (parsed from {@code sql}) that can be parameters, in text
   * order; empty when there are none or the statement is not a query or DML, or has
   * parameters of its own.
   */
  public static List<Site> find(SqlNode stmt, String sql) {
    if (!stmt.getKind().belongsTo(SqlKind.QUERY) && !stmt.getKind().belongsTo(SqlKind.DML)) {
      return List.of();
    }
    List<SqlLiteral> found = new ArrayList<>();
    Set<SqlNode> exact = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
    Deque<SqlNode> todo = new ArrayDeque<>();
    todo.push(stmt);
    while (!todo.isEmpty()) {
      SqlNode n = todo.pop();
      if (n instanceof SqlDynamicParam) {
        return List.of();
      }
      if (n instanceof SqlInsert insert && insert.getSource().getKind() == SqlKind.VALUES) {
        for (SqlNode row : ((SqlCall) insert.getSource()).getOperandList()) {
          if (row instanceof SqlCall r && r.getKind() == SqlKind.ROW) {
            for (SqlNode v : r.getOperandList()) {
              if (!add(found, v)) {
                todo.push(v);
              }
            }
          }
        }
        continue; // the target and its columns hold no values
      }
      if (n instanceof SqlUpdate update) {
        for (SqlNode e : update.getSourceExpressionList()) {
          if (!add(found, e)) {
            todo.push(e);
          }
        }
        if (update.getCondition() != null) {
          todo.push(update.getCondition());
        }
        continue;
      }
      if (n instanceof SqlBasicCall call) {
        collect(call, found, exact);
      }
      if (n instanceof SqlCall call) {
        for (SqlNode o : call.getOperandList()) {
          if (o != null) {
            todo.push(o);
          }
        }
      } else if (n instanceof SqlNodeList list) {
        for (SqlNode o : list) {
          if (o != null) {
            todo.push(o);
          }
        }
      }
    }
    List<Site> sites = new ArrayList<>();
    int[] lineStarts = lineStarts(sql);
    for (SqlLiteral l : found) {
      Site s = site(l, sql, lineStarts, exact.contains(l));
      if (s == null) {
        return List.of(); // a position not understood: leave the statement as it is
      }
      sites.add(s);
    }
    sites.sort(Comparator.comparingInt(Site::start));
    for (int i = 1; i < sites.size(); i++) {
      if (sites.get(i).start() <= sites.get(i - 1).end()) {
        return List.of();
      }
    }
    return sites;
  }

  /**
   * The literals of a comparison, BETWEEN, IN or LIKE with a column, or of c + literal; and,
   * as exact sites, the numbers of other arithmetic or a COALESCE with an expression over
   * columns.
   */
  private static void collect(SqlBasicCall call, List<SqlLiteral> found, Set<SqlNode> exact) {
    List<SqlNode> ops = call.getOperandList();
    SqlKind kind = call.getKind();
    if (COMPARISONS.contains(kind) && ops.size() == 2) {
      if (ops.get(0) instanceof SqlIdentifier) {
        add(found, ops.get(1));
      } else if (ops.get(1) instanceof SqlIdentifier) {
        add(found, ops.get(0));
      }
    } else if (kind == SqlKind.BETWEEN && ops.size() == 3
        && ops.get(0) instanceof SqlIdentifier) {
      add(found, ops.get(1));
      add(found, ops.get(2));
    } else if (kind == SqlKind.IN && ops.size() == 2 && ops.get(0) instanceof SqlIdentifier
        && ops.get(1) instanceof SqlNodeList list) {
      for (SqlNode v : list) {
        add(found, v);
      }
    } else if (kind == SqlKind.LIKE && ops.size() == 2 && ops.get(0) instanceof SqlIdentifier
        && ops.get(1) instanceof SqlCharStringLiteral) {
      add(found, ops.get(1));
    } else if ((kind == SqlKind.PLUS || kind == SqlKind.MINUS) && ops.size() == 2
        && ops.get(0) instanceof SqlIdentifier && ops.get(1) instanceof SqlNumericLiteral) {
      add(found, ops.get(1));
    } else if (ARITHMETIC.contains(kind) && ops.size() == 2) {
      for (int i = 0; i < 2; i++) {
        if (ops.get(i) instanceof SqlNumericLiteral && mentionsColumn(ops.get(1 - i))) {
          addExact(found, exact, ops.get(i));
        }
      }
    } else if ((kind == SqlKind.COALESCE // parsed as a call of that name, resolved later
        || call.getOperator().getName().equalsIgnoreCase("COALESCE"))
        && ops.stream().anyMatch(LiteralParameters::mentionsColumn)) {
      for (SqlNode o : ops) {
        addExact(found, exact, o);
      }
    }
  }

  /** Adds {@code n} as an exact site if it is a number. */
  private static void addExact(List<SqlLiteral> found, Set<SqlNode> exact, SqlNode n) {
    if (n instanceof SqlNumericLiteral num) {
      found.add(num);
      exact.add(num);
    }
  }

  /**
   * Whether {@code n} reads a column (a name or a sub-query): a parameter beside it gets a type
   * from it, where one beside literals alone ({@code 1 + 2}) would get none.
   */
  private static boolean mentionsColumn(SqlNode n) {
    if (n instanceof SqlIdentifier || n instanceof org.apache.calcite.sql.SqlSelect) {
      return true;
    }
    if (n instanceof SqlCall call) {
      for (SqlNode o : call.getOperandList()) {
        if (o != null && mentionsColumn(o)) {
          return true;
        }
      }
    } else if (n instanceof SqlNodeList list) {
      for (SqlNode o : list) {
        if (o != null && mentionsColumn(o)) {
          return true;
        }
      }
    }
    return false;
  }

  /** Adds {@code n} if it is a literal that can be a parameter; whether it is one. */
  private static boolean add(List<SqlLiteral> found, SqlNode n) {
    if (n instanceof SqlNumericLiteral num) {
      found.add(num);
      return true;
    }
    if (n instanceof SqlCharStringLiteral s && s.getNlsString().getCharsetName() == null
        && s.getNlsString().getCollation() == null) {
      found.add(s);
      return true;
    }
    return false;
  }

  private static Site site(SqlLiteral l, String sql, int[] lineStarts, boolean exact) {
    SqlParserPos p = l.getParserPosition();
    if (p.getLineNum() < 1 || p.getEndLineNum() > lineStarts.length) {
      return null;
    }
    int start = lineStarts[p.getLineNum() - 1] + p.getColumnNum() - 1;
    int end = lineStarts[p.getEndLineNum() - 1] + p.getEndColumnNum(); // exclusive
    if (start < 0 || end > sql.length() || start >= end) {
      return null;
    }
    String text = sql.substring(start, end);
    if (l instanceof SqlNumericLiteral num) {
      if (!text.matches("(-\\s*)?([0-9]+(\\.[0-9]*)?|\\.[0-9]+)([eE][-+]?[0-9]+)?")) {
        return null;
      }
      Object value = num.isExact() ? num.getValueAs(BigDecimal.class)
          : (Object) num.getValueAs(Double.class);
      return new Site(start, end, value, exact);
    }
    String value = ((SqlCharStringLiteral) l).getNlsString().getValue();
    // a plain 'text' whose characters are the value's (quotes doubled; no trailing space)
    if (!text.equals("'" + value.replace("'", "''") + "'") || value.endsWith(" ")) {
      return null;
    }
    return new Site(start, end, value, exact);
  }

  private static int[] lineStarts(String sql) {
    List<Integer> starts = new ArrayList<>();
    starts.add(0);
    for (int i = 0; i < sql.length(); i++) {
      if (sql.charAt(i) == '\n') {
        starts.add(i + 1);
      }
    }
    return starts.stream().mapToInt(Integer::intValue).toArray();
  }
}
