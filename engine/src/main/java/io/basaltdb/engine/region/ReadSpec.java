package io.basaltdb.engine.region;

import io.basaltdb.engine.read.ColumnQuery;
import java.util.Arrays;
import java.util.Collections;
import java.util.Map;
import java.util.NavigableSet;
import java.util.TreeMap;

/**
 * What a read asks of a region: families (empty map = every family) with their qualifiers
 * (null set = every qualifier), a time range {@code [minTimestamp, maxTimestamp)}, the
 * versions wanted per column, an optional filter (which holds per-scan state) and an optional
 * snapshot's read point.
 */
public final class ReadSpec {
  public static final ReadSpec LATEST = new ReadSpec(Map.of(), 0, Long.MAX_VALUE, 1);

  private final Map<byte[], NavigableSet<byte[]>> families;
  private final long minTimestamp;
  private final long maxTimestamp;
  private final int maxVersions;
  private final io.basaltdb.storage.filter.Filter filter;
  /** The cut of the database snapshot the read belongs to, or null: the region's own. */
  private final SnapshotCut snapshot;
  private io.basaltdb.storage.ScanMetrics metrics;
  private ReadOverlay overlay;

  public ReadSpec(Map<byte[], NavigableSet<byte[]>> families, long minTimestamp,
      long maxTimestamp, int maxVersions) {
    this(families, minTimestamp, maxTimestamp, maxVersions, null);
  }

  public ReadSpec(Map<byte[], NavigableSet<byte[]>> families, long minTimestamp,
      long maxTimestamp, int maxVersions, io.basaltdb.storage.filter.Filter filter) {
    this(families, minTimestamp, maxTimestamp, maxVersions, filter, null);
  }

  /** @param snapshot the cut of a database snapshot, or null: the region's own read point */
  public ReadSpec(Map<byte[], NavigableSet<byte[]>> families, long minTimestamp,
      long maxTimestamp, int maxVersions, io.basaltdb.storage.filter.Filter filter,
      SnapshotCut snapshot) {
    this(sorted(families), minTimestamp, maxTimestamp, maxVersions, filter, snapshot, null);
  }

  /**
   * Over {@code columns}, a read's columns it shares with other reads
   * ({@link io.basaltdb.storage.ReadRequest#columnsShared}: immutable, in byte order), taken
   * as they are: reads made again and again with the same columns copy nothing.
   */
  public static ReadSpec overShared(Map<byte[], NavigableSet<byte[]>> columns, long minTimestamp,
      long maxTimestamp, int maxVersions, io.basaltdb.storage.filter.Filter filter,
      SnapshotCut snapshot) {
    return new ReadSpec(columns.isEmpty() ? Map.of() : columns, minTimestamp, maxTimestamp,
        maxVersions, filter, snapshot, null);
  }

  /** Over {@code families} as {@link #sorted} made them (derived specs share them). */
  private ReadSpec(Map<byte[], NavigableSet<byte[]>> families, long minTimestamp,
      long maxTimestamp, int maxVersions, io.basaltdb.storage.filter.Filter filter,
      SnapshotCut snapshot, Void sorted) {
    this.families = families;
    this.minTimestamp = minTimestamp;
    this.maxTimestamp = maxTimestamp;
    this.maxVersions = maxVersions;
    this.filter = filter;
    this.snapshot = snapshot;
  }

  private static Map<byte[], NavigableSet<byte[]>> sorted(
      Map<byte[], NavigableSet<byte[]>> families) {
    if (families.isEmpty()) {
      return Map.of();
    }
    TreeMap<byte[], NavigableSet<byte[]>> f = new TreeMap<>(Arrays::compareUnsigned);
    f.putAll(families);
    return Collections.unmodifiableMap(f);
  }

  /** The read point of the snapshot the read belongs to, or -1: the region's own. */
  public long snapshotPoint() {
    return snapshot == null ? -1 : snapshot.point();
  }

  /** The cut of the snapshot the read belongs to, or null: the region's own read point. */
  public SnapshotCut snapshot() {
    return snapshot;
  }

  /** The scan's filter, or null. */
  public io.basaltdb.storage.filter.Filter filter() {
    return filter;
  }

  public Map<byte[], NavigableSet<byte[]>> families() {
    return families;
  }

  public boolean allFamilies() {
    return families.isEmpty();
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

  ColumnQuery queryFor(byte[] family) {
    NavigableSet<byte[]> q = families.isEmpty() ? null : families.get(family);
    return new ColumnQuery(q, minTimestamp, maxTimestamp, maxVersions);
  }

  public ReadSpec withVersions(int versions) {
    ReadSpec s = new ReadSpec(families, minTimestamp, maxTimestamp, versions, filter,
        snapshot, null);
    s.metrics = metrics;
    s.overlay = overlay;
    return s;
  }

  /** This read counting what it does into {@code m} (null: not counted). */
  public ReadSpec withMetrics(io.basaltdb.storage.ScanMetrics m) {
    if (m == metrics) {
      return this;
    }
    ReadSpec s = new ReadSpec(families, minTimestamp, maxTimestamp, maxVersions, filter,
        snapshot, null);
    s.metrics = m;
    s.overlay = overlay;
    return s;
  }

  /**
   * This read at {@code cut} (null: the region's own read point) merged with {@code overlay}'s
   * cells (null: none).
   */
  public ReadSpec withOverlay(ReadOverlay o, SnapshotCut cut) {
    ReadSpec s = new ReadSpec(families, minTimestamp, maxTimestamp, maxVersions, filter, cut,
        null);
    s.metrics = metrics;
    s.overlay = o;
    return s;
  }

  /** A transaction's own cells to merge into this read, or null. */
  public ReadOverlay overlay() {
    return overlay;
  }

  /** Where the read counts what it does, or null. */
  public io.basaltdb.storage.ScanMetrics metrics() {
    return metrics;
  }

}
