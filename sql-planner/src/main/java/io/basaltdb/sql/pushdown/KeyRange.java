package io.basaltdb.sql.pushdown;

import java.util.Arrays;
import java.util.HexFormat;

/** A row-key range {@code [start, stop)} of an engine scan (empty = unbounded). Immutable. */
public record KeyRange(byte[] start, byte[] stop) {
  public static final KeyRange ALL = new KeyRange(new byte[0], new byte[0]);

  /** True when no key can be in the range. */
  public boolean isEmpty() {
    return stop.length > 0 && Arrays.compareUnsigned(start, stop) >= 0;
  }

  /** The smallest key after every key starting with {@code prefix} (empty: none). */
  public static byte[] prefixEnd(byte[] prefix) {
    byte[] end = Arrays.copyOf(prefix, prefix.length);
    for (int i = end.length - 1; i >= 0; i--) {
      if (end[i] != (byte) 0xff) {
        end[i]++;
        return Arrays.copyOf(end, i + 1);
      }
    }
    return new byte[0];
  }

  @Override
  public String toString() {
    return "[" + HexFormat.of().formatHex(start) + ", " + HexFormat.of().formatHex(stop) + ")";
  }
}
