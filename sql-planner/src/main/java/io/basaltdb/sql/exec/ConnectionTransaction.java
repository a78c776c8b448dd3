package io.basaltdb.sql.exec;

import io.basaltdb.sql.SqlStateException;
import io.basaltdb.sql.SqlStates;
import io.basaltdb.sql.catalog.SqlIndexDef;
import io.basaltdb.sql.exec.context.ConnectionSettings;
import io.basaltdb.sql.index.IndexListLease;
import io.basaltdb.sql.index.IndexRegistry;
import io.basaltdb.storage.Storage;
import io.basaltdb.storage.StorageTransaction;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.DataContext;
import org.apache.calcite.jdbc.CalciteConnection;

/**
 * The open transaction of a connection with auto-commit off ({@link StorageTransaction}: the
 * embedded engine's {@code Transaction}, or over HBase one kept in the client,
 * {@code engine.ClientTransaction}; design in doc/transactions.md).
 * Begun by the connection's first statement that reads or writes a table (or a savepoint),
 * at the connection's isolation level then; ended by commit or rollback, which the next
 * statement follows with a new one. Every execution of the connection reads and writes through
 * it ({@link #storage}); each write statement is atomic within it ({@link #statement}: a
 * failing one leaves nothing behind, the transaction goes on); savepoints are marks of it.
 *
 * <p>Lives on the connection (its properties, under the key {@code ConnectionTransaction.class},
 * never a property name a client could send), so it goes away with the connection. Used by the
 * connection's one thread at a time.
 */
public final class ConnectionTransaction {
  private final Storage base;
  private StorageTransaction tx;
  /** Open savepoints, oldest first. */
  private final List<Savepoint> savepoints = new ArrayList<>();
  /** Each table the transaction wrote, with its indexes when it first wrote it. */
  private final java.util.TreeMap<io.basaltdb.storage.TableName, List<SqlIndexDef>> indexed =
      new java.util.TreeMap<>(); // in TableName order: the order commits lock their indexes in
  private int unnamed;
  /** The execution that last read or wrote: another one is a new statement. */
  private java.lang.ref.WeakReference<DataContext> lastExecution;

  private record Savepoint(String name, int mark) {}

  private ConnectionTransaction(Storage base) {
    this.base = base;
  }

  /**
   * What the execution behind {@code ctx} reads and writes: its connection's transaction when
   * auto-commit is off, else {@code db} itself.
   */
  public static Storage storage(DataContext ctx, Storage db) {
    if (db.inTransaction() || ctx == null
        || !(ctx.getQueryProvider() instanceof CalciteConnection c)) {
      return db;
    }
    try {
      if (c.getAutoCommit()) {
        return db;
      }
    } catch (SQLException e) {
      return db; // a closed connection: its statement fails anyway
    }
    ConnectionTransaction t = of(c, db);
    StorageTransaction tx = t == null ? null : t.begin(c);
    if (tx == null) {
      return db;
    }
    if (t.lastExecution == null || t.lastExecution.get() != ctx) {
      t.lastExecution = new java.lang.ref.WeakReference<>(ctx); // a new statement's execution
      tx.nextStatement();
    }
    return tx;
  }

  /** The connection's transaction state over {@code db}, or null: another storage. */
  private static ConnectionTransaction of(CalciteConnection c, Storage db) {
    ConnectionTransaction t = existing(c); // a lookup first: no function made per statement
    if (t == null) {
      t = (ConnectionTransaction) c.getProperties()
          .computeIfAbsent(ConnectionTransaction.class, k -> new ConnectionTransaction(db));
    }
    return t.base == db ? t : null;
  }

  private static ConnectionTransaction existing(CalciteConnection c) {
    return (ConnectionTransaction) c.getProperties().get(ConnectionTransaction.class);
  }

  private StorageTransaction begin(CalciteConnection c) {
    if (tx == null) {
      tx = base.begin(isolation(c));
    }
    return tx;
  }

