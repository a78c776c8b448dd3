package io.basaltdb.sql.exec.write;

import io.basaltdb.sql.catalog.CellNames;
import io.basaltdb.sql.catalog.ColumnValues;
import io.basaltdb.sql.catalog.SqlIndexDef;
import io.basaltdb.sql.catalog.SqlTableDef;
import io.basaltdb.sql.exec.context.GeneratedKeys;
import io.basaltdb.sql.exec.context.ConnectionSettings;
import io.basaltdb.sql.exec.read.RowTimestamps;
import io.basaltdb.sql.index.IndexListLease;
import io.basaltdb.sql.index.IndexRegistry;
import io.basaltdb.sql.index.IndexedBatch;
import io.basaltdb.sql.index.IndexedRowWrite;
import io.basaltdb.sql.pushdown.Operand;
import io.basaltdb.sql.pushdown.WriteSpec;
import io.basaltdb.storage.CheckAndMutate;
import io.basaltdb.storage.Delete;
import io.basaltdb.storage.Durability;
import io.basaltdb.storage.Put;
import io.basaltdb.storage.RowMutations;
import io.basaltdb.storage.Storage;
import io.basaltdb.storage.Table;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.DataContext;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Enumerator;

/**
 * Applies a {@link WriteSpec} to the engine for one execution, row by row, each row atomically:
 * <ul>
 *   <li>INSERT: a check-and-put on the row's marker cell, so an existing key is refused
 *       (SQLState 23505) even against a concurrent insert;
 *   <li>UPSERT: one atomic row mutation: the named columns' values put, the named columns given
 *       NULL deleted, other columns untouched;
 *   <li>UPDATE: new values put; {@code col = col + n} is an atomic engine increment on a BIGINT
 *       column and a compare-and-set loop on other numeric columns, so concurrent updaters
 *       never lose an update (a NULL stays NULL, as {@code NULL + n} is NULL);
 *   <li>DELETE: a row delete.
 * </ul>
 * Writes go to the log without waiting; with SYNC durability the statement syncs the log once
 * at its end, before returning its count, so an acknowledged statement is durable. There is no
 * transaction across rows (as in HBase and Phoenix): a statement failing at its tenth row keeps
 * the nine before it, unless it writes them all as one ({@link #writingAtomically}, at the
 * statement's durability). Over HBase an INSERT's rows go in batched check-and-puts
 * ({@link InsertBatch}), which try every row: a duplicate key does not stop the others. A
 * statement of one row (looked ahead for) writes it SYNC instead, so when the log fails (a full
 * disk) that row is never seen: the engine removes a write whose own sync failed, while a row
 * written ASYNC is visible before the statement's closing sync.
 */
public final class WriteExecutor {
  private final Storage db;
  private final SqlTableDef def;
  private final WriteSpec spec;
  private final DataContext ctx;
  private final ConnectionSettings settings;
  private final Table table;
  private final CellNames names;
  private final byte[] markerFamily;
  /** The table's indexes, which every write maintains. */
  private final IndexRegistry.Indexes indexes;
  /** The index list this statement writes for, and until when it may ({@link #run}). */
  private IndexListLease lease;
  /** The rows written so far, but for those of the batches now in use. */
  private long count;
  /** This execution's writer of rows with index entries; null when the table has none. */
  private IndexedRowWrite indexed;
  /** The rows of an indexed table kept by the client-side protocol, written in batches. */
  private IndexedBatch indexedBatch;
  /** The row timestamp of the row written now (ROW_TIMESTAMP tables), else -1. */
  private long rowTs = -1;
  /** The durability of the mutations made now: SYNC for a statement's only row. */
  private Durability rowDurability = Durability.ASYNC;
  /** Refuses rows that would leave a NOT NULL column without a value. */
  private final NotNullCheck notNull;
  /** The mutations of the row written now. */
  private final RowPuts puts;
  /** What a row written from its current values becomes. */
  private final RowChanges changes;
  /** Where the written rows' generated keys go, when the statement asked for them. */
  private final GeneratedKeys keys;
  /** The enforced foreign keys at either end of the table, or null. */
  private final ForeignKeyChecks foreignKeys;
  /** The rows held to be written as one at the end ({@link #writingAtomically}), or null. */
  private AtomicStatementWrite atomicWrite;
  /** An INSERT's rows sent in batched check-and-puts ({@link #insertsInBatches}), or null. */
  private InsertBatch insertBatch;
  /** The puts of rows written without a read, held and sent in batches. */
  private PutBatch putBatch;

