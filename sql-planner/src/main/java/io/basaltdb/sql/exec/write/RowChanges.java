package io.basaltdb.sql.exec.write;

import io.basaltdb.sql.SqlStateException;
import io.basaltdb.sql.SqlStates;
import io.basaltdb.sql.catalog.CellNames;
import io.basaltdb.sql.catalog.ColumnValues;
import io.basaltdb.sql.catalog.MapCells;
import io.basaltdb.sql.catalog.SqlColumn;
import io.basaltdb.sql.catalog.SqlTableDef;
import io.basaltdb.sql.exec.context.RowContext;
import io.basaltdb.sql.index.IndexedRowWrite;
import io.basaltdb.sql.pushdown.WriteSpec;
import io.basaltdb.storage.Delete;
import io.basaltdb.storage.Durability;
import io.basaltdb.storage.InvalidArgumentException;
import io.basaltdb.storage.Storage;
import io.basaltdb.storage.Table;
import java.util.Arrays;
import java.util.List;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.apache.calcite.DataContext;

/**
 * What one write statement ({@link WriteSpec}) makes of a row from the row's current values:
 * an INSERT refused over a stored key, an UPSERT's columns laid over the row (or its ON
 * DUPLICATE KEY clause computed from it), an UPDATE's new values and increments, a DELETE;
 * each as the mutation to write and the row's new values, which index entries follow. The
 * cells are stamped with the statement's row timestamp and durability of the moment
 * ({@code cellTimestamp}, {@code durability}: the row being written). Used by {@link
 * WriteExecutor} wherever a row is written from its read (indexed tables, ON DUPLICATE KEY).
 */
final class RowChanges {
  private final Storage db;
  private final SqlTableDef def;
  private final WriteSpec spec;
  private final DataContext ctx;
  private final Table table;
  private final CellNames names;
  private final RowPuts puts;
  private final LongSupplier cellTimestamp;
  private final Supplier<Durability> durability;
  /** Whether updates rewrite the row marker ({@link #markerWithUpdates}), once known. */
  private Boolean markerRewrite;

  /**
   * {@code cellTimestamp}: the timestamp of the cells written now (-1: the write's); {@code
   * durability}: theirs.
   */
  RowChanges(Storage db, SqlTableDef def, WriteSpec spec, DataContext ctx, RowPuts puts,
      LongSupplier cellTimestamp, Supplier<Durability> durability) {
    this.db = db;
    this.def = def;
    this.spec = spec;
    this.ctx = ctx;
    this.table = db.table(def.table());
    this.names = CellNames.of(def);
    this.puts = puts;
    this.cellTimestamp = cellTimestamp;
    this.durability = durability;
  }

  /** The delete of the row of {@code key}, at the statement's timestamp and durability. */
  Delete delete(byte[] key) {
    long ts = cellTimestamp.getAsLong();
    Delete d = new Delete(key, ts >= 0 ? ts : io.basaltdb.storage.Cell.LATEST_TIMESTAMP);
    d.setDurability(durability.get()); // ASYNC: the statement syncs once at its end
    return d;
  }

  /** The change {@code row} makes to the row of {@code key}, from its current values. */
  IndexedRowWrite.Change change(IndexedRowWrite w, byte[] key, Object[] row,
      Object[] amounts) {
    return old -> outcome(w, key, row, amounts, old);
  }

  /**
   * What {@code row} (with an UPDATE's {@code amounts}) makes of the row of {@code key} whose
   * current values are {@code old} (null: no such row): its mutation and new values, or null
   * when it writes nothing; an INSERT of an existing key is refused (23505).
   */
  IndexedRowWrite.Outcome outcome(IndexedRowWrite w, byte[] key, Object[] row,
      Object[] amounts, Object[] old) {
    return switch (spec.kind()) {
      case INSERT -> {
        if (old != null) {
          throw duplicate(key);
        }
        yield new IndexedRowWrite.Outcome(puts.put(key, row), overlay(w, key, null, row));
      }
      case UPSERT -> spec.onDuplicate() == null
          ? new IndexedRowWrite.Outcome(old == null ? puts.newRowMutation(key, row)
              : puts.upsertMutation(key, row), overlay(w, key, old, row))
          : onDuplicate(key, old, () -> new IndexedRowWrite.Outcome(puts.newRowMutation(key, row),
              overlay(w, key, null, row)));
      case UPDATE -> old == null ? null
          : updateOf(key, spec.updated(), row, def.visibleColumnCount(), amounts, old);
      case DELETE -> old == null ? null : new IndexedRowWrite.Outcome(delete(key), null);
    };
  }

