package io.basaltdb.sql.pushdown;

import io.basaltdb.storage.CompareOperator;
import io.basaltdb.storage.filter.FilterSpec;
import io.basaltdb.storage.filter.FilterSpec.Order;
import io.basaltdb.sql.catalog.SqlColumn;
import io.basaltdb.sql.catalog.SqlTableDef;
import java.nio.charset.StandardCharsets;

/**
 * Which pushed comparisons a storage can test on a cell's raw bytes exactly
 * ({@link FilterSpec}), given how Basalt encodes cell values: a BIGINT or TIMESTAMP is an
 * 8-byte signed long (any comparison); other integers, DATE, TIME and BOOLEAN are fixed-width
 * two's complement, where only equality of bytes is equality of values; a VARCHAR is UTF-8,
 * whose byte order is Java's string order when the operand is ASCII (the first difference then
 * orders the same either way), else only equality holds. Cells of packed families, key columns
 * and every other type (DOUBLE, DECIMAL text, binaries) give none: their filters run alone.
 */
final class CellConditions {
  private CellConditions() {}

  /** {@code column op operand} as a cell condition, or null when bytes cannot say it. */
  static FilterSpec compare(SqlTableDef def, int column, CompareOperator op, Object operand) {
    SqlColumn c = def.columns().get(column);
    if (c.isKey() || def.packed() || operand == null) {
      return null;
    }
    boolean equality = op == CompareOperator.EQUAL || op == CompareOperator.NOT_EQUAL;
    switch (c.type()) {
      case BIGINT, TIMESTAMP -> {
        return integral(operand) ? cell(def, c, op, c.type().toCell(operand), Order.SIGNED_LONG)
            : null;
      }
      case TINYINT, SMALLINT, INTEGER, DATE, TIME -> {
        if (!equality || !integral(operand) || !fits(c, ((Number) operand).longValue())) {
          return null;
        }
        return cell(def, c, op, c.type().toCell(operand), Order.EQUALITY);
      }
      case BOOLEAN -> {
        return equality && operand instanceof Boolean
            ? cell(def, c, op, c.type().toCell(operand), Order.EQUALITY) : null;
      }
      case VARCHAR -> {
        if (!(operand instanceof String s)) {
          return null;
        }
        byte[] utf8 = s.getBytes(StandardCharsets.UTF_8);
        if (equality) {
          return cell(def, c, op, utf8, Order.EQUALITY);
        }
        return utf8.length == s.length() ? cell(def, c, op, utf8, Order.BYTES) : null; // ASCII
      }
      default -> {
        return null;
      }
    }
  }

  /** {@code column IS NOT NULL}: its cell exists (any value is at least the empty one). */
  static FilterSpec present(SqlTableDef def, int column) {
    SqlColumn c = def.columns().get(column);
    return c.isKey() || def.packed() ? null
        : cell(def, c, CompareOperator.GREATER_OR_EQUAL, new byte[0], Order.BYTES);
  }

  private static FilterSpec cell(SqlTableDef def, SqlColumn c, CompareOperator op, byte[] value,
      Order order) {
    return new FilterSpec.ColumnValue(c.family().getBytes(StandardCharsets.UTF_8),
        c.name().getBytes(StandardCharsets.UTF_8), op, value, order);
  }

  private static boolean integral(Object v) {
    return v instanceof Long || v instanceof Integer || v instanceof Short || v instanceof Byte;
  }

  private static boolean fits(SqlColumn c, long v) {
    return switch (c.type()) {
      case TINYINT -> v >= Byte.MIN_VALUE && v <= Byte.MAX_VALUE;
      case SMALLINT -> v >= Short.MIN_VALUE && v <= Short.MAX_VALUE;
      default -> v >= Integer.MIN_VALUE && v <= Integer.MAX_VALUE;
    };
  }
}
