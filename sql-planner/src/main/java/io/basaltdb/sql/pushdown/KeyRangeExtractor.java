package io.basaltdb.sql.pushdown;

import io.basaltdb.sql.catalog.SqlColumn;
import io.basaltdb.sql.catalog.SqlTableDef;

import io.basaltdb.sql.type.RowKeyCodec;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlKind;

/**
 * Turns the conjuncts of a filter into row-key ranges, in the manner of Calcite's InnoDB
 * adapter's index conditions: equalities on a prefix of the key columns (an {@code IN} list or
 * {@code OR} of equalities on one of them fans out into several ranges), then at most one range
 * predicate, or a {@code LIKE 'prefix%'}, on the next key column. What it cannot use is simply left to Calcite, which
 * evaluates every filter again above the scan, so a range is only ever a narrowing. Salted
 * tables are scanned whole (their ranges are per bucket; the Basalt convention will do that).
 * Stateless.
 */
public final class KeyRangeExtractor {
  private static final int MAX_RANGES = 1000;

  private KeyRangeExtractor() {}

  /** The ranges to scan for {@code conjuncts}, or a single {@link KeyRange#ALL}. */
  public static List<KeyRange> ranges(SqlTableDef def, List<RexNode> conjuncts) {
    if (def.saltBuckets() > 0) {
      return List.of(KeyRange.ALL);
    }
    List<SqlColumn> keys = def.keyColumns();
    RowKeyCodec codec = def.keyCodec();
    List<List<Object>> prefixes = new ArrayList<>();
    prefixes.add(new ArrayList<>());
    int k = 0;
    for (; k < keys.size(); k++) {
      List<Object> values = equalities(def, keys.get(k), conjuncts);
      if (values == null) {
        break;
      }
      List<List<Object>> next = new ArrayList<>();
      for (List<Object> p : prefixes) {
        for (Object v : values) {
          List<Object> q = new ArrayList<>(p);
          q.add(v);
          next.add(q);
        }
      }
      if (next.size() > MAX_RANGES) {
        break;
      }
      prefixes = next;
    }
    Bound lower = null; // bounds in byte order (a DESC column swaps value bounds)
    Bound upper = null;
    if (k < keys.size()) {
      SqlColumn col = keys.get(k);
      for (RexNode c : conjuncts) {
        Bound b = bound(def, col, c);
        if (b != null) {
          // on a DESC column, a lower value bound is an upper byte bound and vice versa
          if (b.lower != col.descending()) {
            lower = b;
          } else {
            upper = b;
          }
        }
      }
    }
    byte[] likePrefix = null;
    if (k < keys.size() && lower == null && upper == null) {
      likePrefix = likePrefix(def, keys.get(k), conjuncts);
    }
    if (k == 0 && lower == null && upper == null && likePrefix == null) {
      return List.of(KeyRange.ALL);
    }
    if (likePrefix != null) {
      List<KeyRange> out = new ArrayList<>();
      for (List<Object> p : prefixes) {
        byte[] start = codec.encodePrefixWithPartial(p.toArray(), likePrefix);
        out.add(new KeyRange(start, KeyRange.prefixEnd(start)));
      }
      out.sort((a, b) -> java.util.Arrays.compareUnsigned(a.start(), b.start()));
      return out;
    }
    List<KeyRange> out = new ArrayList<>();
    for (List<Object> p : prefixes) {
      byte[] base = codec.encodePrefix(p.toArray());
      byte[] start = base;
      byte[] stop = KeyRange.prefixEnd(base);
      if (lower != null) {
        byte[] b = codec.encodePrefix(append(p, lower.value));
        start = lower.inclusive ? b : KeyRange.prefixEnd(b);
      }
      if (upper != null) {
        byte[] b = codec.encodePrefix(append(p, upper.value));
        stop = upper.inclusive ? KeyRange.prefixEnd(b) : b;
      }
      KeyRange r = new KeyRange(start, stop);
      if (!r.isEmpty()) {
        out.add(r);
      }
    }
    out.sort((a, b) -> java.util.Arrays.compareUnsigned(a.start(), b.start()));
    return out;
  }

  private static Object[] append(List<Object> p, Object v) {
    Object[] a = p.toArray(new Object[p.size() + 1]);
    a[p.size()] = v;
    return a;
  }

  /** The values a conjunct pins the column to ({@code =}, {@code IN}, OR of {@code =}), or null. */
  private static List<Object> equalities(SqlTableDef def, SqlColumn col, List<RexNode> conjuncts) {
    for (RexNode c : conjuncts) {
      List<Object> vs = pinned(def, col, c);
      if (vs != null) {
        return vs;
      }
    }
    return null;
  }

  private static List<Object> pinned(SqlTableDef def, SqlColumn col, RexNode c) {
    if (c.getKind() == SqlKind.EQUALS) {
      Object v = literalFor(def, col, (RexCall) c);
      return v == null ? null : List.of(v);
    }
    if (c.getKind() == SqlKind.OR) {
      List<Object> all = new ArrayList<>();
      for (RexNode op : ((RexCall) c).getOperands()) {
        List<Object> one = pinned(def, col, op);
        if (one == null) {
          return null;
        }
        all.addAll(one);
      }
      return all;
    }
    return null;
  }

