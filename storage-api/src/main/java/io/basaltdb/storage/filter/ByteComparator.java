package io.basaltdb.storage.filter;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.regex.Pattern;

/**
 * Compares a stored byte array (row, family, qualifier or value) with an operand, returning
 * {@code <0, 0, >0} as the stored bytes sort before, equal or after it. For the text
 * comparators, 0 means "matches" and 1 "does not match" (only EQUAL and NOT_EQUAL make sense
 * with them), as in HBase.
 */
public abstract class ByteComparator {
  public abstract int compareTo(byte[] stored);

  /** Unsigned byte order against {@code operand}. */
  public static ByteComparator binary(byte[] operand) {
    return new ByteComparator() {
      @Override
      public int compareTo(byte[] stored) {
        return Arrays.compareUnsigned(stored, operand);
      }
    };
  }

  /** Compares only the first {@code operand.length} bytes of the stored value. */
  public static ByteComparator binaryPrefix(byte[] operand) {
    return new ByteComparator() {
      @Override
      public int compareTo(byte[] stored) {
        int n = Math.min(stored.length, operand.length);
        int c = Arrays.compareUnsigned(stored, 0, n, operand, 0, n);
        return c != 0 ? c : (stored.length < operand.length ? -1 : 0);
      }
    };
  }

  /** 0 when the stored bytes, as UTF-8 text, contain a match of {@code regex}. */
  public static ByteComparator regex(String regex) {
    Pattern p = Pattern.compile(regex, Pattern.DOTALL);
    return new ByteComparator() {
      @Override
      public int compareTo(byte[] stored) {
        return p.matcher(new String(stored, StandardCharsets.UTF_8)).find() ? 0 : 1;
      }
    };
  }

  /** 0 when the stored bytes, as UTF-8 text, contain {@code substring} (case-insensitive). */
  public static ByteComparator substring(String substring) {
    String needle = substring.toLowerCase(java.util.Locale.ROOT);
    return new ByteComparator() {
      @Override
      public int compareTo(byte[] stored) {
        return new String(stored, StandardCharsets.UTF_8).toLowerCase(java.util.Locale.ROOT)
            .contains(needle) ? 0 : 1;
      }
    };
  }

  /** True when {@code stored <op> operand} holds. */
  public boolean test(io.basaltdb.storage.CompareOperator op, byte[] stored) {
    return op.holdsFor(compareTo(stored));
  }
}