  /**
   * An UPSERT with {@code ON DUPLICATE KEY} of a row whose current values are {@code old}
   * (null: no such row): the new row's write ({@code insert}) unless the clause is
   * UPDATE_ONLY; for an existing row nothing (IGNORE) or the clause's assignments computed
   * from {@code old}. Null: nothing to write.
   */
  IndexedRowWrite.Outcome onDuplicate(byte[] key, Object[] old,
      java.util.function.Supplier<IndexedRowWrite.Outcome> insert) {
    WriteSpec.OnDuplicate clause = spec.onDuplicate();
    if (old == null) {
      return clause.action() == WriteSpec.OnDuplicate.Action.UPDATE_ONLY ? null : insert.get();
    }
    if (clause.action() == WriteSpec.OnDuplicate.Action.IGNORE) {
      return null;
    }
    Object[] values = clause.compute().apply(new RowContext(ctx, old));
    return updateOf(key, clause.updated(), values, 0, null, old);
  }

  /** The row's values after an INSERT or UPSERT of the listed columns of {@code row}. */
  private Object[] overlay(IndexedRowWrite w, byte[] key, Object[] old, Object[] row) {
    Object[] now = old != null ? old.clone() : w.keyValues(key);
    for (int i : old == null ? puts.newRowColumns() : spec.listed()) {
      SqlColumn c = def.columns().get(i);
      if (c.isMap()) {
        now[i] = MapCells.merged(MapCells.fit(c, now[i]), MapCells.fit(c, row[i]));
      } else if (!c.isKey()) {
        now[i] = row[i] == null ? null : ColumnValues.fit(c, row[i]);
      }
    }
    return now;
  }

  /**
   * An update of the {@code updated} columns of a row whose current values are {@code old}, the
   * new value of the u-th at {@code values[at + u]}, or with {@code amounts} (an UPDATE's)
   * added to it where the UPDATE adds: its mutation and new values.
   */
  private IndexedRowWrite.Outcome updateOf(byte[] key, List<Integer> updated, Object[] values,
      int at, Object[] amounts, Object[] old) {
    Object[] now = old.clone();
    UpdatedCells cells = updatedCells(key);
    for (int u = 0; u < updated.size(); u++) {
      int col = updated.get(u);
      SqlColumn c = def.columns().get(col);
      Object value;
      if (amounts != null && spec.increments().get(u) != null) {
        if (amounts[u] == null) {
          throw new InvalidArgumentException("cannot add NULL to " + c.name()
              + " with an atomic increment");
        }
        value = old[col] == null ? null
            : ColumnValues.fit(c, ColumnValues.add(c.type(), old[col], amounts[u]));
        if (value == null) {
          continue; // NULL + n stays NULL
        }
      } else {
        value = values[at + u] == null ? null : ColumnValues.fit(c, values[at + u]);
        NotNullCheck.checkValue(def, col, value);
      }
      now[col] = c.isMap() ? MapCells.merged(null, MapCells.fit(c, value)) : value;
      cells.set(col, old[col], value);
    }
    return new IndexedRowWrite.Outcome(cells.mutation(), now);
  }

  /** The refusal of a row whose key is stored (23505), naming the key. */
  SqlStateException duplicate(byte[] key) {
    return new SqlStateException(SqlStates.UNIQUE_VIOLATION,
        "duplicate primary key in " + def.table() + ": "
        + Arrays.toString(def.keyCodec().decode(key)));
  }

  /** The cells of an update of row {@code key} ({@link UpdatedCells#withMarker} where safe). */
  UpdatedCells updatedCells(byte[] key) {
    UpdatedCells cells = new UpdatedCells(key, def, names, cellTimestamp.getAsLong(),
        durability.get());
    if (markerWithUpdates()) {
      cells.withMarker();
    }
    return cells;
  }

  /**
   * Whether an update rewrites the row marker: in a transaction whose commit refuses write
   * conflicts (a delete racing it fails the commit, so the marker cannot bring a row back),
   * and when the marker's family has no TTL (rewriting it would keep alive a row that an
   * update outside a transaction lets expire).
   */
  private boolean markerWithUpdates() {
    if (markerRewrite == null) {
      io.basaltdb.storage.FamilyOptions f = db instanceof io.basaltdb.storage.StorageTransaction tx
          && tx.atomicCommit() ? table.descriptor().families().get(def.markerFamily()) : null;
      markerRewrite = f != null && f.ttlSeconds() == 0;
    }
    return markerRewrite;
  }

}
