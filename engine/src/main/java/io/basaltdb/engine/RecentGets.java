package io.basaltdb.engine;

import io.basaltdb.engine.region.ReadSpec;
import io.basaltdb.engine.region.SnapshotCut;
import io.basaltdb.storage.Cell;
import io.basaltdb.storage.TableName;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NavigableSet;

/**
 * A {@link Transaction}'s last few point reads, whose answers a repeated read of the same row
 * and columns takes again: a row read, then updated (an UPDATE reads the row it changes; an
 * ORM reads an entity, then writes it), is read from the engine once. A read's answer is a
 * function of its row, its columns, time range and versions, the snapshot cut it reads at
 * (identical in a SNAPSHOT or SERIALIZABLE transaction; a READ_COMMITTED one's changes per
 * statement, so its reads are not reused across statements) and the transaction's own writes
 * of that row it sees. So an answer is reused only at the same cut, when the row was given no
 * own write since and both reads see all it was given, and when no own write was taken back
 * since (a rollback to a mark). Reads with a filter or counting their work are not kept.
 * Thread-safe.
 */
final class RecentGets {
  /** Answers kept: a transfer reads two rows and updates both. */
  private static final int SIZE = 4;

  private record Entry(TableName table, byte[] row, ReadSpec spec, SnapshotCut cut,
      long ownUpTo, long rowNewest, long generation, List<Cell> cells) {}

  private final Entry[] entries = new Entry[SIZE];
  private int next;

  /** Whether reads made as {@code spec} may be kept. */
  static boolean keeps(ReadSpec spec) {
    return spec.filter() == null && spec.metrics() == null && spec.snapshot() != null;
  }

  /**
   * The answer of a read of {@code row} as {@code spec}, seeing own writes up to
   * {@code ownUpTo} of which the row's newest is {@code rowNewest}, kept from an earlier
   * read, or null.
   */
  synchronized List<Cell> find(TableName table, byte[] row, ReadSpec spec, long ownUpTo,
      long rowNewest, long generation) {
    for (Entry e : entries) {
      if (e != null && e.cut() == spec.snapshot() && e.generation() == generation
          && e.rowNewest() == rowNewest && rowNewest <= Math.min(e.ownUpTo(), ownUpTo)
          && Arrays.equals(e.row(), row)
          && e.table().equals(table) && sameRead(e.spec(), spec)) {
        return e.cells();
      }
    }
    return null;
  }

  synchronized void keep(TableName table, byte[] row, ReadSpec spec, long ownUpTo,
      long rowNewest, long generation, List<Cell> cells) {
    entries[next] = new Entry(table, row, spec, spec.snapshot(), ownUpTo, rowNewest, generation,
        List.copyOf(cells));
    next = (next + 1) % SIZE;
  }

  synchronized void clear() {
    Arrays.fill(entries, null);
  }

  /** Same columns, time range and versions. */
  private static boolean sameRead(ReadSpec a, ReadSpec b) {
    if (a.minTimestamp() != b.minTimestamp() || a.maxTimestamp() != b.maxTimestamp()
        || a.maxVersions() != b.maxVersions() || a.families().size() != b.families().size()) {
      return false;
    }
    if (a.families() == b.families()) {
      return true; // one statement's reads share their columns
    }
    Iterator<Map.Entry<byte[], NavigableSet<byte[]>>> i = a.families().entrySet().iterator();
    Iterator<Map.Entry<byte[], NavigableSet<byte[]>>> j = b.families().entrySet().iterator();
    while (i.hasNext()) { // both sorted by family
      Map.Entry<byte[], NavigableSet<byte[]>> x = i.next();
      Map.Entry<byte[], NavigableSet<byte[]>> y = j.next();
      if (!Arrays.equals(x.getKey(), y.getKey()) || !sameQualifiers(x.getValue(), y.getValue())) {
        return false;
      }
    }
    return true;
  }

  private static boolean sameQualifiers(NavigableSet<byte[]> a, NavigableSet<byte[]> b) {
    if (a == null || b == null) {
      return a == b;
    }
    if (a.size() != b.size()) {
      return false;
    }
    Iterator<byte[]> j = b.iterator();
    for (byte[] q : a) { // both in byte order
      if (!Arrays.equals(q, j.next())) {
        return false;
      }
    }
    return true;
  }
}
