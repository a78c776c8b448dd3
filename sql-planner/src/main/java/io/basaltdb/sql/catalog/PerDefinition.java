package io.basaltdb.sql.catalog;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * What is derived from a table definition once per definition object (a definition is
 * immutable): a weak-keyed cache (identity; a definition no longer used may go) fronted by the
 * few definitions used last, found by identity without hashing. Statements on the same few
 * tables, the usual case, then look up their codec or cell names in a handful of comparisons
 * (the cache lookup was a measurable part of a point statement). Thread-safe.
 */
final class PerDefinition<V> {
  private static final int RECENT = 8;

  private record Pair<V>(SqlTableDef def, V value) {}

  private final com.google.common.cache.Cache<SqlTableDef, V> all =
      com.google.common.cache.CacheBuilder.newBuilder().weakKeys().build();
  @SuppressWarnings("unchecked")
  private final Pair<V>[] recent = new Pair[RECENT]; // racy reads see a whole pair or null
  private final AtomicInteger next = new AtomicInteger();
  private final Function<SqlTableDef, V> derive;

  PerDefinition(Function<SqlTableDef, V> derive) {
    this.derive = derive;
  }

  V of(SqlTableDef def) {
    for (Pair<V> p : recent) {
      if (p != null && p.def() == def) {
        return p.value();
      }
    }
    V v = all.getIfPresent(def);
    if (v == null) {
      v = derive.apply(def);
      all.put(def, v);
    }
    recent[Math.floorMod(next.getAndIncrement(), RECENT)] = new Pair<>(def, v);
    return v;
  }
}
