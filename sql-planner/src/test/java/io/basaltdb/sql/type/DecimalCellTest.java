package io.basaltdb.sql.type;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A DECIMAL cell is the value's plain string in ASCII (written digit by digit when it fits a
 * long) and reads back as exactly the value (unscaled digits and scale) parsing it gives.
 */
class DecimalCellTest {
  private static void same(String text) {
    BigDecimal expected = new BigDecimal(text);
    BigDecimal got = ColumnType.decimalOf(text.getBytes(StandardCharsets.US_ASCII));
    assertEquals(expected, got, text); // equals compares the scale too
    assertEquals(expected.scale(), got.scale(), text);
  }

  @Test
  void edgeCases() {
    for (String t : new String[] {"0", "-0", "0.00", "-0.00", "+5", "1.", ".5", "-.5",
        "12.50", "999999999999999999", "-999999999999999999", "1000000000000000000",
        "123456789012345678.9", "0.000000000000000001", "1E+3", "1.5E-7",
        "9223372036854775807", "-9223372036854775808", "00012.3400"}) {
      same(t);
    }
    assertThrows(NumberFormatException.class, () -> ColumnType.decimalOf(new byte[0]));
    assertThrows(NumberFormatException.class,
        () -> ColumnType.decimalOf("-".getBytes(StandardCharsets.US_ASCII)));
  }

  @Test
  void randomPlainStrings() {
    long seed = Long.getLong("basalt.seed", System.nanoTime());
    System.out.println("DecimalCellTest seed=" + seed);
    Random rnd = new Random(seed);
    for (int i = 0; i < 20_000; i++) {
      BigDecimal v = new BigDecimal(new BigInteger(rnd.nextInt(80) + 1, rnd),
          rnd.nextInt(30) - 5);
      if (rnd.nextBoolean()) {
        v = v.negate();
      }
      same(v.toPlainString());
    }
  }

  private static void written(BigDecimal v) {
    assertEquals(v.toPlainString(),
        new String(ColumnType.decimalCell(v), StandardCharsets.US_ASCII), v::toString);
  }

  @Test
  void writtenAsPlainStrings() {
    for (String t : new String[] {"0", "0.00", "-0.05", "0.5", "12.50", "-12.50", "1E+3",
        "999999999999999999", "-999999999999999999", "9999999999999999999", "0.000000000000000001",
        "-0.000000000000000001", "1.000000000000000000", "0.0000000000000000001", "7"}) {
      written(new BigDecimal(t));
    }
    long seed = Long.getLong("basalt.seed", System.nanoTime());
    System.out.println("DecimalCellTest written seed=" + seed);
    Random rnd = new Random(seed);
    for (int i = 0; i < 50_000; i++) {
      BigDecimal v = new BigDecimal(BigInteger.valueOf(rnd.nextLong() >> rnd.nextInt(64)),
          rnd.nextInt(24) - 3);
      written(v);
      written(new BigDecimal(new BigInteger(rnd.nextInt(80) + 1, rnd), rnd.nextInt(30) - 5));
    }
  }

  @Test
  void fixedWidthCellsAreBigEndian() {
    Random rnd = new Random(Long.getLong("basalt.seed", 7));
    for (int i = 0; i < 1_000; i++) {
      long l = rnd.nextLong();
      assertArrayEquals(java.nio.ByteBuffer.allocate(8).putLong(l).array(),
          ColumnType.BIGINT.toCell(l));
      assertArrayEquals(java.nio.ByteBuffer.allocate(4).putInt((int) l).array(),
          ColumnType.DATE.toCell((int) l));
      assertArrayEquals(java.nio.ByteBuffer.allocate(2).putShort((short) l).array(),
          ColumnType.SMALLINT.toCell((short) l));
      double d = Double.longBitsToDouble(l);
      assertArrayEquals(java.nio.ByteBuffer.allocate(8).putDouble(d).array(),
          ColumnType.DOUBLE.toCell(d));
      float f = Float.intBitsToFloat((int) l);
      assertArrayEquals(java.nio.ByteBuffer.allocate(4).putFloat(f).array(),
          ColumnType.REAL.toCell(f));
      java.util.UUID u = new java.util.UUID(l, rnd.nextLong());
      assertArrayEquals(java.nio.ByteBuffer.allocate(16).putLong(u.getMostSignificantBits())
          .putLong(u.getLeastSignificantBits()).array(), ColumnType.UUID.toCell(u));
      assertEquals(u, ColumnType.UUID.fromCell(ColumnType.UUID.toCell(u)));
    }
  }
}
