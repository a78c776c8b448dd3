package io.basaltdb.sql.catalog;

import io.basaltdb.storage.Get;
import io.basaltdb.storage.Increment;
import io.basaltdb.storage.Storage;
import io.basaltdb.storage.TableDescriptor;
import io.basaltdb.storage.TableName;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A counter per open storage (kept by it, {@link Storage#extension}) that moves on every SQL
 * DDL statement: cached plans made under an older version are not reused (their tables, columns
 * or views may have changed). A storage other processes change too
 * ({@link Storage#sharedByProcesses}, HBase) also keeps the count in a cell of its
 * {@code system:sql_catalog_version} table, incremented by every DDL and read at most once per
 * {@link #SHARED_READ_NANOS}: another process's DDL is seen within that time.
 */
public final class CatalogVersion {
  static final TableName SHARED_TABLE =
      new TableName(SqlCatalog.SYSTEM_NAMESPACE, "sql_catalog_version");
  static final long SHARED_READ_NANOS = 1_000_000_000L;
  private static final byte[] ROW = {'v'};
  private static final byte[] FAMILY = {'d'};
  private static final byte[] QUALIFIER = {'n'};

  /** The counter's type, a key no other layer uses. */
  private static final class Counter extends AtomicLong {
    private static final long serialVersionUID = 1L;
  }

  /** The shared count as last read, and when. */
  private static final class Shared {
    volatile boolean tableReady;
    volatile long value;
    volatile boolean read;
    volatile long readAt;
  }

  private CatalogVersion() {}

  private static AtomicLong of(Storage db) {
    return db.extension(Counter.class, Counter::new);
  }

  public static long current(Storage db) {
    long local = of(db).get();
    if (!db.sharedByProcesses()) {
      return local;
    }
    Shared s = db.extension(Shared.class, Shared::new);
    long now = System.nanoTime();
    if (!s.read || now - s.readAt >= SHARED_READ_NANOS) {
      ready(db, s);
      byte[] v = db.table(SHARED_TABLE).get(new Get(ROW)).getValue(FAMILY, QUALIFIER);
      s.value = v == null ? 0 : Increment.toLong(v);
      s.readAt = now;
      s.read = true;
    }
    return local + s.value; // moves when either moves: a change detector, not a count
  }

  public static void bump(Storage db) {
    of(db).incrementAndGet();
    if (db.sharedByProcesses()) {
      Shared s = db.extension(Shared.class, Shared::new);
      ready(db, s);
      s.value = db.table(SHARED_TABLE).incrementColumnValue(ROW, FAMILY, QUALIFIER, 1);
      s.readAt = System.nanoTime();
      s.read = true;
    }
  }

  private static void ready(Storage db, Shared s) {
    if (!s.tableReady) {
      new SqlCatalog(db); // makes the system namespace
      if (!db.admin().tableExists(SHARED_TABLE)) {
        SqlCatalog.createRacing(db, TableDescriptor.of(SHARED_TABLE.toString(), "d"));
      }
      s.tableReady = true;
    }
  }
}
