package io.basaltdb.sql.exec.write;

import io.basaltdb.sql.catalog.CellNames;
import io.basaltdb.sql.catalog.ForeignKeys;
import io.basaltdb.sql.catalog.SqlTableDef;
import io.basaltdb.sql.index.IndexRegistry;
import io.basaltdb.sql.pushdown.WriteSpec;
import io.basaltdb.storage.Cell;
import io.basaltdb.storage.Put;
import io.basaltdb.storage.RowChange;
import io.basaltdb.storage.Storage;
import io.basaltdb.storage.Table;
import io.basaltdb.storage.TransactionTooLargeException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;

/**
 * The rows of one auto-commit INSERT of several rows into a table that has no index and no
 * enforced foreign key at either end, written as one atomic engine write
 * ({@link Storage#mutateAtomically}) once every row is computed: each row's put goes with a
 * check that, under the row's lock, the key holds no row (else 23505 naming the key, and
 * nothing of the statement is written); a key given twice in the statement is refused as its
 * second row arrives. As atomic as a statement transaction and cheaper: an INSERT reads nothing
 * but the rows it writes, so their checks under the locks are all it needs; a transaction kept
 * each row's cells, read every key at its snapshot, then netted and wrote the cells again at
 * commit, checking each row unwritten since (issue 40: the 1,000-row VALUES at the JDBC batch's
 * rate). Holds the rows until {@link #apply}; bounded as a transaction's writes are (past
 * {@link #MAX_BYTES}, {@link TransactionTooLargeException}: the caller writes row by row).
 */
final class AtomicInserts {
  /** The most heap the held rows may take (the engine's bound on a transaction's writes). */
  static final long MAX_BYTES = 64L << 20;

  private final Storage db;
  private final byte[] markerFamily;
  private final List<RowChange> changes = new ArrayList<>();
  private final Set<ByteBuffer> keys = new HashSet<>();
  private long bytes;

  AtomicInserts(Storage db, byte[] markerFamily) {
    this.db = db;
    this.markerFamily = markerFamily;
  }

  /**
   * Whether an INSERT into {@code def} described by {@code spec} may be written this way on
   * {@code db}; asked under the table's index {@linkplain IndexRegistry.Indexes#writing lock},
   * so no index appears before the write.
   */
  static boolean fit(Storage db, SqlTableDef def, WriteSpec spec) {
    return spec.kind() == WriteSpec.Kind.INSERT && db.atomicAcrossRows()
        && !db.inTransaction() && spec.counterKey() == null && def.rowTimestamp() == null
        && IndexRegistry.of(db).of(def.table()).list().isEmpty()
        && !ForeignKeys.enforcedAt(db, def);
  }

  /**
   * Holds {@code put}, the new row {@code key} of {@code table}; {@code duplicate} is the error
   * when the key is given twice or is stored already.
   */
  void add(Table table, byte[] key, Put put, Supplier<RuntimeException> duplicate) {
    if (!keys.add(ByteBuffer.wrap(key))) {
      throw duplicate.get();
    }
    for (Cell c : put.cells()) {
      bytes += c.heapSize();
    }
    if (bytes > MAX_BYTES) {
      throw new TransactionTooLargeException("an INSERT's rows passed " + (MAX_BYTES >> 20)
          + " MiB at row " + Cell.printable(key) + " of table " + table.name());
    }
    changes.add(new RowChange(table, put, current -> {
      if (current.containsColumn(markerFamily, CellNames.MARKER)) {
        throw duplicate.get();
      }
    }));
  }

  /** Writes every row held, all or none; the first stored key met refuses the whole write. */
  void apply() {
    db.mutateAtomically(changes);
    changes.clear();
    keys.clear();
  }
}
