package io.basaltdb.sql.exec;

import io.basaltdb.sql.catalog.ForeignKeys;
import io.basaltdb.sql.catalog.SqlTableDef;
import io.basaltdb.sql.exec.context.ConnectionSettings;
import io.basaltdb.sql.exec.context.StatementSnapshot;
import io.basaltdb.sql.exec.write.WriteExecutor;
import io.basaltdb.sql.index.IndexRegistry;
import io.basaltdb.sql.pushdown.WriteSpec;
import io.basaltdb.storage.Storage;
import io.basaltdb.storage.StorageTransaction;
import io.basaltdb.storage.TableName;
import io.basaltdb.storage.TransactionTooLargeException;
import io.basaltdb.storage.WriteConflictException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import org.apache.calcite.DataContext;
import org.apache.calcite.linq4j.AbstractEnumerable;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Enumerator;

/**
 * An auto-commit write statement, all or nothing (as in H2, PostgreSQL, MySQL): a statement
 * that writes more than one row runs as a transaction of its own over a storage that keeps
 * transactions (embedded), so a duplicate key, constraint or type error at any row, or a
 * failure computing one, leaves none of its rows behind. An INSERT or UPSERT of one row is
 * written directly, as before: one row with its index entries is one engine write already;
 * but not on a table at either end of an enforced foreign key, whose checks and actions on
 * other rows commit with the row (doc/foreign-keys.md). The first two input rows are read
 * before anything is written, to tell the two apart.
 *
 * <p>An UPDATE or DELETE writes rows it read, whatever their number: its transaction begins
 * before it reads them, and it reads them at the transaction's cut
 * ({@link StatementSnapshot#readAt}), the cut its commit checks the rows were not written
 * since. So a writer that commits one of them between this statement's read and its commit
 * makes it run again, and no update is lost (a statement that read {@code n = 5} and writes
 * {@code 6} while another wrote {@code 6} meanwhile). Read first and begun after, as an
 * UPDATE of one row written directly was, it lost such updates (found in session 20: three
 * connections adding 1 by key 150 times each left 162 of 450; H2 450).
 *
 * <p>A commit refused because another writer wrote one of the statement's rows since its
 * transaction began (40001) applied nothing, so the statement runs again with a new snapshot
 * (its input is read again), up to {@link #ATTEMPTS} times, then the 40001 is the statement's.
 * Retrying optimistically alone starves: a writer that loops commits with an fsync in flight
 * most of the time, and a statement that reads meanwhile meets it again at every try. So each
 * auto-commit statement holds its table's statement lock, shared, from its first read to its
 * commit, and a statement run again after a conflict holds it exclusively: the others' commits
 * end before it reads, and none begins until it commits (explicit transactions take no such
 * lock: their conflicts are their callers' 40001).
 * A statement whose writes pass the transaction bound ({@link
 * StorageTransaction#MAX_PENDING_BYTES}) is run again row by row, as before (not atomic;
 * documented in doc/transactions.md). Over HBase (no atomic commit) every statement is written
 * row by row. An INSERT or UPSERT of several rows into a table without indexes or enforced
 * foreign keys needs no transaction: it reads nothing but its own keys, so its rows are held
 * and written as one atomic write whose checks under the rows' locks refuse a stored key
 * ({@link WriteExecutor#writingAtomically}).
 * Holds no state.
 */
final class StatementTransaction {
  /** How many times a statement whose commit met a conflict is run. */
  static final int ATTEMPTS = 10;

  private StatementTransaction() {}

