package io.basaltdb.sql.type;

import io.basaltdb.storage.InvalidArgumentException;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.apache.calcite.avatica.util.ByteString;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.runtime.SqlFunctions;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * A SQL column type of a Basalt table: its Calcite type, its key encoding, and the byte form
 * of its values in cells (non-key columns): BOOLEAN one byte; TINYINT to BIGINT, DATE, TIME,
 * TIMESTAMP (with or without time zone) big-endian two's complement of their width; REAL/DOUBLE
 * the IEEE bits; DECIMAL its plain decimal string in ASCII; CHAR/VARCHAR UTF-8; BINARY/VARBINARY
 * the bytes; UUID its sixteen bytes. Values are in Calcite's internal form (DATE int days, TIME
 * int ms, TIMESTAMP long ms, bytes ByteString, UUID {@link java.util.UUID}).
 * The codes are stored in the SQL catalog: frozen. An ARRAY column converts its values itself
 * ({@link ArrayCells}, with its element type).
 */
public enum ColumnType {
  BOOLEAN(1, SqlTypeName.BOOLEAN, KeyType.BOOLEAN),
  TINYINT(2, SqlTypeName.TINYINT, KeyType.TINYINT),
  SMALLINT(3, SqlTypeName.SMALLINT, KeyType.SMALLINT),
  INTEGER(4, SqlTypeName.INTEGER, KeyType.INTEGER),
  BIGINT(5, SqlTypeName.BIGINT, KeyType.BIGINT),
  REAL(6, SqlTypeName.REAL, KeyType.REAL),
  DOUBLE(7, SqlTypeName.DOUBLE, KeyType.DOUBLE),
  DECIMAL(8, SqlTypeName.DECIMAL, KeyType.DECIMAL),
  CHAR(9, SqlTypeName.CHAR, KeyType.VARCHAR),
  VARCHAR(10, SqlTypeName.VARCHAR, KeyType.VARCHAR),
  BINARY(11, SqlTypeName.BINARY, KeyType.VARBINARY),
  VARBINARY(12, SqlTypeName.VARBINARY, KeyType.VARBINARY),
  DATE(13, SqlTypeName.DATE, KeyType.DATE),
  TIME(14, SqlTypeName.TIME, KeyType.TIME),
  TIMESTAMP(15, SqlTypeName.TIMESTAMP, KeyType.TIMESTAMP),
  /**
   * An array of values of one element type (the column's {@code element}): never a key; its
   * cell and value forms are the column's ({@link ArrayCells}), not this type's.
   */
  ARRAY(16, SqlTypeName.ARRAY, null),
  /**
   * A family's cells other than its declared columns', qualifier (as text) to value (bytes):
   * a hybrid family; never a key. Its value is many cells ({@link ArrayCells}'s sibling in
   * {@code catalog.CellNames}), not one.
   */
  MAP(17, SqlTypeName.MAP, null),
  /**
   * {@code TIMESTAMP WITH TIME ZONE}: an instant, as PostgreSQL's {@code timestamptz} (the
   * offset a value was written with is not kept; it reads back at UTC). Calcite's
   * {@code TIMESTAMP WITH LOCAL TIME ZONE} inside: milliseconds since the epoch, UTC; stored
   * as TIMESTAMP is.
   */
  TIMESTAMP_TZ(18, SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE, KeyType.TIMESTAMP),
  /**
   * A UUID: sixteen bytes in cells; in keys ordered as Java's {@code UUID.compareTo} (signed
   * halves), the order Calcite's comparisons and sorts use.
   */
  UUID(19, SqlTypeName.UUID, KeyType.UUID);

  private final int code;
  private final SqlTypeName sqlType;
  private final KeyType keyType;

  ColumnType(int code, SqlTypeName sqlType, KeyType keyType) {
    this.code = code;
    this.sqlType = sqlType;
    this.keyType = keyType;
  }

  /**
   * Type names other databases use, and the type each means there: {@code TEXT}, {@code STRING},
   * {@code CLOB} VARCHAR; {@code BLOB}, {@code BYTEA} VARBINARY; {@code INT2/INT4/INT8},
   * {@code BOOL} and {@code BIT} (H2, SQL Server), {@code FLOAT4/FLOAT8}; {@code DATETIME}
   * TIMESTAMP. DDL and CAST accept them ({@code FLOAT(p)} in DDL: REAL up to 24 bits, else
   * DOUBLE, as the standard and PostgreSQL read it).
   */
  public static final java.util.Map<String, ColumnType> ALIASES = java.util.Map.ofEntries(
      java.util.Map.entry("TEXT", VARCHAR), java.util.Map.entry("STRING", VARCHAR),
      java.util.Map.entry("CLOB", VARCHAR), java.util.Map.entry("BLOB", VARBINARY),
      java.util.Map.entry("BYTEA", VARBINARY), java.util.Map.entry("INT2", SMALLINT),
      java.util.Map.entry("INT4", INTEGER), java.util.Map.entry("INT8", BIGINT),
      java.util.Map.entry("BOOL", BOOLEAN), java.util.Map.entry("BIT", BOOLEAN),
      java.util.Map.entry("FLOAT4", REAL),
      java.util.Map.entry("FLOAT8", DOUBLE), java.util.Map.entry("DATETIME", TIMESTAMP));

