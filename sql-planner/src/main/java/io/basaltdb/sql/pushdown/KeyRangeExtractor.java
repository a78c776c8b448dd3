package io.basaltdb.sql.pushdown;

import io.basaltdb.storage.CompareOperator;
import io.basaltdb.sql.catalog.SqlColumn;
import io.basaltdb.sql.catalog.SqlTableDef;
import io.basaltdb.sql.type.ColumnType;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlKind;

/**
 * Splits a filter (over a table's columns) into what the region scan can do and what Calcite
 * must still do, in the manner of Calcite's InnoDB adapter's index conditions:
 * <ol>
 *   <li>key conditions: equalities on a prefix of the key columns (an {@code IN} list or an
 *       {@code OR} of equalities fans out into several ranges), then at most one lower and one
 *       upper bound on the next key column ({@link KeyConditions});
 *   <li>engine filters: other comparisons of a column with a constant or parameter, IS [NOT]
 *       NULL, LIKE, and ORs of these ({@link PushedPredicate});
 *   <li>the residual: everything else, left to Calcite above the scan.
 * </ol>
 * Calcite's {@code SEARCH}/Sarg form (ranges and IN lists) is expanded first. Stateless.
 */
public final class KeyRangeExtractor {
  private KeyRangeExtractor() {}

  /**
   * The split of a filter; {@code pinned} are the conjuncts the key conditions' equalities
   * ({@code =}, {@code IN}) came from, exactly what those ranges hold (a NULL value pins no
   * row), where a range's bounds may let in what a comparison would not (NULLs in an index).
   */
  public record Analysis(KeyConditions keys, List<PushedPredicate> pushed,
      List<RexNode> residual, List<RexNode> pinned, Map<RexNode, PushedPredicate> pushedFrom) {
    /** The engine filter made of conjunct {@code c} (identity), or null. */
    public PushedPredicate pushedOf(RexNode c) {
      return pushedFrom.get(c);
    }
  }

  /**
   * The filters of {@code onTable} (split as {@code table}) that an index's equalities hold:
   * {@code onIndex} is the same conjuncts over the index's columns, position for position,
   * split as {@code index}; a conjunct its equalities came from gives the filter {@code table}
   * made of it (the same object).
   */
  public static List<PushedPredicate> held(Analysis table, List<RexNode> onTable,
      Analysis index, List<RexNode> onIndex) {
    List<PushedPredicate> out = new ArrayList<>();
    for (RexNode p : index.pinned()) {
      for (int i = 0; i < onIndex.size(); i++) {
        PushedPredicate f = onIndex.get(i) == p ? table.pushedOf(onTable.get(i)) : null;
        if (f != null) {
          out.add(f);
        }
      }
    }
    return out;
  }

  /** Splits {@code conjuncts} (input refs are table column indexes). */
  public static Analysis analyze(SqlTableDef def, List<RexNode> conjuncts) {
    Map<RexNode, Boolean> used = new IdentityHashMap<>();
    List<SqlColumn> keys = def.keyColumns();
    List<List<Operand>> equalities = new ArrayList<>();
    List<RexNode> pinnedBy = new ArrayList<>();
    long product = 1;
    for (SqlColumn col : keys) {
      RexNode source = null;
      List<Operand> values = null;
      for (RexNode c : conjuncts) {
        if (!used.containsKey(c)) {
          values = pinned(def, col, c);
          if (values != null) {
            source = c;
            break;
          }
        }
      }
      if (values == null || product * values.size() > KeyConditions.MAX_RANGES) {
        break;
      }
      product *= values.size();
      used.put(source, true);
      pinnedBy.add(source);
      equalities.add(values);
    }
    List<KeyConditions.Interval> intervals = new ArrayList<>();
    if (equalities.size() < keys.size()) {
      SqlColumn col = keys.get(equalities.size());
      KeyConditions.Interval and = andedBounds(def, col, conjuncts, used);
      if (and != null) {
        intervals.add(and);
      } else {
        for (RexNode c : conjuncts) {
          List<KeyConditions.Interval> or = c.getKind() == SqlKind.OR && !used.containsKey(c)
              ? disjointIntervals(def, col, c) : null;
          if (or != null) {
            intervals.addAll(or);
            used.put(c, true);
            break;
          }
        }
      }
      if (intervals.isEmpty()) {
        String prefix = likePrefix(def, col, conjuncts);
        if (prefix != null) {
          // LIKE 'abc%' scans ['abc', 'abd'); the LIKE itself stays, as an engine filter
          intervals.add(new KeyConditions.Interval(Operand.constant(col.type(), prefix), true,
              Operand.constant(col.type(), successor(prefix)), false));
        }
      }
    }
    KeyConditions kc = new KeyConditions(equalities, intervals);
    List<PushedPredicate> pushed = new ArrayList<>();
    Map<RexNode, PushedPredicate> pushedFrom = new IdentityHashMap<>();
    List<RexNode> residual = new ArrayList<>();
    for (RexNode c : conjuncts) {
      if (used.containsKey(c)) {
        continue;
      }
      PushedPredicate p = predicate(def, c);
      if (p != null) {
        pushed.add(p);
        pushedFrom.put(c, p);
      } else {
        residual.add(c);
      }
    }
    return new Analysis(kc, pushed, residual, pinnedBy, pushedFrom);
  }

