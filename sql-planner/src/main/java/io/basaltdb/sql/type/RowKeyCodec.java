package io.basaltdb.sql.type;

import io.basaltdb.storage.InvalidArgumentException;
import io.basaltdb.storage.hash.Murmur3;
import java.io.ByteArrayOutputStream;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Encodes primary-key tuples into engine row keys whose unsigned byte order equals SQL order,
 * and decodes them back ({@code sql-planner/doc/row-key-encoding.md}, version 1). A codec is
 * built for one table's key columns (types and directions) and optional salt buckets.
 * Immutable and thread-safe.
 */
public final class RowKeyCodec {
  public static final int FORMAT_VERSION = 1;
  private static final int VALUE_FLAG = 1;
  private static final int NULL_FLAG = 2;

  /**
   * One key column: its type, whether it sorts descending, and whether it may be NULL (an
   * index's columns): then its field starts with a flag byte, {@code 01} before a value and
   * {@code 02} for NULL (nothing follows), inverted with the field when descending, so NULL
   * sorts last ascending and first descending (as SQL orders NULLs by default here: high). A
   * table's key columns are never nullable.
   */
  public record Column(String name, KeyType type, boolean descending, boolean nullable) {
    public Column(String name, KeyType type, boolean descending) {
      this(name, type, descending, false);
    }
  }

  private final List<Column> columns;
  private final int saltBuckets;

  public RowKeyCodec(List<Column> columns, int saltBuckets) {
    if (columns.isEmpty()) {
      throw new InvalidArgumentException("a row key needs at least one column");
    }
    if (saltBuckets < 0 || saltBuckets > 256) {
      throw new InvalidArgumentException("SALT_BUCKETS must be between 1 and 256, got "
          + saltBuckets);
    }
    this.columns = List.copyOf(columns);
    this.saltBuckets = saltBuckets;
  }

  public List<Column> columns() {
    return columns;
  }

  public int saltBuckets() {
    return saltBuckets;
  }

  /** The row key of a full key tuple (one value per column, none null), salted if asked. */
  public byte[] encode(Object... values) {
    byte[] key = encodePrefix(values);
    if (values.length != columns.size()) {
      throw new InvalidArgumentException("a key needs " + columns.size() + " values, got "
          + values.length);
    }
    return salt(key);
  }

