package io.basaltdb.sql.index;

import io.basaltdb.sql.SqlStateException;
import io.basaltdb.sql.SqlStates;
import io.basaltdb.sql.catalog.CatalogVersion;
import io.basaltdb.sql.catalog.SqlIndexDef;
import io.basaltdb.storage.Storage;
import io.basaltdb.storage.TableName;
import java.util.List;

/**
 * A write statement's index list of one table, and until when it may send rows written for
 * that list. On a storage other processes change too (HBase), their index DDL is not ordered
 * with this process's writes by a lock ({@link IndexRegistry}), so the list is leased: it holds
 * for {@link #LEASE_NANOS} from the start of the read of the shared catalog version it was
 * confirmed by ({@link CatalogVersion.Reading}). A DDL that moved the version after that read
 * began waits {@link CatalogVersion#awaitOtherProcesses} (longer than the lease) before its build
 * reads rows or its drop removes the index table, so a row sent within the lease and landing
 * before that wait ends is seen by the build. A writer renews the lease at its row boundaries
 * ({@link #due}, {@link #renew}: a changed list means new writers for the rows not yet sent) and
 * confirms it just before it sends rows ({@link #confirm}). On a storage of one process the
 * list never changes under a writer (it holds the table's lock) and the lease never ends; nor
 * does it inside a transaction, whose rows are sent by its commit (which leases the list anew
 * and refuses, 40001, a list changed since the transaction first wrote the table).
 *
 * <p>Invariant: {@link #list} is the catalog's list read after a version read that began at or
 * after {@code until - LEASE_NANOS}. Not thread-safe: one statement's.
 */
public final class IndexListLease {
  /** How long a list confirmed by a read of the shared catalog version may be written for. */
  public static final long LEASE_NANOS = 1_000_000_000L;
  /** How much of the lease a writer keeps in hand: it renews once less is left. */
  static final long RENEW_NANOS = 250_000_000L;

  private final Storage db;
  private final TableName table;
  private final boolean shared;
  private List<SqlIndexDef> list;
  /** The {@link System#nanoTime} at which the lease ends (shared storages only). */
  private long until;

  private IndexListLease(Storage db, TableName table) {
    this.db = db;
    this.table = table;
    // a transaction's writes are its own until its commit, which leases the list itself
    this.shared = db.sharedByProcesses() && !db.inTransaction();
    this.list = read();
  }

  /** The current list of {@code table}'s indexes, leased from now. */
  public static IndexListLease of(Storage db, TableName table) {
    return new IndexListLease(db, table);
  }

  /** The indexes rows are written for (BUILDING and ACTIVE). */
  public List<SqlIndexDef> list() {
    return list;
  }

  /** Whether the lease should be renewed before the next row ({@link #renew}). */
  public boolean due() {
    return shared && System.nanoTime() - (until - RENEW_NANOS) >= 0;
  }

  /**
   * Reads the list again, leased anew: the new list if it differs from the one held (another
   * process created or dropped an index; rows not yet sent must be written for it), else null.
   */
  public List<SqlIndexDef> renew() {
    List<SqlIndexDef> now = read();
    if (sameForWriters(now, list)) {
      return null;
    }
    list = now;
    return now;
  }

  /**
   * Whether writers keep the same entries for both lists: the same indexes, whatever their
   * state (BUILDING and ACTIVE are kept alike) and statistics.
   */
  public static boolean sameForWriters(List<SqlIndexDef> a, List<SqlIndexDef> b) {
    if (a.size() != b.size()) {
      return false;
    }
    for (int i = 0; i < a.size(); i++) {
      if (!asWritten(a.get(i)).equals(asWritten(b.get(i)))) {
        return false;
      }
    }
    return true;
  }

  private static SqlIndexDef asWritten(SqlIndexDef i) {
    return i.withState(SqlIndexDef.State.BUILDING).withStats(null);
  }

  /**
   * Just before rows written for {@link #list} are sent: renews a lease that ran out, and
   * refuses (40001) to send them when the list changed meanwhile (their entries would be those
   * of indexes gone, or lack a new one's).
   */
  public void confirm() {
    if (!shared || System.nanoTime() - until < 0) {
      return;
    }
    if (renew() != null) {
      throw new SqlStateException(SqlStates.SERIALIZATION_FAILURE, "the indexes of table "
          + table + " changed (CREATE or DROP INDEX by another process) while this statement"
          + " wrote it; its rows not yet sent were not written: run it again for them");
    }
  }

  private List<SqlIndexDef> read() {
    if (!shared) {
      return IndexRegistry.of(db).of(table).list();
    }
    CatalogVersion.Reading r = CatalogVersion.read(db, LEASE_NANOS - RENEW_NANOS);
    List<SqlIndexDef> now = IndexRegistry.of(db).of(table).list(); // at r's version or later
    until = r.readAt() + LEASE_NANOS;
    return now;
  }
}
