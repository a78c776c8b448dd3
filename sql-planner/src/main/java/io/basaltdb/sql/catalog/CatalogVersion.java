package io.basaltdb.sql.catalog;

import io.basaltdb.storage.Get;
import io.basaltdb.storage.Increment;
import io.basaltdb.storage.Storage;
import io.basaltdb.storage.TableDescriptor;
import io.basaltdb.storage.TableName;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A counter per open storage (kept by it, {@link Storage#extension}) that moves on every SQL
 * DDL statement: cached plans made under an older version are not reused (their tables, columns
 * or views may have changed). A storage other processes change too
 * ({@link Storage#sharedByProcesses}, HBase) also keeps the count in a cell of its
 * {@code system:sql_catalog_version} table, incremented by every DDL and read at most once per
 * {@link #SHARED_READ_NANOS}: another process's DDL is seen within that time.
 *
 * <p>A move made for one table's change alone ({@link #bump(Storage, TableName)}: an index
 * created or dropped) is remembered with that table for the last {@link #SCOPES} moves, so a
 * plan of other tables made at an older version can still be used ({@link #changedTables});
 * every other move, or one another process made, may have changed anything.
 */
public final class CatalogVersion {
  /** Where processes sharing a storage count their catalog changes (read once a second). */
  public static final TableName SHARED_TABLE =
      new TableName(SqlCatalog.SYSTEM_NAMESPACE, "sql_catalog_version");
  static final long SHARED_READ_NANOS = 1_000_000_000L;
  private static final byte[] ROW = {'v'};
  private static final byte[] FAMILY = {'d'};
  private static final byte[] QUALIFIER = {'n'};

  /** How many of the latest moves are remembered with the table they were made for. */
  static final int SCOPES = 256;

  /**
   * The counter, and the table each of its latest moves was made for alone (null: anything);
   * moved and read under its lock, so a version read is never newer than its scope.
   */
  private static final class Counter extends AtomicLong {
    private static final long serialVersionUID = 1L;
    private final long[] versions = new long[SCOPES];
    private final TableName[] tables = new TableName[SCOPES];

    synchronized void move(TableName table) {
      long v = get() + 1;
      versions[(int) (v % SCOPES)] = v;
      tables[(int) (v % SCOPES)] = table;
      set(v);
    }

    synchronized Set<TableName> tablesBetween(long since, long now) {
      if (now - since > SCOPES || now > get()) {
        return null;
      }
      Set<TableName> changed = new HashSet<>();
      for (long v = since + 1; v <= now; v++) {
        int at = (int) (v % SCOPES);
        if (versions[at] != v || tables[at] == null) {
          return null;
        }
        changed.add(tables[at]);
      }
      return changed;
    }
  }

  /** The shared count as last read, and when (one object: the two are never mixed). */
  private static final class Shared {
    volatile boolean tableReady;
    volatile Reading last;
  }

  /**
   * A read of the version: its {@code value} ({@link #current}'s), and {@code readAt}, the
   * {@link System#nanoTime} just before the read of the shared count began (no other process's
   * DDL that moved the count later is in {@code value}).
   */
  public record Reading(long value, long readAt) {}

  private CatalogVersion() {}

  /**
   * How long a DDL must wait, on a storage other processes change too, after moving the shared
   * count: every other process's statements that start from then on see it (the interval of
   * their reads of the shared count, and as long again for statements planned just before
   * their read), and their writers have sent no row for an index list older than the DDL (a
   * list's lease, {@code IndexListLease}, is at most one such interval) and given those rows as
   * long again to land.
   */
  public static void awaitOtherProcesses(Storage db) {
    if (!db.sharedByProcesses()) {
      return;
    }
    try {
      Thread.sleep(2 * SHARED_READ_NANOS / 1_000_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new io.basaltdb.storage.BasaltException("interrupted while waiting for other"
          + " processes to see a DDL change");
    }
  }

  private static Counter of(Storage db) {
    return db.extension(Counter.class, Counter::new);
  }

  public static long current(Storage db) {
    return read(db, SHARED_READ_NANOS).value();
  }

  /**
   * The version ({@link #current}), the shared count read from the storage again if the last
   * read of it began {@code maxAgeNanos} or more ago. On a storage no other process changes,
   * {@code readAt} is now.
   */
  public static Reading read(Storage db, long maxAgeNanos) {
    long local = of(db).get();
    if (!db.sharedByProcesses()) {
      return new Reading(local, System.nanoTime());
    }
    Shared s = db.extension(Shared.class, Shared::new);
    long now = System.nanoTime();
    Reading last = s.last;
    if (last == null || now - last.readAt() >= maxAgeNanos) {
      ready(db, s);
      byte[] v = db.table(SHARED_TABLE).get(new Get(ROW)).getValue(FAMILY, QUALIFIER);
      last = new Reading(v == null ? 0 : Increment.toLong(v), now);
      s.last = last;
    }
    // moves when either moves: a change detector, not a count
    return new Reading(local + last.value(), last.readAt());
  }

  public static void bump(Storage db) {
    bump(db, null);
  }

  /**
   * Moves the version for a change of {@code table} alone (its indexes: no other table's
   * plans can depend on it), or of anything when {@code table} is null.
   */
  public static void bump(Storage db, TableName table) {
    of(db).move(db.sharedByProcesses() ? null : table);
    if (db.sharedByProcesses()) {
      Shared s = db.extension(Shared.class, Shared::new);
      ready(db, s);
      long at = System.nanoTime(); // before the increment: its value is no older
      s.last = new Reading(db.table(SHARED_TABLE).incrementColumnValue(ROW, FAMILY, QUALIFIER,
          1), at);
    }
  }

  /**
   * The tables whose changes alone moved the version from {@code since} to {@code now} (both
   * read from {@link #current}), or null when anything may have changed between them (another
   * DDL, another process's, or more moves than are remembered).
   */
  public static Set<TableName> changedTables(Storage db, long since, long now) {
    if (db.sharedByProcesses() || since > now) {
      return null;
    }
    return of(db).tablesBetween(since, now);
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