  /**
   * READ UNCOMMITTED and READ COMMITTED: a snapshot per statement; REPEATABLE READ: one per
   * transaction (snapshot isolation); SERIALIZABLE: that, and what it read checked at commit.
   */
  private static StorageTransaction.Isolation isolation(CalciteConnection c) {
    int level;
    try {
      level = c.getTransactionIsolation();
    } catch (SQLException e) {
      level = Connection.TRANSACTION_REPEATABLE_READ;
    }
    return switch (level) {
      case Connection.TRANSACTION_READ_COMMITTED, Connection.TRANSACTION_READ_UNCOMMITTED ->
          StorageTransaction.Isolation.READ_COMMITTED;
      case Connection.TRANSACTION_SERIALIZABLE -> StorageTransaction.Isolation.SERIALIZABLE;
      default -> StorageTransaction.Isolation.SNAPSHOT;
    };
  }

  /**
   * Runs one write statement in {@code tx}: its writes are kept only if it succeeds (a
   * duplicate key, constraint or type error undoes what it wrote and propagates; the
   * transaction goes on), except that writes past the transaction's bound ({@link
   * StorageTransaction#MAX_PENDING_BYTES}, 53200) roll the whole transaction back.
   */
  public static long statement(StorageTransaction tx, DataContext ctx, io.basaltdb.storage.TableName table,
      java.util.function.LongSupplier write) {
    if (ctx.getQueryProvider() instanceof CalciteConnection c && existing(c) != null) {
      existing(c).indexed.computeIfAbsent(table,
          t -> IndexRegistry.of(existing(c).base).of(t).list());
    }
    int mark = tx.mark();
    try {
      return write.getAsLong();
    } catch (io.basaltdb.storage.TransactionTooLargeException e) {
      if (ctx.getQueryProvider() instanceof CalciteConnection c) {
        rollback(c); // past the bound the transaction is rolled back whole (53200)
      }
      throw e;
    } catch (RuntimeException | Error e) {
      try {
        tx.rollbackTo(mark);
      } catch (RuntimeException f) {
        e.addSuppressed(f);
      }
      throw e;
    }
  }

  /**
   * Commits the connection's transaction at its durability (a conflict: 40001, nothing applied).
   * Either way the transaction ends.
   */
  public static void commit(CalciteConnection c) {
    ConnectionTransaction t = existing(c);
    if (t != null && t.tx != null) {
      StorageTransaction tx = t.tx;
      java.util.Map<io.basaltdb.storage.TableName, List<SqlIndexDef>> written =
          new java.util.TreeMap<>(t.indexed);
      t.end();
      t.commit(tx, written, ConnectionSettings.of(c).durability());
    }
  }

  /**
   * Commits {@code tx} while no index of a table it wrote appears or goes (each table's index
   * write lock held, tables in name order), unless one did since the transaction first wrote
   * the table: its rows carry no entries for a new index (or entries for a dropped one), so
   * the commit is refused (40001) and applies nothing. A transaction kept in the client (over
   * HBase) first writes the rows of each indexed table it wrote through the index protocol, as
   * auto-commit statements write them ({@link #writeIndexedRows}), then the rest; a failure
   * leaves the rows written before it (such a commit is row by row) and ends the transaction.
   */
  private void commit(StorageTransaction tx, java.util.Map<io.basaltdb.storage.TableName,
      List<SqlIndexDef>> written, io.basaltdb.storage.Durability durability) {
    List<java.util.concurrent.locks.Lock> locks = new ArrayList<>();
    java.util.Map<io.basaltdb.storage.TableName, IndexListLease> leases = new java.util.HashMap<>();
    try {
      for (var e : written.entrySet()) {
        java.util.concurrent.locks.Lock l = IndexRegistry.of(base).of(e.getKey()).writing();
        l.lock();
        locks.add(l);
        IndexListLease lease = IndexListLease.of(base, e.getKey());
        leases.put(e.getKey(), lease);
        if (!IndexListLease.sameForWriters(lease.list(), e.getValue())) {
          tx.rollback();
          throw new SqlStateException(SqlStates.SERIALIZATION_FAILURE,
              "the indexes of table " + e.getKey()
              + " changed (CREATE or DROP INDEX) while this transaction wrote it; nothing was"
              + " committed: run the transaction again");
        }
      }
      if (!tx.atomicCommit()) {
        try {
          for (var e : written.entrySet()) {
            if (!e.getValue().isEmpty()) {
              writeIndexedRows(tx, e.getKey(), leases.get(e.getKey()), durability);
            }
          }
          for (IndexListLease lease : leases.values()) {
            lease.confirm(); // the other tables' rows go now
          }
        } catch (RuntimeException e) {
          tx.rollback();
          throw e;
        }
      }
      tx.commit(durability);
    } finally {
      for (int i = locks.size() - 1; i >= 0; i--) {
        locks.get(i).unlock();
      }
    }
  }

