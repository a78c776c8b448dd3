package io.basaltdb.sql.parser;

import io.basaltdb.sql.SqlStateException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;

/**
 * Limits on a parsed statement that keep the planner's recursion (validation, conversion,
 * rules, code generation all walk the tree recursively) from overflowing the stack: long
 * AND/OR chains are rebalanced, then a tree still deeper than {@link #MAX_DEPTH} is refused
 * with 54001 before planning. The walks themselves are iterative. Stateless.
 */
public final class StatementLimits {
  /** Deepest expression tree accepted (a chain {@code a + b + ... } of n terms is n deep). */
  public static final int MAX_DEPTH = 250;

  private StatementLimits() {}

  private record Frame(SqlNode node, int depth) {}

  /**
   * Returns {@code statement} with long AND/OR chains rebalanced, or throws 54001 when it
   * still nests deeper than the limit.
   */
  public static SqlNode check(SqlNode statement) {
    if (statement == null) {
      return null;
    }
    statement = rebalance(statement);
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

  /**
   * The parser builds {@code a OR b OR c ...} as a left-deep tree, n levels for n terms, which
   * the validator's recursion cannot take for a thousand terms. AND and OR are associative, so
   * such chains become balanced trees of the same terms in the same order (log2 n levels).
   * Other operators keep their shape: {@code a + b + c} is not associative for overflow and
   * type derivation.
   */
  static SqlNode rebalance(SqlNode root) {
    Deque<SqlNode> todo = new ArrayDeque<>();
    todo.push(root);
    SqlNode top = chainRoot(root);
    while (!todo.isEmpty()) {
      SqlNode n = todo.pop();
      if (n instanceof SqlNodeList list) {
        for (int i = 0; i < list.size(); i++) {
          SqlNode x = list.get(i);
          if (x != null) {
            SqlNode b = chainRoot(x);
            if (b != x) {
              list.set(i, b);
            }
            todo.push(b);
          }
        }
      } else if (n instanceof SqlCall call) {
        List<SqlNode> ops = call.getOperandList();
        for (int i = 0; i < ops.size(); i++) {
          SqlNode x = ops.get(i);
          if (x == null) {
            continue;
          }
          SqlNode b = chainRoot(x);
          if (b != x) {
            try {
              call.setOperand(i, b);
            } catch (UnsupportedOperationException | AssertionError e) {
              b = x; // a call that cannot take a new operand keeps the chain
            }
          }
          todo.push(b);
        }
      }
    }
    return top;
  }

  /** A balanced replacement when {@code n} heads a long AND/OR chain, else {@code n}. */
  private static SqlNode chainRoot(SqlNode n) {
    if (!(n instanceof SqlBasicCall call) || !isChainOperator(call.getOperator())) {
      return n;
    }
    SqlOperator op = call.getOperator();
    List<SqlNode> terms = new ArrayList<>();
    Deque<SqlNode> stack = new ArrayDeque<>();
    stack.push(n);
    while (!stack.isEmpty()) {
      SqlNode x = stack.pop();
      if (x instanceof SqlBasicCall c && c.getOperator() == op && c.operandCount() == 2) {
        stack.push(c.operand(1)); // right popped after left: terms stay in order
        stack.push(c.operand(0));
      } else {
        terms.add(x);
      }
    }
    if (terms.size() <= 8) {
      return n;
    }
    return balanced(op, terms, 0, terms.size(), call.getParserPosition());
  }

  private static boolean isChainOperator(SqlOperator op) {
    return op.getKind() == SqlKind.AND || op.getKind() == SqlKind.OR;
  }

  private static SqlNode balanced(SqlOperator op, List<SqlNode> terms, int from, int to,
      SqlParserPos pos) {
    if (to - from == 1) {
      return terms.get(from);
    }
    int mid = (from + to) >>> 1;
    return op.createCall(pos, balanced(op, terms, from, mid, pos),
        balanced(op, terms, mid, to, pos));
  }
}