  /**
   * For {@code $col LIKE 'abc%'} on a VARCHAR key column (a literal prefix, then only a
   * trailing {@code %}), the prefix; else null.
   */
  private static String likePrefix(SqlTableDef def, SqlColumn col, List<RexNode> conjuncts) {
    if (col.type() != ColumnType.VARCHAR) {
      return null;
    }
    for (RexNode c : conjuncts) {
      if (c.getKind() != SqlKind.LIKE || ((RexCall) c).getOperands().size() != 2
          || !isColumn(def, col, ((RexCall) c).getOperands().get(0))
          || !(((RexCall) c).getOperands().get(1) instanceof RexLiteral lit)) {
        continue;
      }
      String pattern = lit.getValueAs(String.class);
      if (pattern == null || !pattern.endsWith("%")) {
        continue;
      }
      String prefix = pattern.substring(0, pattern.length() - 1);
      if (!prefix.isEmpty() && !prefix.contains("%") && !prefix.contains("_")
          && !prefix.contains("\\") && successor(prefix) != null) {
        return prefix;
      }
    }
    return null;
  }

  /** The smallest string after every string starting with {@code prefix}, or null. */
  private static String successor(String prefix) {
    int last = prefix.codePointBefore(prefix.length());
    if (last >= Character.MAX_CODE_POINT || (last >= 0xD7FF && last < 0xE000)) {
      return null;
    }
    return prefix.substring(0, prefix.length() - Character.charCount(last))
        + Character.toString(last + 1);
  }

  /** One lower and one upper bound on {@code col} from the conjuncts (marked used), or null. */
  private static KeyConditions.Interval andedBounds(SqlTableDef def, SqlColumn col,
      List<RexNode> conjuncts, Map<RexNode, Boolean> used) {
    Bound lower = null;
    Bound upper = null;
    for (RexNode c : conjuncts) {
      if (used.containsKey(c)) {
        continue;
      }
      Bound b = bound(def, col, c);
      if (b != null && b.lower && lower == null) {
        lower = b;
        used.put(c, true);
      } else if (b != null && !b.lower && upper == null) {
        upper = b;
        used.put(c, true);
      }
    }
    if (lower == null && upper == null) {
      return null;
    }
    return new KeyConditions.Interval(lower == null ? null : lower.value,
        lower != null && lower.inclusive, upper == null ? null : upper.value,
        upper != null && upper.inclusive);
  }

  /**
   * For an OR whose every disjunct is an equality, a bound, or an AND of bounds on
   * {@code col}, its intervals (a multi-range scan); else null.
   */
  private static List<KeyConditions.Interval> disjointIntervals(SqlTableDef def, SqlColumn col,
      RexNode or) {
    List<KeyConditions.Interval> out = new ArrayList<>();
    for (RexNode d : ((RexCall) or).getOperands()) {
      List<Operand> eq = pinned(def, col, d);
      if (eq != null) {
        eq.forEach(v -> out.add(new KeyConditions.Interval(v, true, v, true)));
        continue;
      }
      List<RexNode> parts = RelOptUtil.conjunctions(d);
      KeyConditions.Interval i = andedBounds(def, col, parts, new IdentityHashMap<>());
      if (i == null || parts.size() > (i.lower() == null || i.upper() == null ? 1 : 2)) {
        return null; // something other than bounds on the column: not a pure range
      }
      out.add(i);
    }
    return out.size() > KeyConditions.MAX_RANGES ? null : out;
  }

  /** The filters as plain conjuncts: SEARCH (Sarg) expressions expanded, ANDs split. */
  public static List<RexNode> conjuncts(RexBuilder rb, RexNode filter) {
    return RelOptUtil.conjunctions(RexUtil.expandSearch(rb, null, filter));
  }

  /** The values a conjunct pins the column to ({@code =}, OR of {@code =}), or null. */
  private static List<Operand> pinned(SqlTableDef def, SqlColumn col, RexNode c) {
    if (c.getKind() == SqlKind.EQUALS) {
      Comparison cmp = comparison(c);
      Operand v = cmp == null || def.columns().get(cmp.column) != col ? null
          : Operand.of(cmp.value, col.type());
      return v == null ? null : List.of(v);
    }
    if (c.getKind() == SqlKind.OR) {
      List<Operand> all = new ArrayList<>();
      for (RexNode op : ((RexCall) c).getOperands()) {
        List<Operand> one = pinned(def, col, op);
        if (one == null) {
          return null;
        }
        all.addAll(one);
      }
      return all;
    }
    return null;
  }

