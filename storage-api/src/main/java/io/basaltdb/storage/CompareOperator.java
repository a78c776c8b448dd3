package io.basaltdb.storage;

import java.util.Arrays;

/** How a stored value compares with a given one (unsigned bytes), as HBase's operators. */
public enum CompareOperator {
  LESS, LESS_OR_EQUAL, EQUAL, NOT_EQUAL, GREATER_OR_EQUAL, GREATER;

  /** True when {@code stored <op> given}. */
  public boolean test(byte[] stored, byte[] given) {
    return holdsFor(Arrays.compareUnsigned(stored, given));
  }

  /** True when a comparison result {@code c} (stored versus given) satisfies the operator. */
  public boolean holdsFor(int c) {
    return switch (this) {
      case LESS -> c < 0;
      case LESS_OR_EQUAL -> c <= 0;
      case EQUAL -> c == 0;
      case NOT_EQUAL -> c != 0;
      case GREATER_OR_EQUAL -> c >= 0;
      case GREATER -> c > 0;
    };
  }
}
