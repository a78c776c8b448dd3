package io.basaltdb.engine.read;

import java.util.Arrays;
import java.util.NavigableSet;
import java.util.TreeSet;

/**
 * What a read asks of one family: which qualifiers (null = all), a time range
 * {@code [minTimestamp, maxTimestamp)} and how many versions per column. The qualifiers are
 * also kept as a sorted array, searched linearly while short: a read tests every cell it meets
 * ({@link #wants}), and a tree lookup cost more than the cell. Immutable.
 */
public final class ColumnQuery {
  public static final ColumnQuery LATEST_ALL = new ColumnQuery(null, 0, Long.MAX_VALUE, 1);

  /** Up to this many qualifiers are searched one by one. */
  private static final int LINEAR = 8;

  private final NavigableSet<byte[]> qualifiers;
  private final byte[][] sorted;
  private final long minTimestamp;
  private final long maxTimestamp;
  private final int maxVersions;

  public ColumnQuery(NavigableSet<byte[]> qualifiers, long minTimestamp, long maxTimestamp,
      int maxVersions) {
    this.qualifiers = qualifiers;
    this.sorted = qualifiers == null ? null : qualifiers.toArray(new byte[0][]);
    if (sorted != null) {
      Arrays.sort(sorted, Arrays::compareUnsigned); // a set of another order is sorted too
    }
    this.minTimestamp = minTimestamp;
    this.maxTimestamp = maxTimestamp;
    this.maxVersions = maxVersions;
  }

  public static NavigableSet<byte[]> qualifierSet() {
    return new TreeSet<>(Arrays::compareUnsigned);
  }

  /** The qualifiers asked for, ascending (unsigned); null when all are. Not to be changed. */
  public byte[][] sortedQualifiers() {
    return sorted;
  }

  /** The qualifiers asked for, or null: all. */
  public NavigableSet<byte[]> qualifiers() {
    return qualifiers;
  }

  public long minTimestamp() {
    return minTimestamp;
  }

  public long maxTimestamp() {
    return maxTimestamp;
  }

  public int maxVersions() {
    return maxVersions;
  }

  public boolean wants(byte[] qualifier) {
    if (sorted == null) {
      return true;
    }
    if (sorted.length <= LINEAR) {
      for (byte[] q : sorted) {
        if (Arrays.equals(q, qualifier)) {
          return true;
        }
      }
      return false;
    }
    return Arrays.binarySearch(sorted, qualifier, Arrays::compareUnsigned) >= 0;
  }

  /** The smallest qualifier asked for above {@code qualifier}, or null (or all are asked). */
  public byte[] higher(byte[] qualifier) {
    if (sorted == null) {
      return null;
    }
    int lo = 0;
    int hi = sorted.length;
    while (lo < hi) { // the first above it
      int mid = (lo + hi) >>> 1;
      if (Arrays.compareUnsigned(sorted[mid], qualifier) <= 0) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo < sorted.length ? sorted[lo] : null;
  }

  public boolean inTimeRange(long ts) {
    return ts >= minTimestamp && ts < maxTimestamp;
  }
}
