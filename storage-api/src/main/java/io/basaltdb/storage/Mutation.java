package io.basaltdb.storage;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * A change to one row (a {@link Put}, {@link Delete}, {@link Increment} or {@link Append}):
 * the row, its cells and the durability wanted. Applied atomically: no reader sees part of it.
 * Not thread-safe while being built.
 */
public abstract class Mutation implements Row {
  private static final byte[] EMPTY = new byte[0];

  protected final byte[] row;
  protected final List<Cell> cells = new ArrayList<>();
  /** The cells read-only, made once (a write asks for them several times). */
  private final List<Cell> cellsView = Collections.unmodifiableList(cells);
  private Durability durability = Durability.SYNC;

  protected Mutation(byte[] row) {
    this.row = Row.checkRow(row);
  }

  @Override
  public byte[] row() {
    return row;
  }

  public List<Cell> cells() {
    return cellsView;
  }

  public Durability durability() {
    return durability;
  }

  /** How durable the write is when the call returns (default {@link Durability#SYNC}). */
  public Mutation setDurability(Durability d) {
    if (d == null) {
      throw new InvalidArgumentException("durability must not be null");
    }
    durability = d;
    return this;
  }

  protected static byte[] nonNull(byte[] b, String what) {
    if (b == null) {
      throw new InvalidArgumentException(what + " must not be null");
    }
    return b;
  }

  protected static byte[] orEmpty(byte[] b) {
    return b == null ? EMPTY : b;
  }

  protected static void checkTimestamp(long ts) {
    if (ts < 0) {
      throw new InvalidArgumentException("timestamp must be >= 0, got " + ts);
    }
  }
}
