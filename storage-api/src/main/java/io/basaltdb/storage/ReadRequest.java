package io.basaltdb.storage;

import java.util.Arrays;
import java.util.NavigableSet;
import java.util.TreeMap;

/**
 * What {@link Get} and {@link Scan} share: families and columns wanted, versions, time range.
 * Not thread-safe while being built.
 */
public abstract class ReadRequest<T extends ReadRequest<T>> {
  private final TreeMap<byte[], NavigableSet<byte[]>> families = new TreeMap<>(Arrays::compareUnsigned);
  private int maxVersions = 1;
  private long minTimestamp = 0;
  private long maxTimestamp = Long.MAX_VALUE;
  private io.basaltdb.storage.filter.Filter filter;
  private ReadSnapshot snapshot;
  private ScanMetrics metrics;

  @SuppressWarnings("unchecked")
  private T self() {
    return (T) this;
  }

  /** Every column of a family. */
  public T addFamily(byte[] family) {
    families.put(Mutation.nonNull(family, "family"), null);
    return self();
  }

  /** One column (other columns of the family are not read unless added too). */
  public T addColumn(byte[] family, byte[] qualifier) {
    Mutation.nonNull(family, "family");
    if (families.containsKey(family) && families.get(family) == null) {
      return self(); // the whole family is already wanted
    }
    families.computeIfAbsent(family, f -> new java.util.TreeSet<>(Arrays::compareUnsigned))
        .add(Mutation.orEmpty(qualifier));
    return self();
  }

  /** Versions per column to return, newest first (default 1). */
  public T readVersions(int versions) {
    if (versions < 1) {
      throw new InvalidArgumentException("versions must be >= 1, got " + versions);
    }
    maxVersions = versions;
    return self();
  }

  public T readAllVersions() {
    return readVersions(Integer.MAX_VALUE);
  }

  /** Only versions with {@code min <= timestamp < max}. */
  public T setTimeRange(long min, long max) {
    if (min < 0 || max < min) {
      throw new InvalidArgumentException("bad time range [" + min + ", " + max + ")");
    }
    minTimestamp = min;
    maxTimestamp = max;
    return self();
  }

  /** Only the version at exactly {@code ts}. */
  public T setTimestamp(long ts) {
    if (ts < 0 || ts == Long.MAX_VALUE) {
      throw new InvalidArgumentException("bad timestamp " + ts);
    }
    return setTimeRange(ts, ts + 1);
  }

  /** A filter evaluated inside the region scan (one filter object per read). */
  public T setFilter(io.basaltdb.storage.filter.Filter f) {
    filter = f;
    return self();
  }

  /**
   * Reads at {@code snapshot}'s point (null: at each region's own read point when the read
   * reaches it). The snapshot must stay open while the read runs.
   */
  public T setSnapshot(ReadSnapshot snapshot) {
    this.snapshot = snapshot;
    return self();
  }

  /** The snapshot the read is made at, or null: each region's own read point. */
  public ReadSnapshot snapshot() {
    return snapshot;
  }

  public int maxVersions() {
    return maxVersions;
  }

  /**
   * The wanted families (none: all), each with its wanted qualifiers, or null for the whole
   * family; a read-only view.
   */
  public java.util.NavigableMap<byte[], NavigableSet<byte[]>> columns() {
    return java.util.Collections.unmodifiableNavigableMap(families);
  }

  /** Lower bound (inclusive) of the cells' timestamps read. */
  public long minTimestamp() {
    return minTimestamp;
  }

  /** Upper bound (exclusive) of the cells' timestamps read. */
  public long maxTimestamp() {
    return maxTimestamp;
  }

  /** The read's filter, or null. */
  public io.basaltdb.storage.filter.Filter filter() {
    return filter;
  }

  /** Counts what the read does into {@code m} (null: not counted). */
  public T setMetrics(ScanMetrics m) {
    metrics = m;
    return self();
  }

  /** Where the read counts what it does, or null. */
  public ScanMetrics metrics() {
    return metrics;
  }
}
