package io.basaltdb.storage.filter;

import io.basaltdb.storage.CompareOperator;
import java.util.List;

/**
 * A condition a {@link Filter} states as data ({@link Filter#spec()}), so that a storage which
 * cannot run Basalt's filter objects where the rows are (HBase's region servers) can still test
 * it there with its own filters. A spec is exact or weaker than its filter, never stricter: the
 * filter itself still decides every row, the spec only spares moving rows it rejects.
 */
public sealed interface FilterSpec {
  /** How a cell's bytes order as values. */
  enum Order {
    /** Equal bytes are equal values, nothing more: only = and <> may be tested. */
    EQUALITY,
    /** Unsigned byte order is value order (UTF-8 of ASCII-only values, unsigned keys). */
    BYTES,
    /** 8-byte big-endian two's-complement longs (BIGINT, TIMESTAMP, counters). */
    SIGNED_LONG
  }

  /**
   * The newest cell of {@code family:qualifier} exists and {@code stored op value}; a row
   * without the cell fails.
   */
  record ColumnValue(byte[] family, byte[] qualifier, CompareOperator op, byte[] value,
      Order order) implements FilterSpec {
    public ColumnValue {
      if (order == Order.EQUALITY && op != CompareOperator.EQUAL
          && op != CompareOperator.NOT_EQUAL) {
        throw new IllegalArgumentException("only = and <> compare by equality, not " + op);
      }
    }
  }

  /** Every condition holds. */
  record AllOf(List<FilterSpec> specs) implements FilterSpec {}

  /** At least one condition holds. */
  record AnyOf(List<FilterSpec> specs) implements FilterSpec {}
}
