package io.basaltdb.sql.catalog;

import io.basaltdb.sql.SqlStateException;
import io.basaltdb.sql.SqlStates;
import io.basaltdb.sql.type.ColumnType;
import io.basaltdb.storage.InvalidArgumentException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.sql.Types;
import org.apache.calcite.avatica.util.ByteString;

/**
 * Values checked against their declared SQL types, so that nothing is stored, or compared,
 * as something other than what was given: a string or binary longer than its declared length
 * is refused (SQLState 22001) rather than cut, a number out of its type's range is refused
 * (22003) rather than wrapped, and a DECIMAL that would lose a non-zero digit to its declared
 * scale, or whose integer digits exceed the declared precision minus scale, is refused (22003)
 * rather than rounded: {@code 123.40} fits DECIMAL(4,1) as {@code 123.4}, {@code 123.45} does
 * not (round it in the statement, {@code ROUND(x, 1)} or a CAST, to store it rounded).
 *
 * <p>Two places check: {@link #fit} every value a write stores (whatever computed it), and
 * {@link #checkParameter} every value bound to a prepared statement's parameter, before
 * Calcite's generated code converts it (which casts a {@code long} to an {@code int} and cuts
 * a string to the parameter's length without a word).
 */
public final class ColumnValues {
  private ColumnValues() {}

  /**
   * The row key of a write's input row (full table row): the key columns' values fitted and
   * encoded; for a table without a primary key a new random hidden key ({@code newRow}) or the
   * one the input exposes as its last field (UPDATE, DELETE: BasaltTableModify.exposeHiddenKey).
   */
  public static byte[] rowKey(SqlTableDef def, boolean newRow, Object[] row) {
    if (def.hasHiddenKey()) {
      long id = newRow ? java.util.concurrent.ThreadLocalRandom.current().nextLong()
          : (Long) row[row.length - 1];
      return def.keyCodec().encode(id);
    }
    java.util.List<SqlColumn> cols = def.columns();
    Object[] key = new Object[def.keyColumnCount()];
    for (int i = 0; i < cols.size(); i++) {
      SqlColumn c = cols.get(i);
      if (c.isKey()) {
        if (row[i] == null) {
          throw new io.basaltdb.storage.InvalidArgumentException("primary key column " + c.name()
              + " of " + def.table() + " must not be NULL");
        }
        key[c.keyPosition()] = c.type().toKey(fit(c, row[i]));
      }
    }
    return def.keyCodec().encode(key);
  }

  /** The value as column {@code c} stores it (internal form; null stays null), or an error. */
  public static Object fit(SqlColumn c, Object v) {
    if (v == null) {
      return null;
    }
    return switch (c.type()) {
      case CHAR, VARCHAR -> {
        checkLength(v.toString().length(), c.precision(), c.name());
        yield v;
      }
      case BINARY, VARBINARY -> {
        checkLength(v instanceof ByteString b ? b.length() : ((byte[]) v).length, c.precision(),
            c.name());
        yield v;
      }
      case DECIMAL -> c.precision() < 0 ? v
          : decimal(v, c.precision(), Math.max(0, c.scale()), c.name());
      case ARRAY -> elements(c, v);
      case MAP -> MapCells.fit(c, v);
      default -> v;
    };
  }

  /** An array value with each element as the column's element type stores it. */
  private static java.util.List<Object> elements(SqlColumn c, Object v) {
    SqlColumn element = new SqlColumn(c.name() + " element", c.element(), c.precision(),
        c.scale(), true, -1, false, c.family());
    java.util.List<Object> in = io.basaltdb.sql.type.ArrayCells.coerce(c.element(), v);
    java.util.List<Object> out = new java.util.ArrayList<>(in.size());
    for (Object e : in) {
      out.add(fit(element, e));
    }
    return out;
  }

  /**
   * Refuses a parameter value its declared type cannot hold ({@code sqlType} from
   * {@link java.sql.Types}; {@code precision} 0 or less when not declared).
   */
  public static void checkParameter(int sqlType, int precision, int scale, Object v,
      String what) {
    if (v == null) {
      return;
    }
    switch (sqlType) {
      case Types.TINYINT -> integral(v, Byte.MIN_VALUE, Byte.MAX_VALUE, "TINYINT", what);
      case Types.SMALLINT -> integral(v, Short.MIN_VALUE, Short.MAX_VALUE, "SMALLINT", what);
      case Types.INTEGER -> integral(v, Integer.MIN_VALUE, Integer.MAX_VALUE, "INTEGER", what);
      case Types.BIGINT -> integral(v, Long.MIN_VALUE, Long.MAX_VALUE, "BIGINT", what);
      case Types.DECIMAL, Types.NUMERIC -> {
        if (precision > 0 && v instanceof Number) {
          decimal(v, precision, Math.max(0, scale), what);
        }
      }
      case Types.CHAR, Types.VARCHAR -> {
        if (v instanceof String s) {
          checkLength(s.length(), precision, what);
        }
      }
      case Types.BINARY, Types.VARBINARY -> {
        if (v instanceof byte[] b) {
          checkLength(b.length, precision, what);
        }
      }
      default -> { }
    }
  }

