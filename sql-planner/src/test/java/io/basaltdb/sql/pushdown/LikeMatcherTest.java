package io.basaltdb.sql.pushdown;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Random;
import org.apache.calcite.runtime.SqlFunctions;
import org.junit.jupiter.api.Test;

/**
 * {@link LikeMatcher} answers as Calcite's {@code LIKE} does, for random patterns (the simple
 * shapes it tests directly and the others it hands to Calcite) over random strings, regular
 * expression characters included; the seed is printed.
 */
class LikeMatcherTest {
  private static final String ALPHABET = "ab%_.*\\[$";

  @Test
  void answersAsCalcitesLike() {
    long seed = Long.getLong("basalt.seed", System.nanoTime());
    System.out.println("LikeMatcherTest seed=" + seed + " (replay: -Dbasalt.seed=" + seed + ")");
    Random r = new Random(seed);
    SqlFunctions.LikeFunction calcite = new SqlFunctions.LikeFunction();
    for (int i = 0; i < 20_000; i++) {
      String pattern = random(r, r.nextInt(6), "ab.*\\[$");
      switch (r.nextInt(5)) {
        case 0 -> pattern = "%" + pattern;
        case 1 -> pattern = pattern + "%";
        case 2 -> pattern = "%" + pattern + "%";
        case 3 -> pattern = random(r, r.nextInt(6), ALPHABET); // any wildcards anywhere
        default -> { } // no wildcard: equality
      }
      String s = random(r, r.nextInt(8), ALPHABET);
      assertEquals(calcite.like(s, pattern), LikeMatcher.of(pattern).test(s),
          "'" + s + "' LIKE '" + pattern + "' (seed " + seed + ")");
    }
  }

  private static String random(Random r, int length, String alphabet) {
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < length; i++) {
      b.append(alphabet.charAt(r.nextInt(alphabet.length())));
    }
    return b.toString();
  }
}
