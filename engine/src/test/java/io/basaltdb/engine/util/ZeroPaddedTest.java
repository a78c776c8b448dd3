package io.basaltdb.engine.util;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Random;
import org.junit.jupiter.api.Test;

class ZeroPaddedTest {
  @Test
  void writesWhatTheFormatterWrites() {
    long seed = io.basaltdb.engine.Seeds.seed("ZeroPaddedTest");
    Random random = new Random(seed);
    long[] edges = {0, 1, 9, 10, 999_999_999_999L, 1_000_000_000_000L, Long.MAX_VALUE, -1,
        Long.MIN_VALUE};
    for (int width : new int[] {1, 12, 20}) {
      for (long n : edges) {
        assertEquals(String.format("%0" + width + "d", n), ZeroPadded.of(n, width), n + "/" + width);
      }
      for (int i = 0; i < 1000; i++) {
        long n = random.nextLong() >>> random.nextInt(64);
        assertEquals(String.format("%0" + width + "d", n), ZeroPadded.of(n, width),
            n + "/" + width + " seed " + seed);
      }
    }
  }
}