  public WriteExecutor(Storage db, SqlTableDef def, WriteSpec spec, DataContext ctx) {
    this.db = db;
    this.def = def;
    this.spec = spec;
    this.ctx = ctx;
    this.settings = ConnectionSettings.of(ctx);
    settings.checkWritable(spec.kind().toString());
    this.table = db.table(def.table());
    names = CellNames.of(def);
    markerFamily = names.markerFamily();
    indexes = IndexRegistry.of(db).of(def.table());
    notNull = new NotNullCheck(def, spec);
    puts = new RowPuts(def, spec, names, this::cellTimestamp, () -> rowDurability);
    changes = new RowChanges(db, def, spec, ctx, puts, this::cellTimestamp, () -> rowDurability);
    keys = spec.kind() == WriteSpec.Kind.INSERT || spec.kind() == WriteSpec.Kind.UPSERT
        ? (GeneratedKeys) ctx.get(GeneratedKeys.VARIABLE) : null;
    if (keys != null) {
      keys.bind(def);
    }
    if (def.packed()) {
      RowPuts.checkWholeRows(def, spec);
    }
    foreignKeys = ForeignKeyChecks.of(db, def, ctx, settings.writeTimestamp() >= 0
        ? settings.writeTimestamp() : io.basaltdb.storage.Cell.LATEST_TIMESTAMP, Durability.ASYNC);
  }

  /**
   * Makes this INSERT or UPSERT hold its rows and write them as one atomic write after the last
   * ({@link AtomicStatementWrite}): all or none, a failure at any row writing nothing. Only for
   * a statement {@link #writesAtomically} admits, asked under the table's index lock.
   */
  public WriteExecutor writingAtomically() {
    atomicWrite = new AtomicStatementWrite(db, markerFamily);
    return this;
  }

  /** Whether the write {@code spec} into {@code def} may run {@link #writingAtomically}. */
  public static boolean writesAtomically(Storage db, SqlTableDef def, WriteSpec spec) {
    return AtomicStatementWrite.fit(db, def, spec);
  }

  /**
   * Writes every input row (with auto-commit off, into the connection's transaction, which
   * {@code db} then is: {@link ConnectionTransaction}); the number of rows written (the update
   * count).
   */
  public long run(Enumerable<?> rows) {
    java.util.concurrent.locks.Lock writing = indexes.writing();
    writing.lock(); // no index appears or goes while this statement writes (IndexRegistry)
    try {
      lease = IndexListLease.of(db, def.table());
      List<SqlIndexDef> list = lease.list();
      indexed = list.isEmpty() && !readsUnderLock() ? null
          : new IndexedRowWrite(db, def, list, settings.writeTimestamp());
      if (indexed != null && atomicWrite != null) { // fit was asked under this lock
        throw new IllegalStateException("a write of " + def.table() + " with indexes cannot be"
            + " one atomic write of its rows");
      }
      insertBatch = insertsInBatches() ? new InsertBatch(table, lease::confirm) : null;
      putBatch = new PutBatch(table, lease::confirm);
      indexedBatch = batchOf(indexed);
      return runRows(rows);
    } finally {
      writing.unlock();
    }
  }

  /**
   * The batch of {@code w}'s rows when it keeps the indexes by the client-side protocol and
   * rows need no check before the next is read (no foreign key), else null; {@code w}'s rows
   * are sent only while {@link #lease} holds.
   */
  private IndexedBatch batchOf(IndexedRowWrite w) {
    if (w == null) {
      return null;
    }
    w.beforeRows(lease::confirm);
    return w.byProtocol() && foreignKeys == null ? w.batch(spec.onDuplicate() == null) : null;
  }

  /**
   * Whether this INSERT's rows go in batched check-and-puts ({@link InsertBatch}): on a storage
   * that writes no more than a row atomically (HBase), outside a transaction (whose writes stay
   * in the client until its commit), for a table without indexes or foreign keys (whose rows are
   * written and checked one by one).
   */
  private boolean insertsInBatches() {
    return spec.kind() == WriteSpec.Kind.INSERT && !db.atomicAcrossRows() && !db.inTransaction()
        && atomicWrite == null && indexed == null && foreignKeys == null;
  }

