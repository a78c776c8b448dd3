package io.basaltdb.sql.catalog;

import io.basaltdb.engine.Database;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A counter per open database that moves on every SQL DDL statement: cached plans made under
 * an older version are not reused (their tables, columns or views may have changed).
 */
public final class CatalogVersion {
  private static final Map<Database, AtomicLong> VERSIONS = new WeakHashMap<>();

  private CatalogVersion() {}

  private static synchronized AtomicLong of(Database db) {
    return VERSIONS.computeIfAbsent(db, d -> new AtomicLong());
  }

  public static long current(Database db) {
    return of(db).get();
  }

  public static void bump(Database db) {
    of(db).incrementAndGet();
  }
}
