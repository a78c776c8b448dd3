package io.basaltdb.sql;

import io.basaltdb.engine.Database;
import java.lang.reflect.Type;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.calcite.jdbc.CalcitePrepare.CalciteSignature;

/**
 * The plans of one open database, shared by its connections (kept by the database,
 * {@link Database#extension}: two databases never share a plan, and the plans go with the
 * database). Least recently used out past {@link #SIZE} entries; hit and miss counts kept.
 * Thread-safe.
 */
final class PlanCache {
  static final int SIZE = 512;

  /** What makes a plan reusable: same catalog version, schema path, SQL text and shape. */
  record Key(long catalogVersion, List<String> schemaPath, String sql, Type elementType,
      long maxRowCount, String dialect) {}

  private final Map<Key, CalciteSignature<?>> plans =
      new LinkedHashMap<>(64, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Key, CalciteSignature<?>> e) {
          return size() > SIZE;
        }
      };
  private final AtomicLong hits = new AtomicLong();
  private final AtomicLong misses = new AtomicLong();

  static PlanCache of(Database db) {
    return db.extension(PlanCache.class, PlanCache::new);
  }

  /** The plan for {@code key}, or null (counted as a hit or a miss). */
  CalciteSignature<?> get(Key key) {
    CalciteSignature<?> plan;
    synchronized (plans) {
      plan = plans.get(key);
    }
    (plan == null ? misses : hits).incrementAndGet();
    return plan;
  }

  void put(Key key, CalciteSignature<?> plan) {
    synchronized (plans) {
      plans.put(key, plan);
    }
  }

  long hits() {
    return hits.get();
  }

  long misses() {
    return misses.get();
  }
}
