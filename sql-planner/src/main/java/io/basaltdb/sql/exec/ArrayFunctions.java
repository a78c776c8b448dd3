package io.basaltdb.sql.exec;

import java.util.List;

/**
 * Phoenix's array functions that the standard's have no name for, as functions of the root
 * schema: {@code ARRAY_LENGTH(arr)} (the standard's {@code CARDINALITY}). Called by generated
 * code.
 */
public final class ArrayFunctions {
  private ArrayFunctions() {}

  /** The number of elements of {@code array} (NULL ones too); NULL for a NULL array. */
  public static Integer arrayLength(List<?> array) {
    return array == null ? null : array.size();
  }
}
