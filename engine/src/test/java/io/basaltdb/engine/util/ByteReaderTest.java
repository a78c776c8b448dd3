package io.basaltdb.engine.util;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Varints read back what {@link ByteWriter} wrote, whether the buffer has room for the longest
 * varint after them (the unchecked fast path) or ends right after them (the checked path), and
 * a varint cut short or too long is refused on both paths.
 */
class ByteReaderTest {
  @Test
  void varintsRoundTripOnBothPaths() {
    long seed = io.basaltdb.engine.Seeds.seed("ByteReaderTest");
    Random random = new Random(seed);
    long[] values = new long[2000];
    long[] edges = {0, 1, 127, 128, 16_383, 16_384, Integer.MAX_VALUE, Long.MAX_VALUE, -1,
        Long.MIN_VALUE};
    System.arraycopy(edges, 0, values, 0, edges.length);
    for (int i = edges.length; i < values.length; i++) {
      values[i] = random.nextLong() >>> random.nextInt(64);
    }
    ByteWriter w = new ByteWriter(16);
    for (long v : values) {
      w.putVarLong(v);
    }
    byte[] bytes = w.toByteArray();
    ByteReader r = new ByteReader(bytes);
    for (long v : values) {
      assertEquals(v, r.getVarLong(), "seed " + seed);
    }
    assertEquals(0, r.remaining());
    for (long v : values) {
      byte[] alone = new ByteWriter(10).putVarLong(v).toByteArray(); // ends with the varint
      assertEquals(v, new ByteReader(alone).getVarLong(), "seed " + seed);
      if (v >= 0 && v <= Integer.MAX_VALUE) {
        assertEquals(v, new ByteReader(alone).getVarInt(), "seed " + seed);
        byte[] padded = Arrays.copyOf(alone, alone.length + 12);
        assertEquals(v, new ByteReader(padded).getVarInt(), "seed " + seed);
      }
    }
  }

  @Test
  void malformedVarintsAreRefused() {
    byte[] cut = {(byte) 0x80, (byte) 0x80}; // continuation bits, then the end
    assertThrows(ByteReader.MalformedException.class, () -> new ByteReader(cut).getVarLong());
    assertThrows(ByteReader.MalformedException.class, () -> new ByteReader(cut).getVarInt());
    byte[] tooLong = new byte[14];
    Arrays.fill(tooLong, (byte) 0xff); // eleven and more continuation bytes
    assertThrows(ByteReader.MalformedException.class, () -> new ByteReader(tooLong).getVarLong());
    byte[] tooLongAtEnd = new byte[10];
    Arrays.fill(tooLongAtEnd, (byte) 0xff);
    assertThrows(ByteReader.MalformedException.class,
        () -> new ByteReader(tooLongAtEnd).getVarLong());
    byte[] beyondInt = new ByteWriter(10).putVarLong(1L << 40).toByteArray();
    assertThrows(ByteReader.MalformedException.class, () -> new ByteReader(beyondInt).getVarInt());
  }
}
