package io.basaltdb.storage;

/** Reads one row: chosen families/columns, versions, a time range. A missing row is empty. */
public final class Get extends ReadRequest<Get> implements Row {
  private final byte[] row;

  public Get(byte[] row) {
    this.row = Row.checkRow(row);
  }

  @Override
  public byte[] row() {
    return row;
  }
}
