package io.basaltdb.storage;

/** Writes cells to one row. Without a timestamp, the engine stamps the current time. */
public final class Put extends Mutation {
  public Put(byte[] row) {
    super(row);
  }

  public Put addColumn(byte[] family, byte[] qualifier, byte[] value) {
    return addColumn(family, qualifier, Cell.LATEST_TIMESTAMP, value);
  }

  public Put addColumn(byte[] family, byte[] qualifier, long timestamp, byte[] value) {
    checkTimestamp(timestamp);
    cells.add(Cell.put(row, nonNull(family, "family"), orEmpty(qualifier), timestamp,
        orEmpty(value)));
    return this;
  }

  public boolean isEmpty() {
    return cells.isEmpty();
  }

  @Override
  public Put setDurability(Durability d) {
    super.setDurability(d);
    return this;
  }
}
