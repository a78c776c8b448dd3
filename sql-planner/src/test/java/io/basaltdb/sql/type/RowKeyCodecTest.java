package io.basaltdb.sql.type;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basaltdb.storage.InvalidArgumentException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Byte order of encoded keys equals SQL order of the values, for every key type, ascending and
 * descending, in composite keys; keys decode back; the format is pinned by golden bytes.
 */
class RowKeyCodecTest {
  private static long seed() {
    String s = System.getProperty("basalt.seed");
    long seed = s != null && !s.isEmpty() ? Long.parseLong(s) : System.nanoTime();
    System.out.println("RowKeyCodecTest: seed=" + seed + " (replay with -Dbasalt.seed=" + seed + ")");
    return seed;
  }

  static Object random(KeyType t, Random r) {
    return switch (t) {
      case BOOLEAN -> r.nextBoolean();
      case TINYINT -> (byte) r.nextInt();
      case SMALLINT -> (short) r.nextInt();
      case INTEGER, DATE, TIME -> r.nextInt(5) == 0 ? pick(r, Integer.MIN_VALUE, -1, 0, 1,
          Integer.MAX_VALUE) : r.nextInt();
      case BIGINT, TIMESTAMP -> r.nextInt(5) == 0 ? pick(r, Long.MIN_VALUE, -1L, 0L, Long.MAX_VALUE)
          : r.nextLong() >> r.nextInt(60);
      case REAL -> r.nextInt(6) == 0 ? pick(r, 0.0f, -0.0f, Float.NEGATIVE_INFINITY,
          Float.POSITIVE_INFINITY, Float.MIN_VALUE, -Float.MAX_VALUE)
          : (float) (r.nextGaussian() * Math.pow(10, r.nextInt(20) - 10));
      case DOUBLE -> r.nextInt(6) == 0 ? pick(r, 0.0, -0.0, Double.NEGATIVE_INFINITY,
          Double.POSITIVE_INFINITY, -Double.MIN_VALUE, Double.MAX_VALUE)
          : r.nextGaussian() * Math.pow(10, r.nextInt(40) - 20);
      case DECIMAL -> new BigDecimal(BigInteger(r), r.nextInt(12) - 4);
      case VARCHAR -> {
        StringBuilder sb = new StringBuilder();
        String alphabet = "ab\u0000z\u00e9\u4e2d";
        for (int i = r.nextInt(5); i > 0; i--) {
          sb.append(alphabet.charAt(r.nextInt(alphabet.length())));
        }
        yield sb.toString();
      }
      case UUID -> new java.util.UUID(
          r.nextInt(4) == 0 ? pick(r, Long.MIN_VALUE, -1L, 0L, Long.MAX_VALUE) : r.nextLong(),
          r.nextInt(4) == 0 ? pick(r, Long.MIN_VALUE, -1L, 0L, Long.MAX_VALUE) : r.nextLong());
      case VARBINARY -> {
        byte[] b = new byte[r.nextInt(5)];
        for (int i = 0; i < b.length; i++) {
          b[i] = (byte) pick(r, 0, 1, 0xff, 0x7f, 0x80, r.nextInt(256)).intValue();
        }
        yield b;
      }
    };
  }

  private static java.math.BigInteger BigInteger(Random r) {
    return java.math.BigInteger.valueOf(r.nextLong() >> r.nextInt(63));
  }

  @SafeVarargs
  private static <T> T pick(Random r, T... xs) {
    return xs[r.nextInt(xs.length)];
  }

  /** SQL order of two values of a type (strings by code point, bytes unsigned). */
  @SuppressWarnings("unchecked")
  static int sqlCompare(KeyType t, Object a, Object b) {
    return switch (t) {
      case REAL -> Float.compare(norm((Float) a), norm((Float) b));
      case DOUBLE -> Double.compare(norm((Double) a), norm((Double) b));
      case DECIMAL -> ((BigDecimal) a).compareTo((BigDecimal) b);
      case VARCHAR -> Arrays.compare(((String) a).codePoints().toArray(),
          ((String) b).codePoints().toArray());
      case VARBINARY -> Arrays.compareUnsigned((byte[]) a, (byte[]) b);
      default -> ((Comparable<Object>) a).compareTo(b);
    };
  }

  private static float norm(float f) {
    return f == 0 ? 0.0f : f;
  }

  private static double norm(double d) {
    return d == 0 ? 0.0 : d;
  }

  @Test
  void byteOrderEqualsSqlOrderForEveryType() {
    Random r = new Random(seed());
    for (KeyType t : KeyType.values()) {
      for (boolean desc : new boolean[] {false, true}) {
        RowKeyCodec codec = new RowKeyCodec(List.of(new RowKeyCodec.Column("k", t, desc)), 0);
        List<Object> values = new ArrayList<>();
        for (int i = 0; i < 400; i++) {
          values.add(random(t, r));
        }
        for (Object v : values) {
          Object back = codec.decode(codec.encode(v))[0];
          assertEquals(0, sqlCompare(t, v, back), t + " round trip of " + v + " gave " + back);
        }
        for (int i = 0; i < 2000; i++) {
          Object a = values.get(r.nextInt(values.size()));
          Object b = values.get(r.nextInt(values.size()));
          int sql = Integer.signum(sqlCompare(t, a, b)) * (desc ? -1 : 1);
          int bytes = Integer.signum(Arrays.compareUnsigned(codec.encode(a), codec.encode(b)));
          assertEquals(sql, bytes, t + (desc ? " DESC" : "") + ": " + show(a) + " vs " + show(b));
        }
      }
    }
  }

