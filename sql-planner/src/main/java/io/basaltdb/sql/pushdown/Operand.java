package io.basaltdb.sql.pushdown;

import io.basaltdb.sql.SqlStates;
import io.basaltdb.sql.type.ColumnType;
import java.util.List;
import org.apache.calcite.DataContext;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexDynamicParam;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlKind;

/**
 * A value a pushed-down predicate compares a column with: a constant known when the query is
 * planned, or a statement parameter ({@code ?}) bound only when it executes. Plans hold
 * operands, never bound values, so a prepared statement is planned once and every execution
 * computes its key ranges and filters from that execution's parameters. A parameter of an
 * integral type may carry a constant addend ({@code ? + 100}, {@code ? - 1}): the bound value
 * is the parameter's plus it, refused with 22003 outside the type's range. Immutable.
 */
public final class Operand {
  private final ColumnType type;
  private final Object constant; // internal form; meaningful when param < 0
  private final int param;
  /** A parameter's value is negated ({@code c - ?} as an increment). */
  private final boolean negated;
  /** Added to a parameter's (possibly negated) value: {@code ? + 100}; 0 for none. */
  private final long addend;

  private Operand(ColumnType type, Object constant, int param) {
    this(type, constant, param, false, 0);
  }

  private Operand(ColumnType type, Object constant, int param, boolean negated, long addend) {
    this.type = type;
    this.constant = constant;
    this.param = param;
    this.negated = negated;
    this.addend = addend;
  }

  /**
   * The negated operand (a number); a constant out of its type's range when negated is
   * refused with 22003 when planned, a parameter's when bound.
   */
  public Operand negate() {
    if (param >= 0 && addend == Long.MIN_VALUE) {
      throw new io.basaltdb.sql.SqlStateException(SqlStates.NUMERIC_OUT_OF_RANGE,
          "numeric value out of range: -("
          + addend + ")");
    }
    return param >= 0 ? new Operand(type, null, param, !negated, -addend)
        : new Operand(type, negate(constant), -1, false, 0);
  }

  private static Object negate(Object v) {
    try {
      if (v == null) {
        return null;
      } else if (v instanceof java.math.BigDecimal d) {
        return d.negate();
      } else if (v instanceof Double d) {
        return -d;
      } else if (v instanceof Float f) {
        return -f;
      } else if (v instanceof Long l) {
        return Math.negateExact(l);
      } else if (v instanceof Integer i) {
        return Math.negateExact(i);
      } else if (v instanceof Short h) {
        return h == Short.MIN_VALUE ? overflow(v) : (Object) (short) -h;
      } else if (v instanceof Byte b) {
        return b == Byte.MIN_VALUE ? overflow(v) : (Object) (byte) -b;
      }
      throw new IllegalArgumentException("cannot negate " + v);
    } catch (ArithmeticException e) {
      return overflow(v);
    }
  }

  private static Object overflow(Object v) {
    throw new io.basaltdb.sql.SqlStateException(SqlStates.NUMERIC_OUT_OF_RANGE,
        "numeric value out of range: -(" + v
        + ")");
  }

  /**
   * The operand for {@code node} compared with a column of {@code type}: a non-null literal
   * of the column's type, or a parameter (possibly cast); else null (not pushable).
   */
  public static Operand of(RexNode node, ColumnType type) {
    if (type == ColumnType.ARRAY || type == ColumnType.MAP) {
      return null; // arrays are compared and written by Calcite's code, not pushed
    }
    RexNode n = node;
    if (n.getKind() == SqlKind.CAST && ((RexCall) n).getOperands().get(0)
        instanceof RexDynamicParam) {
      n = ((RexCall) n).getOperands().get(0);
    }
    if (n instanceof RexDynamicParam p) {
      return new Operand(type, null, p.getIndex());
    }
    if (n.getKind() == SqlKind.CAST && integral(type)
        && ((RexCall) n).getOperands().get(0) instanceof RexCall sum
        && sum.getKind().belongsTo(ARITHMETIC)) {
      n = sum; // ? + 100 typed as the literal, then cast to the column's type: its range rules
    }
    boolean plus = n.getKind() == SqlKind.PLUS || n.getKind() == SqlKind.CHECKED_PLUS;
    boolean minus = n.getKind() == SqlKind.MINUS || n.getKind() == SqlKind.CHECKED_MINUS;
    if ((plus || minus) && integral(type)) {
      // a parameter plus or minus an integer constant, in either order for PLUS
      List<RexNode> ops = ((RexCall) n).getOperands();
      for (int i = 0; i < 2; i++) {
        Operand p = of(ops.get(i), type);
        RexNode other = ops.get(1 - i);
        if (p != null && p.isParameter() && p.addend == 0 && !p.negated
            && other instanceof RexLiteral l && !l.isNull()
            && (i == 0 || plus)) {
          Long k = exactLong(l);
          if (k == null || (minus && k == Long.MIN_VALUE)) {
            return null;
          }
          return new Operand(type, null, p.param, false, plus ? k : -k);
        }
      }
      return null;
    }
    if (n instanceof RexLiteral l && !l.isNull()
        && l.getType().getSqlTypeName().getFamily() == typeFamily(type)) {
      Object v = literalValue(l, type);
      return v == null ? null : new Operand(type, v, -1);
    }
    return null;
  }

