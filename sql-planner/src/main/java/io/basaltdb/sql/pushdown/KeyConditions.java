package io.basaltdb.sql.pushdown;

import io.basaltdb.sql.catalog.SqlColumn;
import io.basaltdb.sql.catalog.SqlTableDef;
import io.basaltdb.sql.type.RowKeyCodec;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.calcite.DataContext;

/**
 * The row-key part of a pushed-down filter, as planned: the values each leading key column is
 * pinned to ({@code =} or {@code IN}), then optionally intervals of the next key column (one
 * from {@code AND}ed bounds, or several from an {@code OR} of ranges: a multi-range scan).
 * {@link #bind} turns it into sorted, disjoint row-key ranges for one execution (parameters
 * bound), fanning a salted table's ranges out over its buckets. Every row in the ranges
 * satisfies the conditions and every row that satisfies them is in the ranges: the conjuncts
 * they came from need no further evaluation. Immutable.
 *
 * @param equalities per leading key column, the values it may take (one list per column)
 * @param intervals value intervals of key column {@code equalities.size()} (empty: any value)
 */
public record KeyConditions(List<List<Operand>> equalities, List<Interval> intervals) {
  /** Values between two bounds, either of which may be absent (null). */
  public record Interval(Operand lower, boolean lowerInclusive, Operand upper,
      boolean upperInclusive) {
    String describe(String column) {
      if (lower != null && upper != null && lowerInclusive && upperInclusive
          && lower.toString().equals(upper.toString())) {
        return column + " = " + lower;
      }
      List<String> parts = new ArrayList<>();
      if (lower != null) {
        parts.add(column + (lowerInclusive ? " >= " : " > ") + lower);
      }
      if (upper != null) {
        parts.add(column + (upperInclusive ? " <= " : " < ") + upper);
      }
      return String.join(" AND ", parts);
    }

    boolean hasParameter() {
      return (lower != null && lower.isParameter()) || (upper != null && upper.isParameter());
    }
  }

  /** Ranges beyond this many (the product of IN lists) are not expanded: a wider scan is used. */
  public static final int MAX_RANGES = 1000;

  public static final KeyConditions NONE = new KeyConditions(List.of(), List.of());

  public KeyConditions {
    equalities = List.copyOf(equalities);
    intervals = List.copyOf(intervals);
  }

  public boolean isNone() {
    return equalities.isEmpty() && intervals.isEmpty();
  }

  /** True when every key column is pinned to single values: the ranges are point gets. */
  public boolean isPointLookup(SqlTableDef def) {
    return equalities.size() == def.keyColumnCount();
  }

  /** How many ranges (points) the equalities expand to. */
  public long rangeCount() {
    long n = 1;
    for (List<Operand> e : equalities) {
      n *= e.size();
    }
    return n;
  }

  /** The sorted, disjoint ranges for one execution ({@code ctx} supplies parameters). */
  public List<KeyRange> bind(SqlTableDef def, DataContext ctx) {
    if (isNone()) {
      return saltAll(def, List.of(KeyRange.ALL));
    }
    if (intervals.isEmpty() && rangeCount() == 1 && isPointLookup(def)) {
      return onePoint(def, ctx);
    }
    List<SqlColumn> keys = def.keyColumns();
    List<Object[]> prefixes = new ArrayList<>();
    prefixes.add(new Object[0]);
    for (int k = 0; k < equalities.size(); k++) {
      List<Object[]> next = new ArrayList<>();
      for (Operand o : equalities.get(k)) {
        Object v = o.bind(ctx);
        if (v == null) {
          continue; // col = NULL holds for no row
        }
        Object kv = keys.get(k).type().toKey(v);
        for (Object[] p : prefixes) {
          Object[] q = Arrays.copyOf(p, p.length + 1);
          q[p.length] = kv;
          next.add(q);
        }
      }
      prefixes = next;
    }
    RowKeyCodec codec = def.keyCodec();
    boolean full = equalities.size() == keys.size();
    SqlColumn next = full ? null : keys.get(equalities.size());
    List<Object[]> bounds = new ArrayList<>(); // per interval: low, lowIncl, high, highIncl
    for (Interval i : intervals) {
      Object lowerValue = i.lower == null ? null : i.lower.bind(ctx);
      Object upperValue = i.upper == null ? null : i.upper.bind(ctx);
      if ((i.lower != null && lowerValue == null) || (i.upper != null && upperValue == null)) {
        continue; // a comparison with NULL holds for no row
      }
      // byte-order bounds: on a DESC column the value bounds swap ends
      boolean desc = next.descending();
      bounds.add(new Object[] {
          desc ? upperValue : lowerValue, desc ? i.upperInclusive : i.lowerInclusive,
          desc ? lowerValue : upperValue, desc ? i.lowerInclusive : i.upperInclusive});
    }
    if (!intervals.isEmpty() && bounds.isEmpty()) {
      return List.of();
    }
    if (bounds.isEmpty()) {
      bounds.add(new Object[] {null, false, null, false});
    }
    List<KeyRange> out = new ArrayList<>();
    for (Object[] p : prefixes) {
      byte[] base = codec.encodePrefix(p);
      for (Object[] bound : bounds) {
        byte[] start = base;
        byte[] stop = KeyRange.prefixEnd(base);
        if (bound[0] != null) {
          byte[] b = codec.encodePrefix(append(p, next.type().toKey(bound[0])));
          start = (Boolean) bound[1] ? b : KeyRange.prefixEnd(b);
        }
        if (bound[2] != null) {
          byte[] b = codec.encodePrefix(append(p, next.type().toKey(bound[2])));
          stop = (Boolean) bound[3] ? KeyRange.prefixEnd(b) : b;
        }
        KeyRange r = new KeyRange(start, stop);
        if (!r.isEmpty()) {
          out.add(r);
        }
      }
    }
    if (def.saltBuckets() > 0 && full) {
      List<KeyRange> salted = new ArrayList<>(); // a full key knows its bucket
      for (KeyRange r : out) {
        byte[] key = codec.salt(r.start());
        salted.add(new KeyRange(key, KeyRange.prefixEnd(key)));
      }
      return merge(salted);
    }
    return saltAll(def, merge(out));
  }

