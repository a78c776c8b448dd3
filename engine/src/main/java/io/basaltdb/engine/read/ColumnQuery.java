package io.basaltdb.engine.read;

import java.util.Arrays;
import java.util.NavigableSet;
import java.util.TreeSet;

/**
 * What a read asks of one family: which qualifiers (null = all), a time range
 * {@code [minTimestamp, maxTimestamp)} and how many versions per column. Immutable.
 */
public record ColumnQuery(NavigableSet<byte[]> qualifiers, long minTimestamp, long maxTimestamp,
    int maxVersions) {
  public static final ColumnQuery LATEST_ALL = new ColumnQuery(null, 0, Long.MAX_VALUE, 1);

  public static NavigableSet<byte[]> qualifierSet() {
    return new TreeSet<>(Arrays::compareUnsigned);
  }

  public boolean wants(byte[] qualifier) {
    return qualifiers == null || qualifiers.contains(qualifier);
  }

  public boolean inTimeRange(long ts) {
    return ts >= minTimestamp && ts < maxTimestamp;
  }
}
