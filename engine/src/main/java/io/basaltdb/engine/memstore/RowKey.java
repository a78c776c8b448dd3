package io.basaltdb.engine.memstore;

import java.util.Arrays;

/** A row key as a hash key of the memstore's row index (FNV-1a over its bytes). Immutable. */
final class RowKey {
  final byte[] row;
  private final int hash;

  RowKey(byte[] row) {
    this.row = row;
    int h = 0x811c9dc5; // FNV-1a: Arrays.hashCode maps keys differing in two bytes together
    for (byte b : row) {
      h = (h ^ (b & 0xff)) * 0x01000193;
    }
    this.hash = h ^ (h >>> 16);
  }

  @Override
  public int hashCode() {
    return hash;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof RowKey k && k.hash == hash && Arrays.equals(k.row, row);
  }
}
