package io.basaltdb.engine.client;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basaltdb.storage.InvalidArgumentException;
import io.basaltdb.storage.Splits;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class SplitsTest {
  @Test
  void hexStringSplitsAreEvenAndSorted() {
    byte[][] k = Splits.hexString(4, 8);
    assertEquals(3, k.length);
    assertEquals("40000000", new String(k[0], StandardCharsets.US_ASCII));
    assertEquals("80000000", new String(k[1], StandardCharsets.US_ASCII));
    assertEquals("c0000000", new String(k[2], StandardCharsets.US_ASCII));
  }

  @Test
  void uniformSplitsCoverTheRange() {
    byte[][] k = Splits.uniform(new byte[0], new byte[0], 4);
    assertArrayEquals(new byte[] {0x40}, k[0]);
    assertArrayEquals(new byte[] {(byte) 0xc0}, k[2]);
    byte[][] m = Splits.uniform(new byte[] {0, 0}, new byte[] {0, 100}, 10);
    for (int i = 1; i < m.length; i++) {
      assertTrue(Arrays.compareUnsigned(m[i - 1], m[i]) < 0);
    }
    assertArrayEquals(new byte[] {0, 10}, m[0]);
    assertThrows(InvalidArgumentException.class, () -> Splits.uniform(new byte[] {1}, new byte[] {2}, 5));
  }
}