  /** The encoding of the first {@code values.length} key columns, unsalted (for key ranges). */
  public byte[] encodePrefix(Object... values) {
    if (values.length > columns.size()) {
      throw new InvalidArgumentException("a key has " + columns.size() + " columns, got "
          + values.length + " values");
    }
    if (values.length == 1 && !columns.get(0).nullable() && values[0] != null) {
      // one key column, no null flag: its field is the key (the usual point read or write)
      Column c = columns.get(0);
      return inOrder(c, encodeField(c.type(), values[0], c.name()));
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream(32);
    for (int i = 0; i < values.length; i++) {
      Column c = columns.get(i);
      if (c.nullable()) {
        int flag = values[i] == null ? NULL_FLAG : VALUE_FLAG;
        out.write(c.descending() ? ~flag & 0xff : flag);
        if (values[i] == null) {
          continue;
        }
      } else if (values[i] == null) {
        throw new InvalidArgumentException("primary key column " + c.name() + " must not be null");
      }
      out.writeBytes(inOrder(c, encodeField(c.type(), values[i], c.name())));
    }
    return out.toByteArray();
  }

  /**
   * {@code field} (a fresh array) put in {@code c}'s order, or taken back from it: its bytes
   * inverted if the column is descending (inverting twice gives the field back).
   */
  private static byte[] inOrder(Column c, byte[] field) {
    if (c.descending()) {
      for (int j = 0; j < field.length; j++) {
        field[j] = (byte) ~field[j];
      }
    }
    return field;
  }

  /**
   * The unsalted key prefix of the first {@code values.length} columns followed by the start of
   * the next column, a string or bytes column, whose value begins with {@code partial}: every
   * key with such a value starts with these bytes ({@code LIKE 'abc%'} as a key range).
   */
  public byte[] encodePrefixWithPartial(Object[] values, byte[] partial) {
    if (values.length >= columns.size()) {
      throw new InvalidArgumentException("no key column after " + values.length);
    }
    Column c = columns.get(values.length);
    if (c.type() != KeyType.VARCHAR && c.type() != KeyType.VARBINARY) {
      throw new InvalidArgumentException("a partial value needs a string or bytes column, not "
          + c.type());
    }
    byte[] head = encodePrefix(values);
    if (c.nullable()) {
      head = Arrays.copyOf(head, head.length + 1);
      head[head.length - 1] = (byte) (c.descending() ? ~VALUE_FLAG : VALUE_FLAG);
    }
    byte[] field = terminated(partial);
    // no terminator: any continuation matches
    field = inOrder(c, Arrays.copyOf(field, field.length - 2));
    byte[] out = Arrays.copyOf(head, head.length + field.length);
    System.arraycopy(field, 0, out, head.length, field.length);
    return out;
  }

  /** Prefixes the salt byte (when salted) computed from the unsalted key. */
  public byte[] salt(byte[] unsalted) {
    if (saltBuckets == 0) {
      return unsalted;
    }
    byte[] out = new byte[unsalted.length + 1];
    out[0] = (byte) bucketOf(unsalted);
    System.arraycopy(unsalted, 0, out, 1, unsalted.length);
    return out;
  }

  public int bucketOf(byte[] unsalted) {
    long h = (int) Murmur3.hash64(unsalted) & 0xFFFFFFFFL;
    return (int) (h % saltBuckets);
  }

  /** Decodes a row key (salted if the codec is) back into its column values. */
  public Object[] decode(byte[] key) {
    return decode(key, columns.size(), true);
  }

  /** The values of the first {@code n} columns of a key, whatever follows them. */
  public Object[] decodePrefix(byte[] key, int n) {
    return decode(key, n, false);
  }

  private Object[] decode(byte[] key, int n, boolean whole) {
    int pos = saltBuckets == 0 ? 0 : 1;
    Object[] values = new Object[n];
    for (int i = 0; i < n; i++) {
      Column c = columns.get(i);
      if (c.nullable()) {
        check(pos < key.length, c);
        boolean isNull = (key[pos++] & 0xff) == (c.descending() ? ~NULL_FLAG & 0xff : NULL_FLAG);
        if (isNull) {
          continue;
        }
      }
      int end = fieldEnd(c, key, pos);
      values[i] = isNumber(c.type())
          ? fixedValue(c.type(), readFixed(key, pos, end, c.descending() ? 0xff : 0))
          : decodeField(c.type(), inOrder(c, Arrays.copyOfRange(key, pos, end)));
      pos = end;
    }
    if (whole && pos != key.length) {
      throw new InvalidArgumentException("row key has " + (key.length - pos) + " trailing bytes");
    }
    return values;
  }

  // ------------------------------------------------------------------ fields

  private static byte[] encodeField(KeyType t, Object v, String column) {
    try {
      return switch (t) {
        case BOOLEAN -> new byte[] {(byte) ((Boolean) v ? 1 : 0)};
        case TINYINT -> fixed(((Number) v).byteValue() ^ 0x80L, 1);
        case SMALLINT -> fixed(((Number) v).shortValue() ^ 0x8000L, 2);
        case INTEGER, DATE, TIME -> fixed(((Number) v).intValue() ^ 0x80000000L, 4);
        case BIGINT, TIMESTAMP -> fixed(((Number) v).longValue() ^ Long.MIN_VALUE, 8);
        case REAL -> fixed(floatBits(((Number) v).floatValue()), 4);
        case DOUBLE -> fixed(doubleBits(((Number) v).doubleValue()), 8);
        case DECIMAL -> decimal(v instanceof BigDecimal d ? d : new BigDecimal(v.toString()));
        case VARCHAR -> terminated(Utf8.encode((String) v, () -> "key column " + column));
        case VARBINARY -> terminated((byte[]) v);
        case UUID -> uuid((java.util.UUID) v);
      };
    } catch (ClassCastException | NumberFormatException e) {
      throw new InvalidArgumentException("value " + v + " of " + v.getClass().getSimpleName()
          + " does not fit key column " + column + " of type " + t);
    }
  }

  /** The low {@code width} bytes of {@code v}, most significant first (also cells' form). */
  static byte[] fixed(long v, int width) {
    byte[] b = new byte[width];
    fixedInto(b, 0, v, width);
    return b;
  }

  /** Writes the low {@code width} bytes of {@code v} at {@code at}, most significant first. */
  static void fixedInto(byte[] b, int at, long v, int width) {
    for (int i = at + width - 1; i >= at; i--) {
      b[i] = (byte) v;
      v >>>= 8;
    }
  }

  private static byte[] uuid(java.util.UUID u) {
    byte[] b = new byte[16];
    fixedInto(b, 0, u.getMostSignificantBits() ^ Long.MIN_VALUE, 8);
    fixedInto(b, 8, u.getLeastSignificantBits() ^ Long.MIN_VALUE, 8);
    return b;
  }

  private static long floatBits(float f) {
    if (f == 0) {
      f = 0.0f; // -0.0 == 0.0 in SQL
    }
    int bits = Float.floatToIntBits(f); // canonical NaN
    return (bits < 0 ? ~bits : bits ^ 0x80000000) & 0xFFFFFFFFL;
  }

  private static long doubleBits(double d) {
    if (d == 0) {
      d = 0.0;
    }
    long bits = Double.doubleToLongBits(d);
    return bits < 0 ? ~bits : bits ^ Long.MIN_VALUE;
  }

  private static byte[] decimal(BigDecimal d) {
    if (d.signum() == 0) {
      return new byte[] {(byte) 0x80};
    }
    BigDecimal n = d.abs().stripTrailingZeros();
    String digits = n.unscaledValue().toString();
    int exponent = digits.length() - n.scale(); // value = 0.digits x 10^exponent
    boolean negative = d.signum() < 0;
    ByteArrayOutputStream out = new ByteArrayOutputStream(digits.length() + 6);
    out.write(negative ? 0x40 : 0xC0);
    long e = (exponent ^ 0x80000000L) & 0xFFFFFFFFL;
    if (negative) {
      e = ~e & 0xFFFFFFFFL;
    }
    out.writeBytes(fixed(e, 4));
    for (int i = 0; i < digits.length(); i++) {
      int digit = digits.charAt(i) - '0';
      out.write(negative ? 0xFE - digit : digit + 1);
    }
    out.write(negative ? 0xFF : 0x00);
    return out.toByteArray();
  }

  private static byte[] terminated(byte[] raw) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(raw.length + 4);
    for (byte b : raw) {
      out.write(b);
      if (b == 0) {
        out.write(0xFF);
      }
    }
    out.write(0);
    out.write(1);
    return out.toByteArray();
  }

