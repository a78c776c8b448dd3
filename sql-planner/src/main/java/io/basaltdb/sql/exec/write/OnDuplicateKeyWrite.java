package io.basaltdb.sql.exec.write;

import io.basaltdb.sql.SqlStateException;
import io.basaltdb.sql.SqlStates;
import io.basaltdb.sql.catalog.CellNames;
import io.basaltdb.sql.catalog.SqlTableDef;
import io.basaltdb.sql.index.IndexedRowWrite;
import io.basaltdb.sql.pushdown.WriteSpec;
import io.basaltdb.storage.CheckAndMutate;
import io.basaltdb.storage.Delete;
import io.basaltdb.storage.Get;
import io.basaltdb.storage.Put;
import io.basaltdb.storage.Result;
import io.basaltdb.storage.Row;
import io.basaltdb.storage.RowMutations;
import io.basaltdb.storage.Table;
import java.util.function.Function;

/**
 * An UPSERT's {@code ON DUPLICATE KEY} clause where the storage cannot run code under a row's
 * lock (HBase, from its client): read the row, compute the write, and apply it with a
 * check-and-mutate whose condition is what the computation read (no row: the marker absent;
 * the one column the assignments read: its cell as read, or absent; none: the marker present),
 * again from the read when another writer changed that meanwhile. Assignments reading two or
 * more columns are refused (0A000): one condition cannot hold them. Stateless.
 */
final class OnDuplicateKeyWrite {
  private static final int ATTEMPTS = 10_000;

  private OnDuplicateKeyWrite() {}

  /**
   * Writes the row of {@code key} as {@code change} says given its current values (null: no
   * such row; a null outcome writes nothing); whether it wrote.
   */
  static boolean withoutLock(Table table, IndexedRowWrite reader, SqlTableDef def, byte[] key,
      WriteSpec.OnDuplicate clause, Function<Object[], IndexedRowWrite.Outcome> change) {
    CellNames names = CellNames.of(def);
    if (clause.reads().size() > 1) {
      throw new SqlStateException(SqlStates.FEATURE_NOT_SUPPORTED,
          "ON DUPLICATE KEY " + clause.text() + " of "
          + def.table() + " reads " + clause.reads().size() + " columns of the row; this "
          + "storage updates a row from its client with one compare-and-set, so the "
          + "assignments may read at most one column");
    }
    for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
      Result current = table.get(new Get(key));
      Object[] old = reader.values(key, current);
      IndexedRowWrite.Outcome out = change.apply(old);
      if (out == null || out.mutation() == null) {
        return false;
      }
      CheckAndMutate.Builder when = CheckAndMutate.newBuilder(key);
      if (old == null) {
        when.ifNotExists(names.markerFamily(), CellNames.MARKER);
      } else if (clause.reads().isEmpty()) {
        when.ifExists(names.markerFamily(), CellNames.MARKER);
      } else {
        int col = clause.reads().get(0);
        byte[] cell = current.getValue(names.family(col), names.qualifier(col));
        if (cell == null) {
          when.ifNotExists(names.family(col), names.qualifier(col));
        } else {
          when.ifEquals(names.family(col), names.qualifier(col), cell);
        }
      }
      if (table.checkAndMutate(build(when, out.mutation()))) {
        return true;
      }
    }
    throw new SqlStateException(SqlStates.SERIALIZATION_FAILURE,
        "ON DUPLICATE KEY of " + def.table() + " kept losing "
        + "to concurrent writers of the same row");
  }

  private static CheckAndMutate build(CheckAndMutate.Builder when, Row m) {
    if (m instanceof Put p) {
      return when.build(p);
    }
    if (m instanceof Delete d) {
      return when.build(d);
    }
    return when.build((RowMutations) m);
  }
}