  /**
   * Whether each row is written from its current values under its lock, though the table has
   * no index: an UPSERT's {@code ON DUPLICATE KEY} clause, where the storage can (over HBase it
   * runs as a compare-and-set: {@link OnDuplicateKeyWrite}).
   */
  private boolean readsUnderLock() {
    return (spec.onDuplicate() != null || !spec.newRowDefaults().isEmpty())
        && db.atomicAcrossRows();
  }

  private long runRows(Enumerable<?> rows) {
    if (spec.counterKey() != null && settings.writeTimestamp() < 0
        && def.rowTimestamp() == null
        && settings.readTimestamp() < 0 && indexed == null) {
      lease.confirm();
      Long added = addToCounter();
      if (added != null) {
        return added;
      }
    }
    long seen = 0; // input rows
    boolean syncEach = !db.inTransaction() && settings.durability() == Durability.SYNC;
    try (Enumerator<?> e = rows.enumerator()) {
      Object[] next = nextRow(e);
      while (next != null) {
        Object[] row = next;
        RuntimeException badNext = null; // thrown once this row is written, as before the lookahead
        try {
          next = nextRow(e);
        } catch (RuntimeException x) {
          badNext = x;
          next = null;
        }
        rowDurability = syncEach && seen++ == 0 && next == null && badNext == null
            ? Durability.SYNC : Durability.ASYNC;
        byte[] key = key(row);
        rowTs = RowTimestamps.of(def, row);
        notNull.check(row);
        if (foreignKeys != null) {
          foreignKeys.beforeWrite(spec, key, row);
        }
        keepLease();
        if (write(key, row, amounts())) {
          count++; // an ON DUPLICATE KEY clause may leave a row alone
          writtenRow(row);
        }
        if (badNext != null) {
          throw badNext;
        }
      }
      keepLease(); // the rows held are sent for the list of now
      if (indexedBatch != null) {
        indexedBatch.flush();
      }
    } catch (RuntimeException failure) {
      if (atomicWrite != null) {
        throw failure; // nothing was written
      }
      // the rows before the failing one stay written, as when each row is its own statement
      RuntimeException thrown = indexedBatch == null ? failure
          : indexedBatch.afterFailure(failure); // the rows held came before the failing one
      try {
        putBatch.flush(this::writtenRow);
        if (insertBatch != null) {
          thrown = insertBatch.afterFailure(failure, this::writtenRow, changes::duplicate);
        }
        syncLog(db, settings);
        RowsWritten kept = insertBatch != null ? insertBatch.rowsWritten() // a batch's counts
            : (indexedBatch != null && indexedBatch.uncertain()) || putBatch.uncertain() ? null
            : new RowsWritten(count + putBatch.written()
                + (indexedBatch == null ? 0 : indexedBatch.counted()));
        if (!db.inTransaction() && kept != null) {
          thrown.addSuppressed(kept);
        }
      } catch (RuntimeException f) {
        thrown.addSuppressed(f);
      }
      throw thrown;
    }
    putBatch.flush(this::writtenRow);
    count += putBatch.written();
    if (indexedBatch != null) {
      count += indexedBatch.counted();
    }
    if (insertBatch != null) {
      insertBatch.flush(this::writtenRow);
      count += insertBatch.written();
      if (insertBatch.firstDuplicate() != null) {
        syncLog(db, settings); // the rows written stay written
        RuntimeException refused = insertBatch.refusal(changes::duplicate);
        refused.addSuppressed(insertBatch.rowsWritten());
        throw refused;
      }
    }
    if (atomicWrite != null) {
      atomicWrite.apply(settings.durability()); // synced before it is seen, as a commit
    } else if (seen > 1 && count > 0) {
      syncLog(db, settings); // a single row synced itself (in a transaction: nothing to sync)
    }
    return count;
  }

