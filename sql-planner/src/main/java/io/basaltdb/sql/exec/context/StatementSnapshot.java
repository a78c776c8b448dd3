package io.basaltdb.sql.exec.context;

import io.basaltdb.storage.ReadSnapshot;
import io.basaltdb.storage.Storage;
import org.apache.calcite.DataContext;

/**
 * One execution's consistent cut of the database: every table, index and region the statement
 * reads is read at one engine snapshot ({@link ReadSnapshot}), taken at its first read, so a
 * row and its index entries, or a row an UPDATE moved from one region to another, are seen as
 * of one instant (read-your-writes holds: a write acknowledged before the statement is below
 * the point). Writes read what they change under the row's lock, at its newest. The snapshot
 * is released when the execution's rows are read to their end or its enumerator is closed
 * (the JDBC layer's statement watch calls {@link #release}), or, for a result set dropped unclosed, when the garbage collector finds it
 * unreachable. Found in the execution's data context; an execution without one, or over a
 * storage that keeps no snapshots (HBase), reads each region at its own read point, each row
 * atomically. Thread-safe (parallel region scans share it).
 */
public final class StatementSnapshot {
  /** The data context variable holding an execution's {@code StatementSnapshot}. */
  public static final String VARIABLE = "basaltSnapshot";

  /** Closes the snapshot of an execution whose result set was dropped without being closed. */
  private static final java.lang.ref.Cleaner CLEANER = java.lang.ref.Cleaner.create();

  private Storage db;
  private ReadSnapshot snapshot;
  private java.lang.ref.Cleaner.Cleanable cleanable;

  /** The snapshot of the execution behind {@code ctx} in {@code db}, or null: none. */
  public static ReadSnapshot of(DataContext ctx, Storage db) {
    return ctx != null && ctx.get(VARIABLE) instanceof StatementSnapshot s ? s.get(db) : null;
  }

  /**
   * The snapshot the reads of the execution behind {@code ctx} in {@code db} are made at, if
   * one was taken or given ({@link #readAt}), else null, taking none: a statement whose only
   * read is one get needs no cut, but reads at the one it was given.
   */
  public static ReadSnapshot held(DataContext ctx, Storage db) {
    return ctx != null && ctx.get(VARIABLE) instanceof StatementSnapshot s ? s.held(db) : null;
  }

  private synchronized ReadSnapshot held(Storage db) {
    return this.db == db ? snapshot : null;
  }

  /**
   * From now on the execution behind {@code ctx} reads {@code db} at {@code snapshot} (a
   * transaction's: an auto-commit write reads the rows it changes at the cut its transaction
   * checks conflicts from), which it closes with the execution; any snapshot it held is
   * released first. Without a statement snapshot in {@code ctx}, {@code snapshot} is closed.
   */
  public static void readAt(DataContext ctx, Storage db, ReadSnapshot snapshot) {
    if (ctx != null && ctx.get(VARIABLE) instanceof StatementSnapshot s) {
      s.release();
      s.set(db, snapshot);
    } else {
      snapshot.close();
    }
  }

  private synchronized void set(Storage db, ReadSnapshot snapshot) {
    this.db = db;
    this.snapshot = snapshot;
    cleanable = CLEANER.register(this, snapshot::close);
  }

  private synchronized ReadSnapshot get(Storage db) {
    if (this.db == null) {
      this.db = db;
      snapshot = db.snapshot(); // null from a storage that keeps no cuts: each row read alone
      if (snapshot != null) {
        cleanable = CLEANER.register(this, snapshot::close); // holds no reference to this
      }
    } else if (this.db != db) {
      return null; // a statement over two storages (not made by Basalt's schemas): per region
    }
    return snapshot;
  }

  /** Releases the snapshot of the execution behind {@code ctx}, if it has one. */
  public static void releaseOf(DataContext ctx) {
    if (ctx != null && ctx.get(VARIABLE) instanceof StatementSnapshot s) {
      s.release();
    }
  }

  /** Releases the snapshot; a later read of the execution takes a new one. */
  public synchronized void release() {
    if (cleanable != null) {
      cleanable.clean(); // closes the snapshot, once
    }
    snapshot = null;
    cleanable = null;
    db = null;
  }
}
