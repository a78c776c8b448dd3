package io.basaltdb.sql.parser;

import io.basaltdb.sql.SqlStates;
import io.basaltdb.sql.SqlStateException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Map;
import java.util.TreeMap;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlDynamicParam;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlOrderBy;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.parser.SqlParseException;
import org.apache.calcite.sql.parser.SqlParser;

/**
 * Which parameters of a statement are a {@code LIMIT}/{@code FETCH} or an {@code OFFSET}, so
 * that a negative value bound to one is refused (2201W, 2201X) instead of Calcite's generated
 * code taking it as "no rows". Immutable.
 */
public final class LimitParameters {
  public static final LimitParameters NONE = new LimitParameters(Map.of());

  /** Parameter index (0-based) to true for a fetch, false for an offset. */
  private final Map<Integer, Boolean> params;

  private LimitParameters(Map<Integer, Boolean> params) {
    this.params = params;
  }

  /** Whether {@code sql} holds {@code upperWord} in any case (as a word or inside one). */
  private static boolean containsIgnoringCase(String sql, String upperWord) {
    char first = upperWord.charAt(0);
    for (int i = 0, last = sql.length() - upperWord.length(); i <= last; i++) {
      char c = sql.charAt(i);
      if ((c == first || c == Character.toLowerCase(first))
          && sql.regionMatches(true, i, upperWord, 0, upperWord.length())) {
        return true;
      }
    }
    return false;
  }

  /** The limit parameters of {@code sql} (NONE when it has none or does not parse). */
  public static LimitParameters of(String sql) {
    if (sql == null || sql.indexOf('?') < 0) {
      return NONE;
    }
    if (!containsIgnoringCase(sql, "LIMIT") && !containsIgnoringCase(sql, "OFFSET")
        && !containsIgnoringCase(sql, "FETCH")) {
      return NONE; // most statements, found without an upper-case copy per prepare
    }
    SqlNode root;
    try {
      root = SqlParser.create(sql, SqlParser.config()
          .withParserFactory(io.basaltdb.sql.parser.impl.LimitedParser.FACTORY)).parseStmt();
    } catch (SqlParseException | RuntimeException e) {
      return NONE; // the statement's own preparation reports it
    }
    Map<Integer, Boolean> found = new TreeMap<>();
    Deque<SqlNode> todo = new ArrayDeque<>();
    todo.push(root);
    while (!todo.isEmpty()) {
      SqlNode n = todo.pop();
      if (n instanceof SqlSelect s) {
        note(found, s.getFetch(), true);
        note(found, s.getOffset(), false);
      } else if (n instanceof SqlOrderBy o) {
        note(found, o.fetch, true);
        note(found, o.offset, false);
      }
      if (n instanceof SqlNodeList list) {
        list.forEach(x -> push(todo, x));
      } else if (n instanceof SqlCall call) {
        call.getOperandList().forEach(x -> push(todo, x));
      }
    }
    return found.isEmpty() ? NONE : new LimitParameters(found);
  }

  private static void push(Deque<SqlNode> todo, SqlNode n) {
    if (n != null) {
      todo.push(n);
    }
  }

  private static void note(Map<Integer, Boolean> found, SqlNode n, boolean fetch) {
    if (n instanceof SqlDynamicParam p) {
      found.put(p.getIndex(), fetch);
    }
  }

  /** Throws 2201W/2201X when {@code value} bound to parameter {@code index} (1-based) is negative. */
  public void check(int index, Object value) {
    if (params.isEmpty()) {
      return; // most statements: no boxing and map probe per bound value
    }
    Boolean fetch = params.get(index - 1);
    if (fetch == null || !(value instanceof Number n)) {
      return;
    }
    if (n.doubleValue() < 0) {
      throw fetch
          ? new SqlStateException(SqlStates.INVALID_LIMIT,
              "LIMIT/FETCH must not be negative: " + value
              + " bound to parameter " + index)
          : new SqlStateException(SqlStates.INVALID_OFFSET, "OFFSET must not be negative: " + value
              + " bound to parameter " + index);
    }
  }
}