  /**
   * Writes one row (or holds it in a batch): whether it was written now, and counts. Rows held
   * are sent before a row written alone, in row order (a later row may write the same key).
   */
  private boolean write(byte[] key, Object[] row, Object[] amounts) {
    if (insertBatch != null) {
      insertBatch.add(insertCheck(key, row), row, this::writtenRow);
      return false; // counted when its batch is sent
    }
    if (indexedBatch != null) {
      indexedBatch.add(key, rowDurability, changes.change(indexed, key, row, amounts),
          () -> writtenRow(row));
      return false; // counted when its batch is written
    }
    if (indexed != null) {
      return writeIndexed(indexed, key, row, amounts) || spec.onDuplicate() == null;
    }
    RowWrite op = plainOp(key, row, amounts);
    if (op instanceof RowWrite.Batched b && foreignKeys == null) {
      putBatch.add(b.put(), row, this::writtenRow);
      return false; // counted when its batch is sent
    }
    putBatch.flush(this::writtenRow);
    lease.confirm();
    if (op instanceof RowWrite.Batched b) {
      table.put(b.put()); // now: a later row's check may look for it
      return true;
    }
    return ((RowWrite.Action) op).run().getAsBoolean();
  }

  /**
   * Renews the statement's {@link #lease} when it is due; on a changed list, goes on with
   * writers for it.
   */
  private void keepLease() {
    List<SqlIndexDef> list = lease.due() ? lease.renew() : null;
    if (list != null) {
      switchTo(list);
    }
  }

  /**
   * Another process created or dropped an index of the table while this statement wrote it:
   * the rows held, not yet sent (they were confirmed for the old list only), and every row
   * after them are written for {@code list}, by the client-side protocol from now on (even when
   * {@code list} is empty: a held row's change is computed from its row as read). Once a
   * batched INSERT has met a duplicate key, the statement stops here with its refusal (as an
   * INSERT into an indexed table stops at its first duplicate).
   */
  private void switchTo(List<SqlIndexDef> list) {
    List<Object[]> again = putBatch.takeHeld();
    if (insertBatch != null) {
      again.addAll(insertBatch.takeHeld());
      if (insertBatch.firstDuplicate() != null) {
        throw insertBatch.refusal(changes::duplicate);
      }
      count += insertBatch.written();
      insertBatch = null;
    }
    List<IndexedBatch.Held> held = List.of();
    if (indexedBatch != null) {
      held = indexedBatch.takeHeld();
      count += indexedBatch.counted();
    }
    indexed = IndexedRowWrite.afterIndexesChanged(db, def, list, settings.writeTimestamp());
    indexedBatch = batchOf(indexed);
    for (IndexedBatch.Held h : held) {
      indexedBatch.add(h.key(), h.durability(), h.change(), h.counted());
    }
    for (Object[] row : again) {
      if (write(key(row), row, null)) {
        count++;
        writtenRow(row);
      }
    }
  }

  /** One row's write without index maintenance. */
  private RowWrite plainOp(byte[] key, Object[] row, Object[] amounts) {
    return switch (spec.kind()) {
      case INSERT -> RowWrite.of(insert(key, row));
      case UPSERT -> spec.onDuplicate() == null && !spec.newRowDefaults().isEmpty()
          ? RowWrite.of(() -> { // no lock to read under: a new row if none, else an UPSERT
            if (!table.checkAndMutate(CheckAndMutate.newBuilder(key).ifNotExists(markerFamily,
                CellNames.MARKER).build(puts.put(key, row, puts.newRowColumns())))) {
              RowWrite op = upsert(key, row);
              if (op instanceof RowWrite.Batched b) {
                table.put(b.put());
              } else {
                ((RowWrite.Action) op).run().getAsBoolean();
              }
            }
          })
          : spec.onDuplicate() == null ? upsert(key, row)
          : new RowWrite.Action(() -> OnDuplicateKeyWrite.withoutLock(table,
              new IndexedRowWrite(db, def, List.of(), settings.writeTimestamp()), def, key,
              spec.onDuplicate(), old -> changes.onDuplicate(key, old,
                  () -> new IndexedRowWrite.Outcome(puts.newRowMutation(key, row), null))));
      case UPDATE -> RowWrite.of(update(key, row, amounts));
      case DELETE -> {
        Delete d = changes.delete(key);
        yield RowWrite.of(() -> table.delete(d));
      }
    };
  }

  /** The amounts of an UPDATE's {@code col = col + n} (by updated column), bound now. */
  private Object[] amounts() {
    if (spec.kind() != WriteSpec.Kind.UPDATE) {
      return null;
    }
    Object[] amounts = new Object[spec.updated().size()];
    for (int u = 0; u < amounts.length; u++) {
      Operand inc = spec.increments().get(u);
      amounts[u] = inc == null ? null : inc.bind(ctx);
    }
    return amounts;
  }