  private static boolean isColumn(SqlTableDef def, SqlColumn col, RexNode n) {
    return n instanceof RexInputRef ref && def.columns().get(ref.getIndex()) == col;
  }

  private record Bound(Operand value, boolean lower, boolean inclusive) {}

  private static Bound bound(SqlTableDef def, SqlColumn col, RexNode c) {
    Comparison cmp = comparison(c);
    if (cmp == null || cmp.op == CompareOperator.EQUAL || cmp.op == CompareOperator.NOT_EQUAL
        || def.columns().get(cmp.column) != col) {
      return null;
    }
    Operand v = Operand.of(cmp.value, col.type());
    if (v == null) {
      return null;
    }
    boolean lower = cmp.op == CompareOperator.GREATER || cmp.op == CompareOperator.GREATER_OR_EQUAL;
    boolean inclusive = cmp.op == CompareOperator.GREATER_OR_EQUAL
        || cmp.op == CompareOperator.LESS_OR_EQUAL;
    return new Bound(v, lower, inclusive);
  }

  /** {@code column <op> value}, normalized so the column is on the left; or null. */
  private record Comparison(int column, CompareOperator op, RexNode value) {}

  private static Comparison comparison(RexNode c) {
    CompareOperator op = switch (c.getKind()) {
      case EQUALS -> CompareOperator.EQUAL;
      case NOT_EQUALS -> CompareOperator.NOT_EQUAL;
      case LESS_THAN -> CompareOperator.LESS;
      case LESS_THAN_OR_EQUAL -> CompareOperator.LESS_OR_EQUAL;
      case GREATER_THAN -> CompareOperator.GREATER;
      case GREATER_THAN_OR_EQUAL -> CompareOperator.GREATER_OR_EQUAL;
      default -> null;
    };
    if (op == null) {
      return null;
    }
    RexNode a = ((RexCall) c).getOperands().get(0);
    RexNode b = ((RexCall) c).getOperands().get(1);
    if (a instanceof RexInputRef ref) {
      return new Comparison(ref.getIndex(), op, b);
    }
    if (b instanceof RexInputRef ref) {
      return new Comparison(ref.getIndex(), flip(op), a);
    }
    return null;
  }

  private static CompareOperator flip(CompareOperator op) {
    return switch (op) {
      case LESS -> CompareOperator.GREATER;
      case LESS_OR_EQUAL -> CompareOperator.GREATER_OR_EQUAL;
      case GREATER -> CompareOperator.LESS;
      case GREATER_OR_EQUAL -> CompareOperator.LESS_OR_EQUAL;
      default -> op;
    };
  }

  /** The engine-filter form of a conjunct (or disjunct), or null when it has none. */
  static PushedPredicate predicate(SqlTableDef def, RexNode c) {
    Comparison cmp = comparison(c);
    if (cmp != null && cmp.value instanceof RexInputRef other) {
      ColumnType t = def.columns().get(cmp.column).type();
      return t == def.columns().get(other.getIndex()).type() && t != ColumnType.ARRAY
          && t != ColumnType.MAP // their cells' bytes do not order as their values
          ? new PushedPredicate.CompareColumns(cmp.column, cmp.op, other.getIndex()) : null;
    }
    if (cmp != null) {
      ColumnType t = def.columns().get(cmp.column).type();
      Operand v = Operand.of(cmp.value, t);
      return v == null ? null : new PushedPredicate.Compare(cmp.column, cmp.op, v);
    }
    switch (c.getKind()) {
      case IS_NULL, IS_NOT_NULL -> {
        RexNode a = ((RexCall) c).getOperands().get(0);
        if (a instanceof RexInputRef ref && !def.columns().get(ref.getIndex()).isKey()
            && def.columns().get(ref.getIndex()).type() != ColumnType.MAP) { // many cells
          return new PushedPredicate.IsNull(ref.getIndex(), c.getKind() == SqlKind.IS_NULL);
        }
        return null;
      }
      case LIKE -> {
        List<RexNode> ops = ((RexCall) c).getOperands();
        if (ops.size() == 2 && ops.get(0) instanceof RexInputRef ref
            && def.columns().get(ref.getIndex()).type().sqlType().getFamily()
                == org.apache.calcite.sql.type.SqlTypeFamily.CHARACTER) {
          Operand p = Operand.of(ops.get(1), ColumnType.VARCHAR);
          return p == null ? null : new PushedPredicate.Like(ref.getIndex(), p);
        }
        return null;
      }
      case OR -> {
        List<PushedPredicate> parts = new ArrayList<>();
        for (RexNode op : ((RexCall) c).getOperands()) {
          PushedPredicate p = predicate(def, op);
          if (p == null) {
            return null;
          }
          parts.add(p);
        }
        return new PushedPredicate.Or(List.copyOf(parts));
      }
      default -> {
        return null;
      }
    }
  }
}