  /** {@link #bind} of one full key (each key column equal to one value): its one range. */
  private List<KeyRange> onePoint(SqlTableDef def, DataContext ctx) {
    byte[] key = pointKey(def, ctx);
    return key == null ? List.of() : List.of(new KeyRange(key, KeyRange.prefixEnd(key)));
  }

  /**
   * The row key of a point lookup of one full key (each key column equal to one value, no
   * interval) as stored (salted, if the table is), or null when a key value is NULL (no row).
   */
  public byte[] pointKey(SqlTableDef def, DataContext ctx) {
    List<SqlColumn> keys = def.keyColumns();
    Object[] values = new Object[equalities.size()];
    for (int k = 0; k < values.length; k++) {
      Object v = equalities.get(k).get(0).bind(ctx);
      if (v == null) {
        return null; // col = NULL holds for no row
      }
      values[k] = keys.get(k).type().toKey(v);
    }
    RowKeyCodec codec = def.keyCodec();
    byte[] key = codec.encodePrefix(values);
    return def.saltBuckets() > 0 ? codec.salt(key) : key; // a full key knows its bucket
  }

  private static Object[] append(Object[] p, Object v) {
    Object[] a = Arrays.copyOf(p, p.length + 1);
    a[p.length] = v;
    return a;
  }

  /**
   * Sorted by start, overlapping ranges joined. Touching ranges stay apart: point ranges of
   * adjacent keys remain one point each (a point lookup reads each range's start).
   */
  public static List<KeyRange> merge(List<KeyRange> ranges) {
    if (ranges.size() < 2) {
      return ranges; // a key range's usual case: nothing to sort or join
    }
    List<KeyRange> sorted = new ArrayList<>(ranges);
    sorted.sort((a, b) -> Arrays.compareUnsigned(a.start(), b.start()));
    List<KeyRange> out = new ArrayList<>();
    for (KeyRange r : sorted) {
      if (!out.isEmpty()) {
        KeyRange last = out.get(out.size() - 1);
        if (last.stop().length == 0 || Arrays.compareUnsigned(r.start(), last.stop()) < 0) {
          byte[] stop = last.stop().length == 0 || r.stop().length == 0 ? new byte[0]
              : Arrays.compareUnsigned(r.stop(), last.stop()) > 0 ? r.stop() : last.stop();
          out.set(out.size() - 1, new KeyRange(last.start(), stop));
          continue;
        }
      }
      out.add(r);
    }
    return out;
  }

  /** A salted table: each unsalted range once per bucket, bucket by bucket. */
  private static List<KeyRange> saltAll(SqlTableDef def, List<KeyRange> ranges) {
    int buckets = def.saltBuckets();
    if (buckets == 0) {
      return ranges;
    }
    List<KeyRange> out = new ArrayList<>();
    for (int b = 0; b < buckets; b++) {
      byte[] bucket = {(byte) b};
      for (KeyRange r : ranges) {
        byte[] stop = r.stop().length == 0 ? KeyRange.prefixEnd(bucket) : concat(bucket, r.stop());
        out.add(new KeyRange(concat(bucket, r.start()), stop));
      }
    }
    return out;
  }

  private static byte[] concat(byte[] a, byte[] b) {
    byte[] out = Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, out, a.length, b.length);
    return out;
  }

  /**
   * For EXPLAIN: the conditions with their values ({@code ?n} for parameters), and when no
   * parameter is involved the ranges' bytes in hex.
   */
  public String describe(SqlTableDef def) {
    if (isNone()) {
      return "ALL";
    }
    List<SqlColumn> keys = def.keyColumns();
    List<String> parts = new ArrayList<>();
    boolean params = false;
    for (int k = 0; k < equalities.size(); k++) {
      List<Operand> e = equalities.get(k);
      parts.add(keys.get(k).name() + (e.size() == 1 ? " = " + e.get(0) : " IN " + e));
      for (Operand o : e) {
        params |= o.isParameter();
      }
    }
    if (!intervals.isEmpty()) {
      String column = keys.get(equalities.size()).name();
      List<String> alternatives = new ArrayList<>();
      for (Interval i : intervals) {
        alternatives.add(i.describe(column));
        params |= i.hasParameter();
      }
      parts.add(alternatives.size() == 1 ? alternatives.get(0)
          : "(" + String.join(" OR ", alternatives) + ")");
    }
    String s = String.join(" AND ", parts);
    if (params) {
      return s;
    }
    List<KeyRange> ranges = bind(def, null);
    StringBuilder hex = new StringBuilder();
    int shown = Math.min(ranges.size(), 4);
    for (int i = 0; i < shown; i++) {
      hex.append(i == 0 ? "" : ", ").append(ranges.get(i));
    }
    if (ranges.size() > shown) {
      hex.append(", ... ").append(ranges.size() - shown).append(" more");
    }
    return s + " -> " + ranges.size() + (ranges.size() == 1 ? " range " : " ranges ") + hex;
  }
}