  /**
   * The Java class of this type's values as a row holds them, where it is JDBC's too (the
   * numbers, BOOLEAN, text); Object for the others (dates are numbers inside).
   */
  public Class<?> valueClass() {
    return switch (this) {
      case TINYINT -> Byte.class;
      case SMALLINT -> Short.class;
      case INTEGER -> Integer.class;
      case BIGINT -> Long.class;
      case REAL -> Float.class;
      case DOUBLE -> Double.class;
      case DECIMAL -> java.math.BigDecimal.class;
      case BOOLEAN -> Boolean.class;
      case VARCHAR, CHAR -> String.class;
      case UUID -> java.util.UUID.class;
      default -> Object.class;
    };
  }

  /** The type's name in SQL ({@code TIMESTAMP WITH TIME ZONE}; the others their own name). */
  public String sqlName() {
    return this == TIMESTAMP_TZ ? "TIMESTAMP WITH TIME ZONE" : name();
  }

  public int code() {
    return code;
  }

  public KeyType keyType() {
    return keyType;
  }

  public SqlTypeName sqlType() {
    return sqlType;
  }

  public static ColumnType ofCode(int code) {
    for (ColumnType t : values()) {
      if (t.code == code) {
        return t;
      }
    }
    throw new InvalidArgumentException("unknown column type code " + code);
  }

  /** The Calcite type, with precision and scale where the type takes them (-1 = default). */
  public RelDataType relType(RelDataTypeFactory f, int precision, int scale, boolean nullable) {
    if (this == ARRAY || this == MAP) {
      throw arrayValue();
    }
    RelDataType t;
    if (sqlType.allowsPrecScale(true, true) && precision >= 0 && scale >= 0) {
      t = f.createSqlType(sqlType, precision, scale);
    } else if (sqlType.allowsPrecNoScale() && precision >= 0) {
      t = f.createSqlType(sqlType, precision);
    } else {
      t = f.createSqlType(sqlType);
    }
    return f.createTypeWithNullability(t, nullable);
  }

  /** The value's bytes in a cell. */
  public byte[] toCell(Object v) {
    return switch (this) {
      case BOOLEAN -> new byte[] {(byte) ((Boolean) v ? 1 : 0)};
      case TINYINT -> new byte[] {((Number) v).byteValue()};
      case SMALLINT -> RowKeyCodec.fixed(((Number) v).shortValue(), 2);
      case INTEGER, DATE, TIME -> RowKeyCodec.fixed(((Number) v).intValue(), 4);
      case BIGINT, TIMESTAMP, TIMESTAMP_TZ -> RowKeyCodec.fixed(((Number) v).longValue(), 8);
      case REAL -> RowKeyCodec.fixed(Float.floatToRawIntBits(((Number) v).floatValue()), 4);
      case DOUBLE -> RowKeyCodec.fixed(Double.doubleToRawLongBits(((Number) v).doubleValue()), 8);
      case DECIMAL -> decimalCell(v instanceof BigDecimal d ? d : new BigDecimal(v.toString()));
      case CHAR, VARCHAR -> Utf8.encode(v.toString(), this::valueLabel);
      case BINARY, VARBINARY -> v instanceof ByteString b ? b.getBytes() : (byte[]) v;
      case UUID -> uuidCell((java.util.UUID) v);
      case ARRAY, MAP -> throw arrayValue();
    };
  }

  private String valueLabel() {
    return "a " + this + " value";
  }

  private static byte[] uuidCell(java.util.UUID u) {
    byte[] b = new byte[16];
    RowKeyCodec.fixedInto(b, 0, u.getMostSignificantBits(), 8);
    RowKeyCodec.fixedInto(b, 8, u.getLeastSignificantBits(), 8);
    return b;
  }

  /**
   * A DECIMAL cell: {@code toPlainString()} in ASCII. A value of at most 18 digits and a scale
   * of 0 to 18 is written digit by digit from its unscaled long (the same bytes, without the
   * string and its builder); any other through the string.
   */
  static byte[] decimalCell(BigDecimal d) {
    int scale = d.scale();
    if (scale < 0 || scale > 18 || d.precision() > 18) {
      return d.toPlainString().getBytes(StandardCharsets.US_ASCII);
    }
    long unscaled = d.unscaledValue().longValue();
    boolean negative = unscaled < 0;
    long abs = Math.abs(unscaled);
    int whole = Math.max(d.precision() - scale, 1); // digits before the point: at least "0"
    int length = (negative ? 1 : 0) + whole + (scale > 0 ? 1 + scale : 0);
    byte[] b = new byte[length];
    int at = length;
    for (int i = 0; i < scale; i++) {
      b[--at] = (byte) ('0' + abs % 10);
      abs /= 10;
    }
    if (scale > 0) {
      b[--at] = '.';
    }
    do {
      b[--at] = (byte) ('0' + abs % 10);
      abs /= 10;
    } while (abs != 0);
    if (negative) {
      b[--at] = '-';
    }
    return b;
  }

