package io.basaltdb.sql.prepare;

import com.google.common.cache.Cache;
import com.google.common.cache.CacheBuilder;
import io.basaltdb.sql.PlannerStats;
import io.basaltdb.sql.catalog.CatalogVersion;
import io.basaltdb.storage.Storage;
import io.basaltdb.storage.TableName;
import java.lang.reflect.Type;
import java.util.List;
import java.util.Set;
import org.apache.calcite.jdbc.CalcitePrepare.CalciteSignature;

/**
 * The plans of one open database, shared by its connections (kept by the database,
 * {@link Storage#extension}: two databases never share a plan, and the plans go with the
 * database). Least recently used out past its capacity ({@link #DEFAULT_CAPACITY}, or the
 * connection property {@code planCacheSize} of a connection to it: the last one opened with
 * it sets it; 0 keeps none). Its capacity, size, hits and misses are the database's
 * {@link PlannerStats}, read as {@code INFORMATION_SCHEMA.PLAN_CACHE}. Thread-safe.
 */
public final class PlanCache {
  public static final int DEFAULT_CAPACITY = PlannerStats.DEFAULT_PLAN_CACHE_CAPACITY;

  /** What makes a plan reusable: same schema path, SQL text and shape (and catalog, below). */
  record Key(List<String> schemaPath, String sql, Type elementType, long maxRowCount,
      String dialect) {}

  /**
   * A plan, the catalog version it was made at, and the tables it reads or writes (null: it
   * may depend on anything in the catalog). It is reused at its version, or at a later one
   * reached only by changes of other tables ({@link CatalogVersion#changedTables}).
   */
  record Entry(CalciteSignature<?> plan, long version, Set<TableName> tables) {}

  // replaced whole when the capacity changes; Guava's cache: reads take no lock
  private volatile Cache<Key, Entry> plans = newPlans(DEFAULT_CAPACITY);
  private final PlannerStats stats;
  private volatile int capacity = DEFAULT_CAPACITY;

  private PlanCache(PlannerStats stats) {
    this.stats = stats;
    stats.planCache(capacity, this::size);
  }

  private static Cache<Key, Entry> newPlans(int capacity) {
    return CacheBuilder.newBuilder().maximumSize(capacity).build();
  }

  static PlanCache of(Storage db) {
    PlannerStats stats = PlannerStats.of(db); // first: extensions are not made inside another
    return db.extension(PlanCache.class, () -> new PlanCache(stats));
  }

  /** Whether the database keeps plans (its capacity is above 0). */
  public static boolean keepsPlans(Storage db) {
    return of(db).capacity > 0;
  }

  /** A plan reused without a lookup here (a connection's own recent one): counted a hit. */
  public static void countReuse(Storage db) {
    of(db).stats.planCacheHits.incrementAndGet();
  }

  /**
   * The plan for {@code key} usable at catalog version {@code version} of {@code db}, or null
   * (counted as a hit or a miss).
   */
  CalciteSignature<?> get(Storage db, Key key, long version) {
    Entry e = plans.getIfPresent(key);
    if (e != null && e.version != version) {
      Set<TableName> changed = e.tables == null ? null
          : CatalogVersion.changedTables(db, e.version, version);
      if (changed != null && java.util.Collections.disjoint(changed, e.tables)) {
        e = new Entry(e.plan, version, e.tables); // still good: known good at this version
        plans.put(key, e);
      } else {
        plans.invalidate(key);
        e = null;
      }
    }
    (e == null ? stats.planCacheMisses : stats.planCacheHits).incrementAndGet();
    return e == null ? null : e.plan;
  }

  /**
   * Keeps {@code plan}, made at catalog version {@code version} from the tables
   * {@link #PLAN_TABLES} in its internal parameters names (none named: it may depend on
   * anything).
   */
  void put(Key key, CalciteSignature<?> plan, long version) {
    if (capacity > 0) {
      Object tables = plan.internalParameters.get(PLAN_TABLES);
      plans.put(key, new Entry(plan, version, tables instanceof PlanTables t ? t.tables() : null));
    }
  }

  /** The internal parameter that names the tables a plan reads or writes. */
  static final String PLAN_TABLES = "basalt.planTables";

  /** The tables a plan reads or writes (its value of {@link #PLAN_TABLES}). */
  record PlanTables(Set<TableName> tables) {}

  /** Keeps at most {@code n} plans from now on (the most recently used are kept). */
  public static void setCapacity(Storage db, int n) {
    PlanCache c = of(db);
    synchronized (c) {
      if (n == c.capacity) {
        return;
      }
      Cache<Key, Entry> next = newPlans(n);
      if (n > 0) {
        next.putAll(c.plans.asMap());
      }
      c.capacity = n;
      c.plans = next;
      c.stats.planCache(n, c::size);
    }
  }

  /** The plans held (evictions due done first). */
  private int size() {
    Cache<Key, Entry> p = plans;
    p.cleanUp();
    return (int) p.size();
  }
}
