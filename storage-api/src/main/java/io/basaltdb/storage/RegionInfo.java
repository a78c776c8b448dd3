package io.basaltdb.storage;

/**
 * A region of a table as tools and the SQL layer see it: its name, row range
 * {@code [startRow, endRow)} (empty = unbounded) and size and activity figures.
 */
public record RegionInfo(TableName table, String name, byte[] startRow, byte[] endRow,
    RegionStats stats) {
  @Override
  public String toString() {
    return table + "/" + name + "[" + Cell.printable(startRow) + ", " + Cell.printable(endRow)
        + ") " + stats;
  }
}
