package io.basaltdb.sql.catalog;

import io.basaltdb.engine.Storage;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A counter per open database (kept by the database, {@link Storage#extension}) that moves on
 * every SQL DDL statement: cached plans made under an older version are not reused (their
 * tables, columns or views may have changed).
 */
public final class CatalogVersion {
  /** The counter's type, a key no other layer uses. */
  private static final class Counter extends AtomicLong {
    private static final long serialVersionUID = 1L;
  }

  private CatalogVersion() {}

  private static AtomicLong of(Storage db) {
    return db.extension(Counter.class, Counter::new);
  }

  public static long current(Storage db) {
    return of(db).get();
  }

  public static void bump(Storage db) {
    of(db).incrementAndGet();
  }
}
