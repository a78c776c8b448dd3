package io.basaltdb.storage;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Deletes from one row, as HBase's {@code Delete}: with nothing added, the whole row (every
 * family, versions up to the delete's timestamp); otherwise the versions, columns and families
 * added. A delete covers only data written before it.
 */
public final class Delete extends Mutation {
  private final long timestamp;

  /** Deletes the row (or what is added) at the current time. */
  public Delete(byte[] row) {
    this(row, Cell.LATEST_TIMESTAMP);
  }

  /** Deletes the row (or what is added without its own timestamp) up to {@code timestamp}. */
  public Delete(byte[] row, long timestamp) {
    super(row);
    checkTimestamp(timestamp);
    this.timestamp = timestamp;
  }

  /** The delete's own timestamp (the whole row's, and of what is added without one). */
  public long timestamp() {
    return timestamp;
  }

  /** The newest version of a column. */
  public Delete addColumn(byte[] family, byte[] qualifier) {
    return add(family, qualifier, timestamp, CellType.DELETE);
  }

  /** The version of a column at exactly {@code ts}. */
  public Delete addColumn(byte[] family, byte[] qualifier, long ts) {
    checkTimestamp(ts);
    return add(family, qualifier, ts, CellType.DELETE);
  }

  /** Every version of a column (up to the delete's timestamp). */
  public Delete addColumns(byte[] family, byte[] qualifier) {
    return add(family, qualifier, timestamp, CellType.DELETE_COLUMN);
  }

  /** Every version of a column at or before {@code ts}. */
  public Delete addColumns(byte[] family, byte[] qualifier, long ts) {
    checkTimestamp(ts);
    return add(family, qualifier, ts, CellType.DELETE_COLUMN);
  }

  /** Every column of a family (up to the delete's timestamp). */
  public Delete addFamily(byte[] family) {
    return add(family, null, timestamp, CellType.DELETE_FAMILY);
  }

  /** Every column of a family at or before {@code ts}. */
  public Delete addFamily(byte[] family, long ts) {
    checkTimestamp(ts);
    return add(family, null, ts, CellType.DELETE_FAMILY);
  }

  /** Every column of a family at exactly {@code ts}. */
  public Delete addFamilyVersion(byte[] family, long ts) {
    checkTimestamp(ts);
    return add(family, null, ts, CellType.DELETE_FAMILY_VERSION);
  }

  private Delete add(byte[] family, byte[] qualifier, long ts, CellType type) {
    cells.add(Cell.delete(row, nonNull(family, "family"), orEmpty(qualifier), ts, type));
    return this;
  }

  /** The markers to write, given the table's families (a row delete marks each family). */
  public List<Cell> markers(Set<byte[]> tableFamilies) {
    if (!cells.isEmpty()) {
      return cells;
    }
    List<Cell> out = new ArrayList<>();
    for (byte[] f : tableFamilies) {
      out.add(Cell.delete(row, f, null, timestamp, CellType.DELETE_FAMILY));
    }
    return out;
  }

  @Override
  public Delete setDurability(Durability d) {
    super.setDurability(d);
    return this;
  }
}