  /** For {@code $col = literal} (either side), the literal's key value; else null. */
  private static Object literalFor(SqlTableDef def, SqlColumn col, RexCall call) {
    RexNode a = call.getOperands().get(0);
    RexNode b = call.getOperands().get(1);
    if (isColumn(def, col, a) && b instanceof RexLiteral l) {
      return keyValue(l, col.type());
    }
    if (isColumn(def, col, b) && a instanceof RexLiteral l) {
      return keyValue(l, col.type());
    }
    return null;
  }

  private static boolean isColumn(SqlTableDef def, SqlColumn col, RexNode n) {
    return n instanceof RexInputRef ref && def.columns().get(ref.getIndex()) == col;
  }

  /**
   * For {@code $col LIKE 'abc%'} (a literal prefix, then only a trailing {@code %}, no escape),
   * the prefix's bytes; else null.
   */
  private static byte[] likePrefix(SqlTableDef def, SqlColumn col, List<RexNode> conjuncts) {
    if (col.type().keyType() != io.basaltdb.sql.type.KeyType.VARCHAR) {
      return null;
    }
    for (RexNode c : conjuncts) {
      if (c.getKind() != SqlKind.LIKE || ((RexCall) c).getOperands().size() != 2) {
        continue;
      }
      RexCall call = (RexCall) c;
      if (!isColumn(def, col, call.getOperands().get(0))
          || !(call.getOperands().get(1) instanceof RexLiteral lit)) {
        continue;
      }
      String pattern = lit.getValueAs(String.class);
      if (pattern == null || !pattern.endsWith("%")) {
        continue;
      }
      String prefix = pattern.substring(0, pattern.length() - 1);
      if (prefix.isEmpty() || prefix.contains("%") || prefix.contains("_")
          || prefix.contains("\\")) {
        continue;
      }
      return prefix.getBytes(java.nio.charset.StandardCharsets.UTF_8);
    }
    return null;
  }

  private record Bound(Object value, boolean lower, boolean inclusive) {}

  /** A literal as the key codec takes it for a column type, or null when it does not fit. */
  static Object keyValue(RexLiteral l, io.basaltdb.sql.type.ColumnType t) {
    if (l.isNull()) {
      return null;
    }
    try {
      return switch (t) {
        case BOOLEAN -> l.getValueAs(Boolean.class);
        case TINYINT -> l.getValueAs(Byte.class);
        case SMALLINT -> l.getValueAs(Short.class);
        case INTEGER, DATE, TIME -> l.getValueAs(Integer.class);
        case BIGINT, TIMESTAMP -> l.getValueAs(Long.class);
        case REAL -> l.getValueAs(Float.class);
        case DOUBLE -> l.getValueAs(Double.class);
        case DECIMAL -> l.getValueAs(java.math.BigDecimal.class);
        case CHAR, VARCHAR -> l.getValueAs(String.class);
        case BINARY, VARBINARY -> l.getValueAs(org.apache.calcite.avatica.util.ByteString.class)
            .getBytes();
      };
    } catch (RuntimeException e) {
      return null;
    }
  }

  /** The filters as plain conjuncts: SEARCH (Sarg) expressions expanded, ANDs split. */
  public static List<RexNode> conjuncts(List<RexNode> filters) {
    org.apache.calcite.rex.RexBuilder rb = new org.apache.calcite.rex.RexBuilder(
        new org.apache.calcite.jdbc.JavaTypeFactoryImpl());
    List<RexNode> out = new ArrayList<>();
    for (RexNode f : filters) {
      RexNode expanded = org.apache.calcite.rex.RexUtil.expandSearch(rb, null, f);
      out.addAll(org.apache.calcite.plan.RelOptUtil.conjunctions(expanded));
    }
    return out;
  }

  private static Bound bound(SqlTableDef def, SqlColumn col, RexNode c) {
    SqlKind kind = c.getKind();
    if (kind != SqlKind.GREATER_THAN && kind != SqlKind.GREATER_THAN_OR_EQUAL
        && kind != SqlKind.LESS_THAN && kind != SqlKind.LESS_THAN_OR_EQUAL) {
      return null;
    }
    RexCall call = (RexCall) c;
    RexNode a = call.getOperands().get(0);
    RexNode b = call.getOperands().get(1);
    boolean columnLeft;
    RexLiteral lit;
    if (isColumn(def, col, a) && b instanceof RexLiteral l) {
      columnLeft = true;
      lit = l;
    } else if (isColumn(def, col, b) && a instanceof RexLiteral l) {
      columnLeft = false;
      lit = l;
    } else {
      return null;
    }
    Object v = keyValue(lit, col.type());
    if (v == null) {
      return null;
    }
    boolean greater = kind == SqlKind.GREATER_THAN || kind == SqlKind.GREATER_THAN_OR_EQUAL;
    boolean inclusive = kind == SqlKind.GREATER_THAN_OR_EQUAL
        || kind == SqlKind.LESS_THAN_OR_EQUAL;
    boolean lower = columnLeft == greater; // col > v or v < col: a lower bound on col
    return new Bound(v, lower, inclusive);
  }
}