  private static IllegalStateException arrayValue() {
    return new IllegalStateException("an ARRAY value is converted by its column, which knows "
        + "its element type");
  }

  /** A cell's bytes back as a value (Calcite's internal form). */
  public Object fromCell(byte[] b) {
    ByteBuffer bb = ByteBuffer.wrap(b);
    return switch (this) {
      case BOOLEAN -> b[0] != 0;
      case TINYINT -> b[0];
      case SMALLINT -> bb.getShort();
      case INTEGER, DATE, TIME -> bb.getInt();
      case BIGINT, TIMESTAMP, TIMESTAMP_TZ -> bb.getLong();
      case REAL -> bb.getFloat();
      case DOUBLE -> bb.getDouble();
      case DECIMAL -> decimalOf(b);
      case CHAR, VARCHAR -> new String(b, StandardCharsets.UTF_8);
      case BINARY, VARBINARY -> new ByteString(b);
      case UUID -> new java.util.UUID(bb.getLong(), bb.getLong());
      case ARRAY, MAP -> throw arrayValue();
    };
  }

  /**
   * A DECIMAL cell (its plain string, ASCII) as the value {@code new BigDecimal(text)} gives:
   * up to 18 digits read straight into an unscaled long with the digits after the point as
   * scale, without building the string; anything else (more digits, an exponent) parsed as text.
   */
  static BigDecimal decimalOf(byte[] b) {
    int i = 0;
    boolean negative = false;
    if (b.length > 0 && (b[0] == '-' || b[0] == '+')) {
      negative = b[0] == '-';
      i = 1;
    }
    long unscaled = 0;
    int digits = 0;
    int scale = -1;
    for (; i < b.length; i++) {
      int c = b[i];
      if (c >= '0' && c <= '9') {
        if (++digits > 18) {
          return decimalText(b);
        }
        unscaled = unscaled * 10 + (c - '0');
        if (scale >= 0) {
          scale++;
        }
      } else if (c == '.' && scale < 0) {
        scale = 0;
      } else {
        return decimalText(b);
      }
    }
    if (digits == 0) {
      return decimalText(b); // its error
    }
    return BigDecimal.valueOf(negative ? -unscaled : unscaled, Math.max(scale, 0));
  }

  private static BigDecimal decimalText(byte[] b) {
    return new BigDecimal(new String(b, StandardCharsets.US_ASCII));
  }

  /**
   * A value bound at execution time (a statement parameter) in this type's internal form,
   * converted as Calcite converts parameters in its own generated code, so pushed-down
   * predicates see the same value Calcite would; null stays null.
   */
  public Object coerce(Object v) {
    if (v == null) {
      return null;
    }
    return switch (this) {
      case BOOLEAN -> SqlFunctions.toBoolean(v);
      case TINYINT -> SqlFunctions.toByte(v);
      case SMALLINT -> SqlFunctions.toShort(v);
      case INTEGER -> SqlFunctions.toInt(v);
      case DATE -> v instanceof java.sql.Date d ? SqlFunctions.toInt(d) : SqlFunctions.toInt(v);
      case TIME -> v instanceof java.sql.Time t ? SqlFunctions.toInt(t) : SqlFunctions.toInt(v);
      case BIGINT -> SqlFunctions.toLong(v);
      case TIMESTAMP, TIMESTAMP_TZ -> v instanceof java.util.Date d ? SqlFunctions.toLong(d)
          : SqlFunctions.toLong(v);
      case UUID -> v instanceof java.util.UUID u ? u : java.util.UUID.fromString(v.toString());
      case REAL -> SqlFunctions.toFloat(v);
      case DOUBLE -> SqlFunctions.toDouble(v);
      case DECIMAL -> SqlFunctions.toBigDecimal(v);
      case CHAR, VARCHAR -> v.toString();
      case BINARY, VARBINARY -> v instanceof byte[] b ? new ByteString(b) : (ByteString) v;
      case ARRAY, MAP -> throw arrayValue();
    };
  }

  /**
   * Compares two non-null values of this type in internal form as Calcite's generated code
   * does ({@code compareTo} of the boxed values), so a predicate evaluated in an engine filter
   * agrees with the same predicate evaluated by Calcite.
   */
  @SuppressWarnings({"unchecked", "rawtypes"})
  public int compare(Object a, Object b) {
    return ((Comparable) a).compareTo(b);
  }

  /** A key value (from the row-key codec) in Calcite's internal form. */
  public Object fromKey(Object keyValue) {
    return keyValue instanceof byte[] b ? new ByteString(b) : keyValue;
  }

  /** A value in Calcite's internal form as the row-key codec takes it. */
  public Object toKey(Object v) {
    return v instanceof ByteString b ? b.getBytes() : v;
  }
}
