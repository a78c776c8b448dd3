package io.basaltdb.storage;

/** Anything addressed to one row: mutations and gets (the elements of a batch). */
public interface Row {
  byte[] row();

  /** {@code row}, refused with a clear error when it is null or empty. */
  static byte[] checkRow(byte[] row) {
    if (row == null || row.length == 0) {
      throw new InvalidArgumentException("row key must not be null or empty");
    }
    return row;
  }
}
