package io.basaltdb.sql.exec;

import io.basaltdb.engine.Storage;
import io.basaltdb.engine.InvalidArgumentException;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.DataContext;
import org.apache.calcite.jdbc.CalciteConnection;

/**
 * The writes of a connection with auto-commit off over a storage that keeps no transactions
 * (HBase; the embedded engine's are {@link ConnectionTransaction}), buffered in statement order until it
 * commits (then applied, each row atomically, and the log synced once) or rolls back (then
 * dropped). There is no transaction across rows, as in HBase and Phoenix: a commit that fails
 * on a row (a duplicate key) has applied the rows before it and drops the rest; plain puts go
 * in lists ({@link PutGroup}), so a storage failing in the middle of one list (an I/O error)
 * may have applied any of that list's rows, as a failed batch would. Reads do not
 * see the connection's own uncommitted writes. At most {@link #MAX_ROWS} row writes wait.
 *
 * <p>A connection's pending writes live on the connection itself, in its properties object
 * under the key {@code PendingWrites.class} (a class, never a property name a client could
 * send): they go away with the connection, and no process-wide map holds connections.
 */
public final class PendingWrites {
  public static final int MAX_ROWS = 1_000_000;

  private final Storage db;
  /** In statement order: {@link Runnable}s and {@link GroupedPut}s. */
  private final List<Object> actions = new ArrayList<>();
  /** The most puts one call applies at commit. */
  private static final int PUTS_PER_CALL = 1000;

  /**
   * Where buffered puts may be applied together: consecutive puts of one group (by equals) go
   * to {@link #putAll} as one list, in order (over HBase one call for many rows instead of a
   * round trip each).
   */
  interface PutGroup {
    /** Applies {@code puts} in order, or does nothing and says false: then each goes alone. */
    boolean putAll(List<io.basaltdb.engine.Put> puts);
  }

  private record GroupedPut(PutGroup group, io.basaltdb.engine.Put put, Runnable alone) {}

  private PendingWrites(Storage db) {
    this.db = db;
  }

  /** The open transaction of the connection behind {@code ctx}, or null in auto-commit. */
  static PendingWrites of(DataContext ctx, Storage db) {
    if (db.inTransaction() || ctx == null
        || !(ctx.getQueryProvider() instanceof CalciteConnection c)) {
      return null;
    }
    try {
      if (c.getAutoCommit()) {
        return null;
      }
    } catch (SQLException e) {
      return null;
    }
    return (PendingWrites) c.getProperties()
        .computeIfAbsent(PendingWrites.class, k -> new PendingWrites(db));
  }

  synchronized void add(Runnable action) {
    checkRoom();
    actions.add(action);
  }

  /** A put that may go with its neighbours of the same group; {@code alone} applies it by itself. */
  synchronized void addPut(PutGroup group, io.basaltdb.engine.Put put, Runnable alone) {
    checkRoom();
    actions.add(new GroupedPut(group, put, alone));
  }

  private void checkRoom() {
    if (actions.size() >= MAX_ROWS) {
      throw new InvalidArgumentException("more than " + MAX_ROWS + " row writes wait for "
          + "commit(): commit more often");
    }
  }

  /** Applies the connection's buffered writes in order (nothing when there are none). */
  public static void commit(CalciteConnection c) {
    PendingWrites p = (PendingWrites) c.getProperties().remove(PendingWrites.class);
    if (p == null) {
      return;
    }
    synchronized (p) {
      p.applyAll();
      if (!p.actions.isEmpty()) {
        WriteExecutor.syncLog(p.db, ConnectionSettings.of(c));
      }
    }
  }

  private void applyAll() {
    int i = 0;
    while (i < actions.size()) {
      if (!(actions.get(i) instanceof GroupedPut first)) {
        ((Runnable) actions.get(i++)).run();
        continue;
      }
      List<GroupedPut> run = new ArrayList<>();
      while (i < actions.size() && run.size() < PUTS_PER_CALL
          && actions.get(i) instanceof GroupedPut g && g.group().equals(first.group())) {
        run.add(g);
        i++;
      }
      List<io.basaltdb.engine.Put> puts = new ArrayList<>(run.size());
      run.forEach(g -> puts.add(g.put()));
      if (!first.group().putAll(puts)) {
        run.forEach(g -> g.alone().run());
      }
    }
  }

  /** Drops the connection's buffered writes. */
  public static void rollback(CalciteConnection c) {
    c.getProperties().remove(PendingWrites.class);
  }
}