  private static Object[] nextRow(Enumerator<?> e) {
    if (!e.moveNext()) {
      return null;
    }
    Object o = e.current();
    return o instanceof Object[] a ? a : new Object[] {o};
  }

  /** With SYNC durability, waits until everything written so far is in the log on disk. */
  static void syncLog(Storage db, ConnectionSettings settings) {
    if (settings.durability() == Durability.SYNC) {
      db.sync();
    }
  }

  private byte[] key(Object[] row) {
    return ColumnValues.rowKey(def, spec.kind() == WriteSpec.Kind.INSERT
        || spec.kind() == WriteSpec.Kind.UPSERT, row);
  }

  /** The timestamp of the cells written now: the row's, the statement's, or -1 (the write's). */
  private long cellTimestamp() {
    return rowTs >= 0 ? rowTs : settings.writeTimestamp();
  }

  private Put put(byte[] key, Object[] row) {
    return puts.put(key, row);
  }

  private Runnable insert(byte[] key, Object[] row) {
    if (atomicWrite != null) {
      Put put = put(key, row);
      return () -> atomicWrite.insert(table, key, put, () -> changes.duplicate(key));
    }
    CheckAndMutate cam = insertCheck(key, row);
    return () -> {
      if (!table.checkAndMutate(cam)) {
        throw changes.duplicate(key);
      }
    };
  }

  /** The put of a new row {@code key}, if its marker cell is not stored. */
  private CheckAndMutate insertCheck(byte[] key, Object[] row) {
    return CheckAndMutate.newBuilder(key).ifNotExists(markerFamily, CellNames.MARKER)
        .build(put(key, row));
  }

  /** A row written: its generated keys kept, when the statement asked for them. */
  private void writtenRow(Object[] row) {
    if (keys != null) {
      keys.add(def, row);
    }
  }

  /** A put (batched), or a row mutation when NULLs delete cells. */
  private RowWrite upsert(byte[] key, Object[] row) {
    io.basaltdb.storage.Row m = puts.upsertMutation(key, row);
    if (atomicWrite != null) {
      return RowWrite.of(() -> atomicWrite.upsert(table, key, m));
    }
    return m instanceof RowMutations rm ? RowWrite.of(() -> table.mutateRow(rm))
        : new RowWrite.Batched((Put) m);
  }

  /**
   * Writes one row of a table with indexes and its entries as one engine write, the change
   * computed from the row's current values under its lock: an INSERT of an existing key is
   * refused, an UPDATE or DELETE of a row gone meanwhile writes nothing, and {@code c = c + n}
   * adds to the current value.
   */
  private boolean writeIndexed(IndexedRowWrite w, byte[] key, Object[] row, Object[] amounts) {
    boolean[] wrote = new boolean[1];
    w.write(key, rowDurability, old -> {
      IndexedRowWrite.Outcome out = changes.outcome(w, key, row, amounts, old);
      wrote[0] = out != null;
      return out;
    });
    return wrote[0];
  }

  private Runnable update(byte[] key, Object[] row, Object[] amounts) {
    int n = def.visibleColumnCount();
    UpdatedCells cells = changes.updatedCells(key);
    List<Runnable> increments = new ArrayList<>();
    for (int u = 0; u < spec.updated().size(); u++) {
      int col = spec.updated().get(u);
      if (spec.increments().get(u) != null) {
        if (row[col] != null) { // NULL + n is NULL: nothing to write
          Object amount = amounts[u];
          increments.add(() -> increment(key, col, amount));
        }
        continue;
      }
      cells.set(col, row[col], row[n + u]);
    }
    io.basaltdb.storage.Row m = cells.mutation();
    return () -> {
      if (m instanceof RowMutations rm) {
        table.mutateRow(rm);
      } else if (m instanceof Put p) {
        table.put(p);
      } else if (m instanceof Delete d) {
        table.delete(d);
      }
      increments.forEach(Runnable::run);
    };
  }

  /** The counter update by key ({@link CounterWrites#addToCounter}), at the statement's. */
  private Long addToCounter() {
    Durability d = settings.durability();
    return new CounterWrites(table, def, names, settings).addToCounter(spec, ctx, d);
  }

  /** {@code col = col + amount}, atomically ({@link CounterWrites#increment}). */
  private void increment(byte[] key, int col, Object amount) {
    new CounterWrites(table, def, names, settings).increment(key, col, amount, rowDurability,
        rowTs);
  }
}
