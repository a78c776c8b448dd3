package io.basaltdb.engine;

/** Reads one row: chosen families/columns, versions, a time range. A missing row is empty. */
public final class Get extends ReadRequest<Get> implements Row {
  private final byte[] row;

  public Get(byte[] row) {
    if (row == null || row.length == 0) {
      throw new InvalidArgumentException("row key must not be null or empty");
    }
    this.row = row;
  }

  @Override
  public byte[] row() {
    return row;
  }
}
