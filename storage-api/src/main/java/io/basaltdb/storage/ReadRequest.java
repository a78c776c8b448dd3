package io.basaltdb.storage;

import java.util.Arrays;
import java.util.Collections;
import java.util.NavigableMap;
import java.util.NavigableSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * What {@link Get} and {@link Scan} share: families and columns wanted, versions, time range.
 * Not thread-safe while being built.
 */
public abstract class ReadRequest<T extends ReadRequest<T>> {
  private TreeMap<byte[], NavigableSet<byte[]>> families = new TreeMap<>(Arrays::compareUnsigned);
  /**
   * The columns as one immutable map once asked for ({@link #frozenColumns}), until they change;
   * when {@link #families} is null, the columns are those of another read, shared.
   */
  private NavigableMap<byte[], NavigableSet<byte[]>> frozen;
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
    changing().put(Mutation.nonNull(family, "family"), null);
    return self();
  }

  /** One column (other columns of the family are not read unless added too). */
  public T addColumn(byte[] family, byte[] qualifier) {
    Mutation.nonNull(family, "family");
    TreeMap<byte[], NavigableSet<byte[]>> families = changing();
    if (families.containsKey(family) && families.get(family) == null) {
      return self(); // the whole family is already wanted
    }
    families.computeIfAbsent(family, f -> new java.util.TreeSet<>(Arrays::compareUnsigned))
        .add(Mutation.orEmpty(qualifier));
    return self();
  }

  /**
   * Reads the columns {@code other} reads now (replacing any added before), shared: a read made
   * again and again for other rows with the same columns copies nothing, and the storage sees
   * the same column map each time. Adding columns to either later changes only that one.
   */
  public T readColumnsOf(ReadRequest<?> other) {
    frozen = other.frozenColumns();
    families = null;
    return self();
  }

  /** Whether the columns are another read's, shared ({@link #readColumnsOf}). */
  public boolean columnsShared() {
    return families == null;
  }

  /** The columns as an immutable map, made once until they change. */
  private NavigableMap<byte[], NavigableSet<byte[]>> frozenColumns() {
    if (frozen == null) {
      TreeMap<byte[], NavigableSet<byte[]>> copy = new TreeMap<>(Arrays::compareUnsigned);
      families.forEach((f, qs) -> copy.put(f, qs == null ? null
          : Collections.unmodifiableNavigableSet(new TreeSet<>(qs))));
      frozen = Collections.unmodifiableNavigableMap(copy);
    }
    return frozen;
  }

  /** The columns, to be changed: a copy of shared ones first. */
  private TreeMap<byte[], NavigableSet<byte[]>> changing() {
    if (families == null) {
      families = new TreeMap<>(Arrays::compareUnsigned);
      frozen.forEach((f, qs) -> families.put(f, qs == null ? null : new TreeSet<>(qs)));
    }
    frozen = null;
    return families;
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
  public NavigableMap<byte[], NavigableSet<byte[]>> columns() {
    return families == null ? frozen : Collections.unmodifiableNavigableMap(families);
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
