package io.basaltdb.sql.index;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.basaltdb.sql.catalog.IndexStats;
import io.basaltdb.sql.type.KeyType;
import io.basaltdb.sql.type.RowKeyCodec;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The statistics a build counts from its entry keys in any order, on any number of threads,
 * are those read from the index in key order (the count {@code IndexBuilder.countStats} makes).
 */
class PrefixCountsTest {
  @Test
  void countsOfKeysInAnyOrderAreThoseOfTheIndexInOrder() {
    long seed = Long.getLong("basalt.seed", System.nanoTime());
    System.out.println("PrefixCountsTest: seed=" + seed + " (replay with -Dbasalt.seed=" + seed
        + ")");
    Random r = new Random(seed);
    // two index columns (a nullable VARCHAR, a DESC BIGINT), then the base row's key
    RowKeyCodec codec = new RowKeyCodec(List.of(
        new RowKeyCodec.Column("v", KeyType.VARCHAR, false, true),
        new RowKeyCodec.Column("w", KeyType.BIGINT, true, true),
        new RowKeyCodec.Column("id", KeyType.INTEGER, false)), 0);
    List<byte[]> keys = new ArrayList<>();
    for (int id = 0; id < 5000; id++) {
      String v = r.nextInt(10) == 0 ? null : "v" + r.nextInt(40);
      Long w = r.nextInt(10) == 0 ? null : (long) r.nextInt(300) - 150;
      keys.add(codec.encode(v, w, id));
    }
    List<PrefixCounts> parts = new ArrayList<>();
    for (int t = 0; t < 3; t++) {
      parts.add(new PrefixCounts(codec, 2));
    }
    for (byte[] k : keys) {
      parts.get(r.nextInt(3)).add(k);
    }
    assertEquals(inOrder(codec, keys, 2), PrefixCounts.stats(parts));
  }

  @Test
  void tooManyKeysGiveUp() {
    RowKeyCodec codec = new RowKeyCodec(List.of(
        new RowKeyCodec.Column("id", KeyType.INTEGER, false)), 0);
    PrefixCounts one = new PrefixCounts(codec, 1);
    for (int i = 0; i <= PrefixCounts.MOST; i++) {
      one.add(codec.encode(i));
    }
    assertNull(PrefixCounts.stats(List.of(one)));
  }

  /** The entries and distinct prefixes, reading the keys in order as the index holds them. */
  private static IndexStats inOrder(RowKeyCodec codec, List<byte[]> keys, int n) {
    List<byte[]> sorted = new ArrayList<>(keys);
    sorted.sort(Arrays::compareUnsigned);
    long[] distinct = new long[n];
    Object[] previous = null;
    for (byte[] k : sorted) {
      Object[] values = codec.decodePrefix(k, n);
      int same = 0;
      while (previous != null && same < n
          && java.util.Objects.equals(previous[same], values[same])) {
        same++;
      }
      for (int i = same; i < n; i++) {
        distinct[i]++;
      }
      previous = values;
    }
    return new IndexStats(sorted.size(), List.of(distinct[0], distinct[1]));
  }
}