  private static void checkLength(int length, int declared, String what) {
    if (declared > 0 && length > declared) {
      throw new SqlStateException(SqlStates.STRING_TOO_LONG, "value of " + what + " is " + length
          + " long, longer than its declared length " + declared);
    }
  }

  private static BigDecimal decimal(Object v, int precision, int scale, String what) {
    BigDecimal given = v instanceof BigDecimal b ? b : new BigDecimal(v.toString());
    BigDecimal d;
    try {
      d = given.setScale(scale, RoundingMode.UNNECESSARY);
    } catch (ArithmeticException e) {
      throw new SqlStateException(SqlStates.NUMERIC_OUT_OF_RANGE,
          "value " + given.toPlainString() + " of "
          + what + " has more digits after the point than DECIMAL(" + precision + ", " + scale
          + ") keeps (" + scale + "); round it first, e.g. ROUND(x, " + scale + ")");
    }
    if (d.precision() - d.scale() > precision - scale) {
      throw new SqlStateException(SqlStates.NUMERIC_OUT_OF_RANGE,
          "value " + d.toPlainString() + " of "
          + what + " does not fit DECIMAL(" + precision + ", " + scale + ")");
    }
    return d;
  }

  /**
   * Refuses an exact number assigned to an integer or DECIMAL column that would not be stored
   * as given: a fraction for an integer type, out of the type's range, or digits past a
   * DECIMAL's scale (22003, naming the column).
   */
  public static void checkAssignedNumber(SqlColumn c, BigDecimal v) {
    String what = "column " + c.name();
    switch (c.type()) {
      case TINYINT, SMALLINT, INTEGER, BIGINT -> {
        if (v.signum() != 0 && v.stripTrailingZeros().scale() > 0) {
          throw new SqlStateException(SqlStates.NUMERIC_OUT_OF_RANGE,
              "value " + v.toPlainString() + " of "
              + what + " has a fraction; " + c.type() + " keeps whole numbers");
        }
        switch (c.type()) {
          case TINYINT -> integral(v, Byte.MIN_VALUE, Byte.MAX_VALUE, "TINYINT", what);
          case SMALLINT -> integral(v, Short.MIN_VALUE, Short.MAX_VALUE, "SMALLINT", what);
          case INTEGER -> integral(v, Integer.MIN_VALUE, Integer.MAX_VALUE, "INTEGER", what);
          default -> integral(v, Long.MIN_VALUE, Long.MAX_VALUE, "BIGINT", what);
        }
      }
      case DECIMAL -> fit(c, v);
      default -> { }
    }
  }

  /** A number (any Java numeric type; fractions are cut, as Calcite does) within a range. */
  private static void integral(Object v, long min, long max, String type, String what) {
    if (!(v instanceof Number n)) {
      return; // strings and the like: Calcite's conversion decides
    }
    boolean fits;
    if (v instanceof Long || v instanceof Integer || v instanceof Short || v instanceof Byte) {
      fits = n.longValue() >= min && n.longValue() <= max;
    } else {
      BigInteger i = v instanceof BigInteger b ? b
          : v instanceof BigDecimal d ? d.toBigInteger()
          : Double.isFinite(n.doubleValue()) ? new BigDecimal(n.doubleValue()).toBigInteger()
          : null;
      fits = i != null && i.compareTo(BigInteger.valueOf(min)) >= 0
          && i.compareTo(BigInteger.valueOf(max)) <= 0;
    }
    if (!fits) {
      throw new SqlStateException(SqlStates.NUMERIC_OUT_OF_RANGE, "value " + v + " of " + what
          + " out of range for " + type);
    }
  }

  /** {@code a + b} in column type {@code type}: 22003 past its range. */
  public static Object add(ColumnType type, Object a, Object b) {
    try {
      return switch (type) {
        case TINYINT -> (byte) inRange(sum(a, b), Byte.MIN_VALUE, Byte.MAX_VALUE, type);
        case SMALLINT -> (short) inRange(sum(a, b), Short.MIN_VALUE, Short.MAX_VALUE, type);
        case INTEGER -> (int) inRange(sum(a, b), Integer.MIN_VALUE, Integer.MAX_VALUE, type);
        case BIGINT -> sum(a, b);
        case REAL -> (Float) a + ((Number) b).floatValue();
        case DOUBLE -> (Double) a + ((Number) b).doubleValue();
        case DECIMAL -> ((BigDecimal) a).add(new BigDecimal(b.toString()));
        default -> throw new InvalidArgumentException("cannot add to a " + type + " column");
      };
    } catch (ArithmeticException e) {
      throw new SqlStateException(SqlStates.NUMERIC_OUT_OF_RANGE,
          "numeric value out of range for " + type);
    }
  }

  private static long sum(Object a, Object b) {
    return Math.addExact(((Number) a).longValue(), ((Number) b).longValue());
  }

  private static long inRange(long v, long min, long max, ColumnType type) {
    if (v < min || v > max) {
      throw new SqlStateException(SqlStates.NUMERIC_OUT_OF_RANGE,
          "numeric value " + v + " out of range for " + type);
    }
    return v;
  }
}
