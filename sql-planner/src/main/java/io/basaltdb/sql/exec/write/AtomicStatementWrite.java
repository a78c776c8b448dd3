package io.basaltdb.sql.exec.write;

import io.basaltdb.sql.catalog.CellNames;
import io.basaltdb.sql.catalog.ForeignKeys;
import io.basaltdb.sql.catalog.SqlTableDef;
import io.basaltdb.sql.index.IndexRegistry;
import io.basaltdb.sql.pushdown.WriteSpec;
import io.basaltdb.storage.Cell;
import io.basaltdb.storage.Durability;
import io.basaltdb.storage.Mutation;
import io.basaltdb.storage.Put;
import io.basaltdb.storage.Row;
import io.basaltdb.storage.RowChange;
import io.basaltdb.storage.RowMutations;
import io.basaltdb.storage.Storage;
import io.basaltdb.storage.StorageTransaction;
import io.basaltdb.storage.Table;
import io.basaltdb.storage.TransactionTooLargeException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The rows of one auto-commit INSERT or UPSERT of several rows into a table that has no index
 * and no enforced foreign key at either end, written as one atomic engine write
 * ({@link Storage#mutateAtomically}) once every row is computed. An INSERT's put goes with a
 * check that, under the row's lock, the key holds no row (else 23505 naming the key, and
 * nothing of the statement is written); a key an INSERT gives twice is refused as its second
 * row arrives. An UPSERT's later row of a key replaces its earlier one (both name the same
 * columns, so the later sets or deletes every cell the earlier did: what reads see is what the
 * two in turn leave). As atomic as a statement transaction and cheaper: these statements read
 * nothing but the rows they write, so the checks under the locks are all they need, where a
 * transaction kept each row's cells, read every key at its snapshot, then netted the cells and
 * wrote them again at commit, checking each row unwritten since (issue 40: a 1,000-row VALUES
 * at the JDBC batch's rate). Holds the rows until {@link #apply}; bounded as a transaction's
 * writes are (past {@link StorageTransaction#MAX_PENDING_BYTES}, {@link
 * TransactionTooLargeException}: the caller writes the statement row by row).
 */
final class AtomicStatementWrite {
  /** What holding a row takes beside its cells: its change, mutation, key and map entry. */
  private static final long ROW_OVERHEAD = 160;

  private final Storage db;
  private final byte[] markerFamily;
  /** Each row's change by its key, in the order the rows came. */
  private final Map<ByteBuffer, RowChange> changes = new LinkedHashMap<>();
  private long bytes;

  AtomicStatementWrite(Storage db, byte[] markerFamily) {
    this.db = db;
    this.markerFamily = markerFamily;
  }

  /**
   * Whether the write {@code spec} describes into {@code def} may be written this way on
   * {@code db}; asked under the table's index {@linkplain IndexRegistry.Indexes#writing lock},
   * so no index appears before the write.
   */
  static boolean fit(Storage db, SqlTableDef def, WriteSpec spec) {
    boolean plainUpsert = spec.kind() == WriteSpec.Kind.UPSERT && spec.onDuplicate() == null
        && spec.newRowDefaults().isEmpty();
    return (spec.kind() == WriteSpec.Kind.INSERT || plainUpsert) && db.atomicAcrossRows()
        && !db.inTransaction() && spec.counterKey() == null && def.rowTimestamp() == null
        && IndexRegistry.of(db).of(def.table()).list().isEmpty()
        && !ForeignKeys.enforcedAt(db, def);
  }

  /**
   * Holds {@code put}, the new row {@code key} of {@code table}; {@code duplicate} is the error
   * when the key is given twice or is stored already.
   */
  void insert(Table table, byte[] key, Put put, Supplier<RuntimeException> duplicate) {
    ByteBuffer k = ByteBuffer.wrap(key);
    if (changes.containsKey(k)) {
      throw duplicate.get();
    }
    hold(k, new RowChange(table, put, current -> {
      if (current.containsColumn(markerFamily, CellNames.MARKER)) {
        throw duplicate.get();
      }
    }));
  }

  /** Holds {@code mutation} (a put, or row mutations) of row {@code key} of {@code table}. */
  void upsert(Table table, byte[] key, Row mutation) {
    hold(ByteBuffer.wrap(key), new RowChange(table, mutation));
  }

  private void hold(ByteBuffer key, RowChange change) {
    bytes += ROW_OVERHEAD;
    for (Mutation m : mutationsOf(change.mutation())) {
      for (Cell c : m.cells()) {
        bytes += c.heapSize();
      }
    }
    if (bytes > StorageTransaction.MAX_PENDING_BYTES) {
      throw new TransactionTooLargeException("a statement's rows passed "
          + (StorageTransaction.MAX_PENDING_BYTES >> 20) + " MiB at row "
          + Cell.printable(key.array()) + " of table " + change.table().name());
    }
    changes.put(key, change);
  }

  /** A put's or delete's self, or row mutations' parts. */
  private static List<Mutation> mutationsOf(Row row) {
    return row instanceof RowMutations rm ? rm.mutations() : List.of((Mutation) row);
  }

  /**
   * Writes every row held, all or none, at {@code durability}; the first stored key met refuses
   * the whole write. SYNC: seen only once the log is synced, and never if the sync fails (the
   * engine takes the write back), as a transaction's commit.
   */
  void apply(Durability durability) {
    List<RowChange> all = new ArrayList<>(changes.values());
    for (RowChange c : all) {
      mutationsOf(c.mutation()).forEach(m -> m.setDurability(durability));
    }
    db.mutateAtomically(all);
    changes.clear();
  }
}