  private static final java.util.Set<SqlKind> ARITHMETIC = java.util.EnumSet.of(SqlKind.PLUS,
      SqlKind.CHECKED_PLUS, SqlKind.MINUS, SqlKind.CHECKED_MINUS);

  private static boolean integral(ColumnType t) {
    return t == ColumnType.TINYINT || t == ColumnType.SMALLINT || t == ColumnType.INTEGER
        || t == ColumnType.BIGINT;
  }

  /** An exact integer literal's value, or null (fractional, or beyond a long). */
  private static Long exactLong(RexLiteral l) {
    try {
      java.math.BigDecimal d = l.getValueAs(java.math.BigDecimal.class);
      return d == null ? null : d.longValueExact();
    } catch (RuntimeException e) {
      return null;
    }
  }

  /** {@code v} (an integral value of this operand's type, or null) plus the addend. */
  private Object add(Object v) {
    if (addend == 0 || v == null) {
      return v;
    }
    long max = switch (type) {
      case TINYINT -> Byte.MAX_VALUE;
      case SMALLINT -> Short.MAX_VALUE;
      case INTEGER -> Integer.MAX_VALUE;
      default -> Long.MAX_VALUE;
    };
    try {
      long sum = Math.addExact(((Number) v).longValue(), addend);
      if (sum <= max && sum >= -max - 1) {
        return type.coerce(sum);
      }
    } catch (ArithmeticException beyondLong) {
      // refused below
    }
    throw new io.basaltdb.sql.SqlStateException(SqlStates.NUMERIC_OUT_OF_RANGE,
        "numeric value out of range: " + v
        + (addend > 0 ? " + " + addend : " - " + -addend) + " for " + type);
  }

  /** A constant operand (a value in the type's internal form). */
  public static Operand constant(ColumnType type, Object value) {
    return new Operand(type, value, -1);
  }

  private static org.apache.calcite.sql.type.SqlTypeFamily typeFamily(ColumnType t) {
    return t.sqlType().getFamily();
  }

  /** A literal's value in the internal form of a column type, or null when it does not fit. */
  static Object literalValue(RexLiteral l, ColumnType t) {
    try {
      Object v = switch (t) {
        case BOOLEAN -> l.getValueAs(Boolean.class);
        case TINYINT -> l.getValueAs(Byte.class);
        case SMALLINT -> l.getValueAs(Short.class);
        case INTEGER, DATE, TIME -> l.getValueAs(Integer.class);
        case BIGINT, TIMESTAMP, TIMESTAMP_TZ -> l.getValueAs(Long.class);
        case UUID -> l.getValueAs(java.util.UUID.class);
        case REAL -> l.getValueAs(Float.class);
        case DOUBLE -> l.getValueAs(Double.class);
        case DECIMAL -> l.getValueAs(java.math.BigDecimal.class);
        case CHAR, VARCHAR -> l.getValueAs(String.class);
        case BINARY, VARBINARY -> l.getValueAs(org.apache.calcite.avatica.util.ByteString.class);
        case ARRAY, MAP -> null;
      };
      // an integral column compared with a fractional literal: exactness would be lost
      if (v instanceof Number num && !(v instanceof java.math.BigDecimal)
          && !(v instanceof Float) && !(v instanceof Double)
          && l.getType().getSqlTypeName().getFamily()
              == org.apache.calcite.sql.type.SqlTypeFamily.NUMERIC) {
        java.math.BigDecimal exact = l.getValueAs(java.math.BigDecimal.class);
        if (exact != null && exact.compareTo(java.math.BigDecimal.valueOf(num.longValue())) != 0) {
          return null;
        }
      }
      return v;
    } catch (RuntimeException e) {
      return null;
    }
  }

  public boolean isParameter() {
    return param >= 0;
  }

  /** The value for one execution (null when a parameter is bound to NULL). */
  public Object bind(DataContext ctx) {
    return bind(ctx, 0);
  }

  /**
   * The value with parameter {@code ?i} read as {@code ?(i + offset)}: the same row of a
   * statement of several rows of parameters, at the row whose first parameter is {@code offset}.
   */
  public Object bind(DataContext ctx, int offset) {
    if (param < 0) {
      return constant;
    }
    if (ctx == null) {
      throw new IllegalStateException("parameter ?" + param + " has no value at plan time");
    }
    Object v = type.coerce(ctx.get(parameterName(param + offset)));
    return add(negated ? negate(v) : v);
  }

  private static final String[] NAMES = new String[256];

  static {
    for (int i = 0; i < NAMES.length; i++) {
      NAMES[i] = "?" + i;
    }
  }

  /** The data-context name of parameter {@code i} ({@code ?i}), made once for the first 256. */
  static String parameterName(int i) {
    return i < NAMES.length ? NAMES[i] : "?" + i;
  }

  /** The value for one execution given all its parameters' values (Calcite's local form). */
  public Object bindAll(List<?> params) {
    if (param < 0) {
      return constant;
    }
    Object v = type.coerce(params.get(param));
    return add(negated ? negate(v) : v);
  }

  @Override
  public String toString() {
    if (param >= 0) {
      return (negated ? "-?" : "?") + param
          + (addend == 0 ? "" : addend > 0 ? "+" + addend : String.valueOf(addend));
    }
    return constant instanceof String s ? "'" + s.replace("'", "''") + "'"
        : String.valueOf(constant);
  }
}
