package io.basaltdb.sql.parser;

import io.basaltdb.sql.SqlStateException;
import java.util.ArrayDeque;
import java.util.Deque;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;

/**
 * Limits on a parsed statement that keep the planner's recursion (validation, conversion,
 * rules, code generation all walk the tree recursively) from overflowing the stack: a tree
 * deeper than {@link #MAX_DEPTH} is refused with 54001 before planning. The walk itself is
 * iterative. Stateless.
 */
public final class StatementLimits {
  /** Deepest expression tree accepted (a chain {@code a + b + ... } of n terms is n deep). */
  public static final int MAX_DEPTH = 250;

  private StatementLimits() {}

  private record Frame(SqlNode node, int depth) {}

  /** Returns {@code statement}, or throws 54001 when it nests deeper than the limit. */
  public static SqlNode check(SqlNode statement) {
    if (statement == null) {
      return null;
    }
    Deque<Frame> todo = new ArrayDeque<>();
    todo.push(new Frame(statement, 1));
    while (!todo.isEmpty()) {
      Frame f = todo.pop();
      if (f.depth > MAX_DEPTH) {
        throw SqlStateException.tooComplex("expressions nest deeper than " + MAX_DEPTH
            + " levels (a chain of more than " + MAX_DEPTH + " operators, or parentheses);"
            + " use IN lists or split the statement");
      }
      if (f.node instanceof SqlNodeList list) {
        for (SqlNode n : list) {
          if (n != null) {
            todo.push(new Frame(n, f.depth + 1));
          }
        }
      } else if (f.node instanceof SqlCall call) {
        for (SqlNode n : call.getOperandList()) {
          if (n != null) {
            todo.push(new Frame(n, f.depth + 1));
          }
        }
      }
    }
    return statement;
  }
}