  /**
   * Where column {@code column}'s field starting at {@code pos} of {@code key} ends (a field is
   * self-delimiting; the stored bytes, inverted for a DESC column).
   */
  public int fieldEnd(int column, byte[] key, int pos) {
    Column c = columns.get(column);
    if (c.nullable()) {
      check(pos < key.length, c);
      if ((key[pos] & 0xff) == (c.descending() ? ~NULL_FLAG & 0xff : NULL_FLAG)) {
        return pos + 1;
      }
      pos++;
    }
    return fieldEnd(c, key, pos);
  }

  /** Where the field starting at {@code pos} ends (works on the stored, possibly inverted, bytes). */
  private static int fieldEnd(Column c, byte[] key, int pos) {
    int w = c.type().width();
    if (w > 0) {
      check(pos + w <= key.length, c);
      return pos + w;
    }
    int flip = c.descending() ? 0xFF : 0;
    if (c.type() == KeyType.DECIMAL) {
      check(pos < key.length, c);
      int head = (key[pos] & 0xff) ^ flip;
      if (head == 0x80) {
        return pos + 1;
      }
      int terminator = head == 0xC0 ? 0x00 : 0xFF;
      for (int i = pos + 5; i < key.length; i++) {
        if (((key[i] & 0xff) ^ flip) == terminator) {
          return i + 1;
        }
      }
      throw truncated(c);
    }
    for (int i = pos; i + 1 < key.length; i++) {
      if (((key[i] & 0xff) ^ flip) == 0) {
        int next = (key[i + 1] & 0xff) ^ flip;
        if (next == 1) {
          return i + 2;
        }
        i++; // an escaped zero
      }
    }
    throw truncated(c);
  }

