package io.basaltdb.sql.exec.write;

import io.basaltdb.sql.catalog.CellNames;
import io.basaltdb.sql.catalog.ColumnValues;
import io.basaltdb.sql.catalog.MapCells;
import io.basaltdb.sql.catalog.SqlColumn;
import io.basaltdb.sql.catalog.SqlTableDef;
import io.basaltdb.sql.pushdown.WriteSpec;
import io.basaltdb.sql.type.CellArray;
import io.basaltdb.storage.Delete;
import io.basaltdb.storage.Durability;
import io.basaltdb.storage.Mutation;
import io.basaltdb.storage.Put;
import io.basaltdb.storage.RowMutations;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * The mutations that write a statement's row: a put of the row's marker and its non-null
 * columns (a packed table's families as one cell each; a MAP column's entries as cells), for
 * an UPSERT with a delete of the columns it names NULL, for a new row with the defaults of the
 * columns it leaves out. Each stamped with the row's cell timestamp and durability, which the
 * writer sets per row. One per execution.
 */
final class RowPuts {
  private final SqlTableDef def;
  private final WriteSpec spec;
  private final CellNames names;
  private final LongSupplier cellTimestamp;
  private final Supplier<Durability> durability;

  /**
   * A packed table's rows are written whole (each family is one cell): INSERT, DELETE, and an
   * UPSERT naming every column; not UPDATE nor an UPSERT naming some columns (Phoenix asks the
   * same of its single-cell tables, which must be immutable).
   */
  static void checkWholeRows(SqlTableDef def, WriteSpec spec) {
    boolean partial = spec.kind() == WriteSpec.Kind.UPDATE
        || spec.kind() == WriteSpec.Kind.UPSERT && spec.listed().size() < def.visibleColumnCount();
    if (partial) {
      throw new UnsupportedOperationException(spec.kind() + " of some columns of "
          + def.table() + ": it stores each family in one cell (IMMUTABLE_STORAGE_SCHEME="
          + "SINGLE_CELL_ARRAY_WITH_OFFSETS), so rows are written whole: UPSERT every column");
    }
  }

  /**
   * {@code cellTimestamp}: the timestamp of the cells written now (-1: the write's);
   * {@code durability}: the durability of the mutations made now.
   */
  RowPuts(SqlTableDef def, WriteSpec spec, CellNames names, LongSupplier cellTimestamp,
      Supplier<Durability> durability) {
    this.def = def;
    this.spec = spec;
    this.names = names;
    this.cellTimestamp = cellTimestamp;
    this.durability = durability;
  }

  private long timestamp() {
    long ts = cellTimestamp.getAsLong();
    return ts >= 0 ? ts : io.basaltdb.storage.Cell.LATEST_TIMESTAMP;
  }

  private <M extends Mutation> M durable(M m) {
    m.setDurability(durability.get());
    return m;
  }

  /**
   * A put of the row's marker and its non-null named columns; in a packed table, of every
   * family's cell with all its columns (the statement names them all).
   */
  Put put(byte[] key, Object[] row) {
    return put(key, row, spec.listed());
  }

  /** The columns a new row of an UPSERT gets: those it names and the defaulted others. */
  List<Integer> newRowColumns() {
    List<Integer> cols = new ArrayList<>(spec.listed());
    cols.addAll(spec.newRowDefaults());
    return cols;
  }

  /** The write of an UPSERT's row when it is new: with the defaults of what it leaves out. */
  io.basaltdb.storage.Row newRowMutation(byte[] key, Object[] row) {
    return spec.newRowDefaults().isEmpty() ? upsertMutation(key, row)
        : put(key, row, newRowColumns());
  }

  Put put(byte[] key, Object[] row, List<Integer> columns) {
    Put put = new Put(key);
    addCell(put, names.markerFamily(), CellNames.MARKER,
        CellNames.MARKER_VALUE);
    for (CellNames.PackedFamily f : names.packedFamilies()) {
      byte[][] values = new byte[f.columns().length][];
      for (int slot = 0; slot < values.length; slot++) {
        int i = f.columns()[slot];
        if (row[i] != null) {
          SqlColumn c = def.columns().get(i);
          values[slot] = c.toCell(ColumnValues.fit(c, row[i]));
        }
      }
      addCell(put, f.family(), names.qualifier(f.columns()[0]), CellArray.encode(values));
    }
    for (int i : def.packed() ? List.<Integer>of() : columns) {
      SqlColumn c = def.columns().get(i);
      if (c.isMap()) {
        for (byte[][] cell : mapChange(i, null, row[i], false).puts()) {
          addCell(put, names.family(i), cell[0], cell[1]);
        }
      } else if (names.family(i) != null && row[i] != null) {
        addCell(put, names.family(i), names.qualifier(i),
            c.toCell(ColumnValues.fit(c, row[i])));
      }
    }
    return durable(put);
  }

  /** The cells writing {@code now} to MAP column {@code col} puts and deletes. */
  MapCells.Change mapChange(int col, Object old, Object now, boolean replace) {
    return MapCells.change(names, def.columns().get(col), col, old, now, replace);
  }

  private void addCell(Put put, byte[] family, byte[] qualifier, byte[] value) {
    long ts = cellTimestamp.getAsLong();
    if (ts >= 0) {
      put.addColumn(family, qualifier, ts, value);
    } else {
      put.addColumn(family, qualifier, value);
    }
  }

  /** An UPSERT's put, with a delete of the named columns given NULL when there are some. */
  io.basaltdb.storage.Row upsertMutation(byte[] key, Object[] row) {
    if (def.packed()) {
      return put(key, row); // NULLs are in the family cells
    }
    Delete nulls = null;
    for (int i : spec.listed()) {
      if (def.columns().get(i).isMap()) { // an UPSERT merges: a NULL entry deletes its cell
        for (byte[] q : mapChange(i, null, row[i], false).deletes()) {
          nulls = nulls == null ? new Delete(key) : nulls;
          nulls.addColumns(names.family(i), q, timestamp());
        }
      } else if (names.family(i) != null && row[i] == null) {
        nulls = nulls == null ? new Delete(key) : nulls;
        nulls.addColumns(names.family(i), names.qualifier(i), timestamp());
      }
    }
    return nulls == null ? put(key, row) : new RowMutations(key).add(put(key, row))
        .add(durable(nulls));
  }
}
