package io.basaltdb.sql.type;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** A DECIMAL cell reads back as exactly the value (unscaled digits and scale) parsing it gives. */
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
}