  private static void check(boolean ok, Column c) {
    if (!ok) {
      throw truncated(c);
    }
  }

  private static InvalidArgumentException truncated(Column c) {
    return new InvalidArgumentException("row key is truncated in column " + c.name());
  }

  private static Object decodeField(KeyType t, byte[] f) {
    return switch (t) {
      case BOOLEAN, TINYINT, SMALLINT, INTEGER, DATE, TIME, BIGINT, TIMESTAMP, REAL, DOUBLE ->
          fixedValue(t, readFixed(f));
      case DECIMAL -> decodeDecimal(f);
      case VARCHAR -> new String(unescape(f), StandardCharsets.UTF_8);
      case VARBINARY -> unescape(f);
      case UUID -> new java.util.UUID(readFixed(f, 0, 8, 0) ^ Long.MIN_VALUE,
          readFixed(f, 8, 16, 0) ^ Long.MIN_VALUE);
    };
  }

  /** Whether a field of type {@code t} is a fixed-width number, read by {@link #fixedValue}. */
  private static boolean isNumber(KeyType t) {
    return t.width() > 0 && t != KeyType.UUID;
  }

  /** The value of a fixed-width number field whose bytes, in key order, are {@code bits}. */
  private static Object fixedValue(KeyType t, long bits) {
    return switch (t) {
      case BOOLEAN -> bits != 0;
      case TINYINT -> (byte) (bits ^ 0x80);
      case SMALLINT -> (short) (bits ^ 0x8000);
      case INTEGER, DATE, TIME -> (int) (bits ^ 0x80000000L);
      case BIGINT, TIMESTAMP -> bits ^ Long.MIN_VALUE;
      case REAL -> {
        int b = (int) bits;
        yield Float.intBitsToFloat(b < 0 ? b ^ 0x80000000 : ~b);
      }
      case DOUBLE -> Double.longBitsToDouble(bits < 0 ? bits ^ Long.MIN_VALUE : ~bits);
      default -> throw new IllegalArgumentException("not a fixed-width number: " + t);
    };
  }

  /** The bytes {@code [from, to)} of {@code key}, each xor {@code flip}, as one number. */
  private static long readFixed(byte[] key, int from, int to, int flip) {
    long v = 0;
    for (int i = from; i < to; i++) {
      v = (v << 8) | ((key[i] ^ flip) & 0xff);
    }
    return v;
  }

  private static long readFixed(byte[] f) {
    return readFixed(f, 0, f.length, 0);
  }

  private static BigDecimal decodeDecimal(byte[] f) {
    int head = f[0] & 0xff;
    if (head == 0x80) {
      return BigDecimal.ZERO;
    }
    boolean negative = head == 0x40;
    long e = readFixed(f, 1, 5, 0);
    if (negative) {
      e = ~e & 0xFFFFFFFFL;
    }
    int exponent = (int) (e ^ 0x80000000L);
    StringBuilder digits = new StringBuilder();
    for (int i = 5; i < f.length - 1; i++) {
      int b = f[i] & 0xff;
      digits.append((char) ('0' + (negative ? 0xFE - b : b - 1)));
    }
    BigDecimal v = new BigDecimal(new BigInteger(digits.toString()), digits.length() - exponent);
    return negative ? v.negate() : v;
  }

  private static byte[] unescape(byte[] f) {
    List<Byte> out = new ArrayList<>(f.length);
    for (int i = 0; i < f.length - 2; i++) {
      out.add(f[i]);
      if (f[i] == 0) {
        i++; // skip the FF after an escaped zero
      }
    }
    byte[] b = new byte[out.size()];
    for (int i = 0; i < b.length; i++) {
      b[i] = out.get(i);
    }
    return b;
  }
}
