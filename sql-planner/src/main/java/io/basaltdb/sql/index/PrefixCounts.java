package io.basaltdb.sql.index;

import io.basaltdb.sql.catalog.IndexStats;
import io.basaltdb.sql.type.RowKeyCodec;
import io.basaltdb.storage.hash.Murmur3;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The statistics of an index counted from its entry keys as a build writes them, in any order
 * ({@link IndexStats}: entries, and distinct values of each prefix of the index's columns), so
 * that a build need not read the index again: for each key, a 64-bit hash of the bytes of each
 * prefix (a key's encoding is canonical: equal values, equal bytes), sorted and counted when
 * the build ends. Exact but for hash collisions (about one in 10^7 for 10^6 distinct values).
 * Past {@link #MOST} keys it gives up ({@link #stats} null) and the caller reads the index, so
 * its memory stays bounded (8 bytes per key and column). One per build thread; {@link #stats}
 * merges them.
 */
public final class PrefixCounts {
  /** Keys counted at most (across threads) before the counts give up. */
  static final long MOST = 4_000_000;

  private final RowKeyCodec codec;
  private final int columns;
  private final long[][] hashes;
  private int size;
  private boolean gaveUp;

  PrefixCounts(RowKeyCodec codec, int columns) {
    this.codec = codec;
    this.columns = columns;
    this.hashes = new long[columns][1024];
  }

  /** Counts the entry {@code key} (unsalted: a salted index has no ordered statistics). */
  void add(byte[] key) {
    if (gaveUp) {
      return;
    }
    if (size == hashes[0].length) {
      if (size >= MOST) {
        gaveUp = true;
        return;
      }
      int larger = (int) Math.min(MOST, size * 2L);
      for (int k = 0; k < columns; k++) {
        hashes[k] = Arrays.copyOf(hashes[k], larger);
      }
    }
    int pos = 0;
    for (int k = 0; k < columns; k++) {
      pos = codec.fieldEnd(k, key, pos);
      hashes[k][size] = Murmur3.hash64(key, 0, pos);
    }
    size++;
  }

  /** The statistics of every key the counts of {@code parts} saw; null if one gave up. */
  static IndexStats stats(List<PrefixCounts> parts) {
    long rows = 0;
    for (PrefixCounts p : parts) {
      if (p.gaveUp) {
        return null;
      }
      rows += p.size;
    }
    if (rows > MOST || parts.isEmpty()) {
      return null;
    }
    List<Long> distinct = new ArrayList<>();
    for (int k = 0; k < parts.get(0).columns; k++) {
      long[] all = new long[(int) rows];
      int at = 0;
      for (PrefixCounts p : parts) {
        System.arraycopy(p.hashes[k], 0, all, at, p.size);
        at += p.size;
      }
      Arrays.sort(all);
      long d = 0;
      for (int i = 0; i < all.length; i++) {
        if (i == 0 || all[i] != all[i - 1]) {
          d++;
        }
      }
      distinct.add(d);
    }
    return new IndexStats(rows, distinct);
  }
}