  /**
   * Writes the rows {@code tx} wrote of {@code table} (with {@code indexes}) through the
   * client-side index protocol, batched: each row's own cells applied to the row as stored
   * then, the entries of its old values unverified and deleted, those of its new ones written
   * and verified. The transaction's own entries (verified ones its reads used) are dropped
   * unwritten: only the protocol's may reach the index tables.
   */
  private void writeIndexedRows(StorageTransaction tx, io.basaltdb.storage.TableName table,
      IndexListLease lease, io.basaltdb.storage.Durability durability) {
    List<SqlIndexDef> indexes = lease.list();
    List<StorageTransaction.OwnRow> rows = tx.takeRows(table);
    for (SqlIndexDef i : indexes) {
      tx.takeRows(i.engineTable());
    }
    io.basaltdb.sql.catalog.SqlTableDef def = new io.basaltdb.sql.catalog.SqlCatalog(base)
        .get(table);
    io.basaltdb.sql.index.IndexedRowWrite writer =
        new io.basaltdb.sql.index.IndexedRowWrite(base, def, indexes, -1);
    writer.beforeRows(lease::confirm); // refused (40001) should the list change meanwhile
    io.basaltdb.sql.index.IndexedBatch batch = writer.batch(false);
    for (StorageTransaction.OwnRow r : rows) {
      batch.add(r.row(), durability, writer.committing(r), () -> { });
    }
    batch.flush();
  }

  /** Drops the connection's transaction. */
  public static void rollback(CalciteConnection c) {
    ConnectionTransaction t = existing(c);
    if (t != null && t.tx != null) {
      StorageTransaction tx = t.tx;
      t.end();
      tx.rollback();
    }
  }

  private void end() {
    tx = null;
    lastExecution = null;
    savepoints.clear();
    indexed.clear();
  }

  /**
   * Sets a savepoint in the connection's transaction (begun now if need be); {@code name} null
   * for an unnamed one: returns its name. A name in use moves to here (as in the standard).
   */
  public static String setSavepoint(CalciteConnection c, Storage db, String name) {
    ConnectionTransaction t = inTransaction(c, db, "SAVEPOINT");
    String n = name != null ? name : "_unnamed_" + (++t.unnamed);
    t.savepoints.removeIf(s -> s.name().equals(n));
    t.savepoints.add(new Savepoint(n, t.tx.mark()));
    return n;
  }

  /** Undoes what was written after the savepoint, which stays; later savepoints go. */
  public static void rollbackTo(CalciteConnection c, Storage db, String name) {
    ConnectionTransaction t = inTransaction(c, db, "ROLLBACK TO SAVEPOINT");
    int i = t.find(name);
    t.tx.rollbackTo(t.savepoints.get(i).mark());
    t.savepoints.subList(i + 1, t.savepoints.size()).clear();
  }

  /** Forgets the savepoint and those set after it; the writes stay. */
  public static void release(CalciteConnection c, Storage db, String name) {
    ConnectionTransaction t = inTransaction(c, db, "RELEASE SAVEPOINT");
    int i = t.find(name);
    t.savepoints.subList(i, t.savepoints.size()).clear();
  }

  private int find(String name) {
    for (int i = savepoints.size() - 1; i >= 0; i--) {
      if (savepoints.get(i).name().equals(name)) {
        return i;
      }
    }
    throw new SqlStateException(SqlStates.INVALID_SAVEPOINT,
        "savepoint " + name + " does not exist in this"
        + " transaction");
  }

  private static ConnectionTransaction inTransaction(CalciteConnection c, Storage db,
      String what) {
    try {
      if (c.getAutoCommit()) {
        throw new SqlStateException(SqlStates.INVALID_SAVEPOINT,
            what + " needs a transaction: auto-commit is on");
      }
    } catch (SQLException e) {
      throw new SqlStateException(SqlStates.CONNECTION_DOES_NOT_EXIST, e.getMessage());
    }
    ConnectionTransaction t = of(c, db);
    if (t == null || t.begin(c) == null) {
      throw new UnsupportedOperationException(what + ": the storage at " + db.location()
          + " keeps no transactions (each row is written alone)");
    }
    return t;
  }
}
