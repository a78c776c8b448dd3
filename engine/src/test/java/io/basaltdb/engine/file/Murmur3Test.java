package io.basaltdb.engine.file;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.google.common.hash.Hashing;
import io.basaltdb.storage.hash.Murmur3;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link Murmur3} (in the storage API, which has no test dependencies) gives the hash stored
 * bloom filters and salted keys were made with (Guava's murmur3_128, seed 0): every length from
 * 0 to 100 (each tail length, one to six blocks) and slices of larger arrays, with random bytes
 * of the whole byte range.
 */
class Murmur3Test {
  @Test
  void sameAsGuava() {
    Random rnd = new Random(io.basaltdb.engine.Seeds.seed("Murmur3Test"));
    for (int round = 0; round < 200; round++) {
      for (int len = 0; len <= 100; len++) {
        byte[] b = new byte[len];
        rnd.nextBytes(b);
        long guava = Hashing.murmur3_128().hashBytes(b).asLong();
        assertEquals(guava, Murmur3.hash64(b), "length " + len);
        assertEquals(Hashing.murmur3_128().hashBytes(b).asInt(), (int) Murmur3.hash64(b));
        byte[] wider = new byte[len + 7];
        rnd.nextBytes(wider);
        System.arraycopy(b, 0, wider, 3, len);
        assertEquals(guava, Murmur3.hash64(wider, 3, len), "slice of length " + len);
      }
    }
  }
}
