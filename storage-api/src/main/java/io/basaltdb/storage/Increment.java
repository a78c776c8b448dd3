package io.basaltdb.storage;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Adds to 8-byte big-endian long counters of one row, atomically; the result holds the new
 * values. A missing counter counts from 0; a cell that is not 8 bytes is refused, and so is a
 * sum out of a long's range ({@link CounterOverflowException}); either way nothing is written.
 */
public final class Increment extends Mutation {
  private final Map<Column, Long> amounts = new LinkedHashMap<>();

  /** A family and qualifier. */
  public record Column(byte[] family, byte[] qualifier) {
    @Override
    public boolean equals(Object o) {
      return o instanceof Column c && java.util.Arrays.equals(family, c.family)
          && java.util.Arrays.equals(qualifier, c.qualifier);
    }

    @Override
    public int hashCode() {
      return java.util.Arrays.hashCode(family) * 31 + java.util.Arrays.hashCode(qualifier);
    }
  }

  public Increment(byte[] row) {
    super(row);
  }

  public Increment addColumn(byte[] family, byte[] qualifier, long amount) {
    amounts.merge(new Column(nonNull(family, "family"), orEmpty(qualifier)), amount, Long::sum);
    return this;
  }

  public Map<Column, Long> amounts() {
    return java.util.Collections.unmodifiableMap(amounts);
  }

  public static byte[] toBytes(long v) {
    byte[] b = new byte[8];
    for (int i = 7; i >= 0; i--) {
      b[i] = (byte) v;
      v >>>= 8;
    }
    return b;
  }

  public static long toLong(byte[] b) {
    if (b.length != 8) {
      throw new InvalidArgumentException("a counter is an 8-byte big-endian long, got "
          + b.length + " bytes");
    }
    long v = 0;
    for (byte x : b) {
      v = (v << 8) | (x & 0xff);
    }
    return v;
  }

  @Override
  public Increment setDurability(Durability d) {
    super.setDurability(d);
    return this;
  }
}