  @Test
  void compositeKeysCompareFieldByField() {
    Random r = new Random(seed());
    List<RowKeyCodec.Column> cols = List.of(new RowKeyCodec.Column("a", KeyType.VARCHAR, false),
        new RowKeyCodec.Column("b", KeyType.BIGINT, true),
        new RowKeyCodec.Column("c", KeyType.DECIMAL, false),
        new RowKeyCodec.Column("d", KeyType.VARBINARY, true));
    RowKeyCodec codec = new RowKeyCodec(cols, 0);
    List<Object[]> tuples = new ArrayList<>();
    for (int i = 0; i < 500; i++) {
      tuples.add(new Object[] {random(KeyType.VARCHAR, r), (long) r.nextInt(3),
          random(KeyType.DECIMAL, r), random(KeyType.VARBINARY, r)});
    }
    Comparator<Object[]> sql = (x, y) -> {
      for (int i = 0; i < cols.size(); i++) {
        int c = sqlCompare(cols.get(i).type(), x[i], y[i]);
        if (c != 0) {
          return cols.get(i).descending() ? -c : c;
        }
      }
      return 0;
    };
    for (int i = 0; i < 5000; i++) {
      Object[] a = tuples.get(r.nextInt(tuples.size()));
      Object[] b = tuples.get(r.nextInt(tuples.size()));
      assertEquals(Integer.signum(sql.compare(a, b)),
          Integer.signum(Arrays.compareUnsigned(codec.encode(a), codec.encode(b))));
      Object[] back = codec.decode(codec.encode(a));
      assertEquals(0, sql.compare(a, back));
    }
  }

  @Test
  void goldenBytesPinTheFormat() {
    assertEquals("80000001", hex(KeyType.INTEGER, 1, false));
    assertEquals("7fffffff", hex(KeyType.INTEGER, -1, false));
    assertEquals("7ffffffe", hex(KeyType.INTEGER, 1, true));
    assertEquals("8000000000000000", hex(KeyType.BIGINT, 0L, false));
    assertEquals("bff00000", hex(KeyType.REAL, 1.875f, false));
    assertEquals("3fffffffffffffff", hex(KeyType.DOUBLE, -2.0, false));
    assertEquals("6100ff620001", hex(KeyType.VARCHAR, "a\u0000b", false));
    assertEquals("9eff009dfffe", hex(KeyType.VARCHAR, "a\u0000b", true));
    assertEquals("c080000002020300", hex(KeyType.DECIMAL, new BigDecimal("12.0"), false));
    assertEquals("80", hex(KeyType.DECIMAL, BigDecimal.ZERO, false));
    assertEquals("407ffffffdfdfcff", hex(KeyType.DECIMAL, new BigDecimal("-12"), false));
    assertEquals("01", hex(KeyType.BOOLEAN, true, false));
  }

  private static String hex(KeyType t, Object v, boolean desc) {
    return HexFormat.of().formatHex(new RowKeyCodec(List.of(new RowKeyCodec.Column("k", t, desc)),
        0).encode(v));
  }

  @Test
  void saltSpreadsAndDecodes() {
    RowKeyCodec codec = new RowKeyCodec(List.of(new RowKeyCodec.Column("id", KeyType.BIGINT,
        false)), 4);
    int[] counts = new int[4];
    for (long i = 0; i < 4000; i++) {
      byte[] k = codec.encode(i);
      counts[k[0]]++;
      assertEquals(i, codec.decode(k)[0]);
    }
    for (int c : counts) {
      assertTrue(c > 800, "buckets are even: " + Arrays.toString(counts));
    }
  }

  @Test
  void badValuesAreRefused() {
    RowKeyCodec codec = new RowKeyCodec(List.of(new RowKeyCodec.Column("id", KeyType.BIGINT,
        false)), 0);
    assertThrows(InvalidArgumentException.class, () -> codec.encode((Object) null));
    assertThrows(InvalidArgumentException.class, () -> codec.encode("text"));
    assertThrows(InvalidArgumentException.class, () -> codec.decode(new byte[3]));
    assertThrows(InvalidArgumentException.class, () -> new RowKeyCodec(List.of(), 0));
    assertThrows(InvalidArgumentException.class, () -> new RowKeyCodec(List.of(
        new RowKeyCodec.Column("id", KeyType.BIGINT, false)), 300));
  }

  private static String show(Object o) {
    return o instanceof byte[] b ? HexFormat.of().formatHex(b)
        : o instanceof String s ? Arrays.toString(s.getBytes(StandardCharsets.UTF_8)) : String.valueOf(o);
  }
}
