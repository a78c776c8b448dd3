package io.basaltdb.storage;

import java.util.LinkedHashMap;
import java.util.Map;

/** Appends bytes to cells of one row, atomically; the result holds the new values. */
public final class Append extends Mutation {
  private final Map<Increment.Column, byte[]> suffixes = new LinkedHashMap<>();

  public Append(byte[] row) {
    super(row);
  }

  public Append addColumn(byte[] family, byte[] qualifier, byte[] suffix) {
    suffixes.merge(new Increment.Column(nonNull(family, "family"), orEmpty(qualifier)),
        nonNull(suffix, "value"), (a, b) -> {
          byte[] c = java.util.Arrays.copyOf(a, a.length + b.length);
          System.arraycopy(b, 0, c, a.length, b.length);
          return c;
        });
    return this;
  }

  public Map<Increment.Column, byte[]> suffixes() {
    return java.util.Collections.unmodifiableMap(suffixes);
  }

  @Override
  public Append setDurability(Durability d) {
    super.setDurability(d);
    return this;
  }
}