  /** Writes {@code rows} in auto-commit, atomically when more than one: the update count. */
  static long run(Storage db, SqlTableDef def, WriteSpec spec, DataContext root,
      Enumerable<?> rows) {
    if (!db.keepsTransactions() || spec.counterKey() != null) { // a counter: one row by key
      return new WriteExecutor(db, def, spec, root).run(rows);
    }
    boolean rewrites = spec.kind() == WriteSpec.Kind.UPDATE
        || spec.kind() == WriteSpec.Kind.DELETE;
    ReadWriteLock statements = db.extension(Locks.class, Locks::new).of(def.table());
    for (int attempt = 1; ; attempt++) {
      Lock statement = attempt == 1 ? statements.readLock() : statements.writeLock();
      statement.lock(); // before the first read: an exclusive holder's snapshot follows it
      try {
        Lock writing = null;
        StorageTransaction tx = null;
        Peeked peeked = null;
        boolean tooLarge = false;
        try {
          if (!rewrites) { // an INSERT or UPSERT of one row is written directly
            peeked = Peeked.of(rows);
            if (peeked.head.size() < 2 && !ForeignKeys.enforcedAt(db, def)) {
              return new WriteExecutor(db, def, spec, root).run(peeked);
            }
          }
          writing = IndexRegistry.of(db).of(def.table()).writing();
          writing.lock(); // no index appears or goes between the rows' writes and their commit
          if (!rewrites && WriteExecutor.writesAtomically(db, def, spec)) {
            return new WriteExecutor(db, def, spec, root).writingAtomically().run(peeked);
          }
          tx = db.begin(StorageTransaction.Isolation.READ_COMMITTED);
          if (rewrites) { // its rows read at its transaction's cut, once it has begun
            StatementSnapshot.readAt(root, db, tx.snapshot());
            peeked = Peeked.of(rows);
          }
          long count = new WriteExecutor(tx, def, spec, root).run(peeked);
          tx.commit(ConnectionSettings.of(root).durability());
          return count;
        } catch (WriteConflictException e) {
          if (attempt >= ATTEMPTS) {
            throw e;
          }
          StatementSnapshot.releaseOf(root); // the input is read again at a new snapshot
        } catch (TransactionTooLargeException e) {
          tooLarge = true;
        } finally {
          if (tx != null) {
            tx.rollback(); // nothing if committed
          }
          if (peeked != null) {
            peeked.close();
          }
          if (writing != null) {
            writing.unlock();
          }
        }
        if (tooLarge) {
          return new WriteExecutor(db, def, spec, root).run(rows); // same snapshot: same rows
        }
      } finally {
        statement.unlock();
      }
    }
  }

  /** Each table's statement lock, one set per storage (tables dropped keep an idle lock). */
  static final class Locks {
    private final ConcurrentHashMap<TableName, ReadWriteLock> byTable = new ConcurrentHashMap<>();

    ReadWriteLock of(TableName table) {
      return byTable.computeIfAbsent(table, t -> new ReentrantReadWriteLock());
    }
  }

  /**
   * An input whose first two rows were read (a failure computing them is thrown before any
   * write), then the rest from the same enumerator; enumerated once.
   */
  private static final class Peeked extends AbstractEnumerable<Object> {
    final List<Object> head = new ArrayList<>(2);
    private final Enumerator<?> in;
    private boolean taken;

    private Peeked(Enumerator<?> in) {
      this.in = in;
    }

    static Peeked of(Enumerable<?> rows) {
      Peeked p = new Peeked(rows.enumerator());
      try {
        while (p.head.size() < 2 && p.in.moveNext()) {
          p.head.add(p.in.current());
        }
      } catch (RuntimeException | Error e) {
        p.close();
        throw e;
      }
      return p;
    }

    void close() {
      in.close();
    }

    @Override
    public Enumerator<Object> enumerator() {
      if (taken) {
        throw new IllegalStateException("a statement's input is enumerated once");
      }
      taken = true;
      return new Enumerator<>() {
        private int i = -1;
        private Object current;
        private boolean tail;

        @Override
        public Object current() {
          return current;
        }

        @Override
        public boolean moveNext() {
          if (!tail && ++i < head.size()) {
            current = head.get(i);
            return true;
          }
          if (head.size() < 2) {
            return false; // the input ended within the rows read ahead
          }
          tail = true;
          if (in.moveNext()) {
            current = in.current();
            return true;
          }
          return false;
        }

        @Override
        public void reset() {
          throw new UnsupportedOperationException();
        }

        @Override
        public void close() {
          in.close();
        }
      };
    }
  }
}
