package io.basaltdb.sql.exec.write;

import io.basaltdb.sql.catalog.CellNames;
import io.basaltdb.sql.catalog.ColumnValues;
import io.basaltdb.sql.catalog.MapCells;
import io.basaltdb.sql.catalog.SqlColumn;
import io.basaltdb.sql.catalog.SqlTableDef;
import io.basaltdb.storage.Cell;
import io.basaltdb.storage.Delete;
import io.basaltdb.storage.Durability;
import io.basaltdb.storage.Mutation;
import io.basaltdb.storage.Put;
import io.basaltdb.storage.Row;
import io.basaltdb.storage.RowMutations;

/**
 * The cells an update of one row puts and deletes, made as its columns are set: a value is
 * put, NULL deletes the column's cells, a MAP column is replaced (its old keys' cells that the
 * new map lacks deleted). All at one timestamp (the row's or the statement's, or the write's
 * when -1) and one durability; one mutation of the row in the end. One per row written.
 */
final class UpdatedCells {
  private final byte[] key;
  private final SqlTableDef def;
  private final CellNames names;
  private final long timestamp;
  private final Durability durability;
  private Put put;
  private Delete nulls;
  private boolean marker;

  UpdatedCells(byte[] key, SqlTableDef def, CellNames names, long timestamp,
      Durability durability) {
    this.key = key;
    this.def = def;
    this.names = names;
    this.timestamp = timestamp;
    this.durability = durability;
  }

  /**
   * The row's marker put again with any value: the newest version of every column a read of
   * the row asks for is then where this write goes, so a point read of a row updated since the
   * last flush needs no file (the engine's {@code PointGet}). Only for a write that cannot bring
   * back a row deleted meanwhile (one in a transaction whose commit refuses write conflicts),
   * and not where the marker has a TTL.
   */
  void withMarker() {
    marker = true;
  }

  /** Column {@code col} set to {@code value} (internal form), {@code old} before. */
  void set(int col, Object old, Object value) {
    SqlColumn c = def.columns().get(col);
    if (c.isMap()) { // replaced: the old map's other keys go
      MapCells.Change change = MapCells.change(names, c, col, old, value, true);
      change.puts().forEach(cell -> put(names.family(col), cell[0], cell[1]));
      change.deletes().forEach(q -> delete(names.family(col), q));
    } else if (value == null) {
      delete(names.family(col), names.qualifier(col));
    } else {
      put(names.family(col), names.qualifier(col), c.toCell(ColumnValues.fit(c, value)));
    }
  }

  private void put(byte[] family, byte[] qualifier, byte[] value) {
    put = put == null ? new Put(key) : put;
    if (timestamp >= 0) {
      put.addColumn(family, qualifier, timestamp, value);
    } else {
      put.addColumn(family, qualifier, value);
    }
  }

  private void delete(byte[] family, byte[] qualifier) {
    nulls = nulls == null ? new Delete(key) : nulls;
    nulls.addColumns(family, qualifier, timestamp >= 0 ? timestamp : Cell.LATEST_TIMESTAMP);
  }

  /** The puts and deletes as one mutation of the row, or null when there are none. */
  Row mutation() {
    if (marker && put != null) {
      put(names.markerFamily(), CellNames.MARKER, CellNames.MARKER_VALUE);
    }
    return put != null && nulls != null
        ? new RowMutations(key).add(durable(put)).add(durable(nulls))
        : put != null ? durable(put) : nulls != null ? durable(nulls) : null;
  }

  private <M extends Mutation> M durable(M m) {
    m.setDurability(durability);
    return m;
  }
}
