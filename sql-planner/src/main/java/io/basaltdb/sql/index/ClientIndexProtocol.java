package io.basaltdb.sql.index;

import io.basaltdb.sql.SqlStateException;
import io.basaltdb.sql.SqlStates;
import io.basaltdb.sql.catalog.CellNames;
import io.basaltdb.storage.Cell;
import io.basaltdb.storage.CellType;
import io.basaltdb.storage.CheckAndMutate;
import io.basaltdb.storage.CompareOperator;
import io.basaltdb.storage.Delete;
import io.basaltdb.storage.Durability;
import io.basaltdb.storage.Get;
import io.basaltdb.storage.Mutation;
import io.basaltdb.storage.Put;
import io.basaltdb.storage.Result;
import io.basaltdb.storage.Row;
import io.basaltdb.storage.RowMutations;
import io.basaltdb.storage.Table;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Writes one base row and its index entries on a storage that writes no more than one row
 * atomically (HBase), with single-row operations only, in the phases of {@code
 * hbase-storage/doc/indexes-over-hbase.md}: (0) read the row, its version cell {@code _ver} and
 * the newest timestamp among its cells; (1) put the new entries and mark the old ones
 * unverified; (2) write the row if its version is still the one read, with the next version;
 * (3) mark the new entries verified and delete the old ones. Every cell of one write carries one
 * timestamp, above every cell the row held, so successive writers of a row take increasing
 * timestamps whatever their clocks, and an entry whose newest status is verified matches its
 * row: any write that changes the row's values first unverifies it, at a newer timestamp. A
 * failed version check (another writer came between phases 0 and 2) starts again from phase 0;
 * what phase 1 wrote stays unverified, which readers check against the row ({@link
 * UnverifiedEntries}). One per {@link IndexedRowWrite}; not thread-safe.
 */
final class ClientIndexProtocol {
  /** Attempts of one row's write before a SERIALIZATION_FAILURE: writers keep overtaking it. */
  private static final int ATTEMPTS = 100;

  private final IndexedRowWrite rows;
  private final Table table;
  private final byte[] markerFamily;
  private final List<IndexLayout> layouts;
  private final List<Table> indexTables;

  ClientIndexProtocol(IndexedRowWrite rows, Table table, byte[] markerFamily,
      List<IndexLayout> layouts, List<Table> indexTables) {
    this.rows = rows;
    this.table = table;
    this.markerFamily = markerFamily;
    this.layouts = layouts;
    this.indexTables = indexTables;
  }

  /**
   * Applies {@code change} to the row of {@code key} and keeps its entries; with {@code
   * allEntries}, the entries of the row's new values are written even where they did not change
   * (an index being built).
   */
  void write(byte[] key, Durability d, IndexedRowWrite.Change change, boolean allEntries) {
    write(key, d, change, allEntries, 0);
  }

  /** As above, after an attempt that left entries at {@code left} (0: none) was overtaken. */
  private void write(byte[] key, Durability d, IndexedRowWrite.Change change,
      boolean allEntries, long left) {
    for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
      Result current = table.get(new Get(key));
      Object[] old = rows.values(key, current);
      IndexedRowWrite.Outcome out;
      try {
        out = change.apply(old);
      } catch (RuntimeException e) { // a duplicate key found at the new read, say
        settle(key, current, left, d);
        throw e;
      }
      if (out == null || (out.mutation() == null && out.values() == null && old == null
          && !allEntries)) {
        settle(key, current, left, d);
        return;
      }
      Cell version = current.getLatestCell(markerFamily, CellNames.VERSION);
      long v = version == null ? 0 : ByteBuffer.wrap(version.value()).getLong();
      long ts = Math.max(Math.max(System.currentTimeMillis(), newest(current) + 1), left);
      List<Verify> verify = new ArrayList<>();
      for (int i = 0; i < layouts.size(); i++) {
        verify.add(unverify(i, key, old, out.values(), ts, d, allEntries));
      }
      if (!table.checkAndMutate(dataWrite(key, version == null ? null : version.value(), v,
          out.mutation(), ts, d))) {
        left = ts;
        continue; // another writer wrote the row since phase 0
      }
      for (int i = 0; i < layouts.size(); i++) {
        Verify v3 = verify.get(i);
        if (v3.verified() != null) {
          indexTables.get(i).put(v3.verified());
        }
        if (v3.deleted() != null) {
          indexTables.get(i).delete(v3.deleted());
        }
      }
      return;
    }
    throw new SqlStateException(SqlStates.SERIALIZATION_FAILURE, "row " + rows.describe(key)
        + " changed under " + ATTEMPTS + " attempts to write it and its index entries; try"
        + " again");
  }

  private static long newest(Result row) {
    long newest = 0;
    for (Cell c : row.cells()) {
      newest = Math.max(newest, c.timestamp());
    }
    return newest;
  }

  /**
   * After an attempt overtaken by another writer left entries at {@code left} (0: none) and the
   * next found nothing to write: moves the row's version to {@code left} or above, so readers
   * delete those entries (they delete an entry the row does not give once its version is no
   * older) rather than leave them for verify-index.
   */
  private void settle(byte[] key, Result current, long left, Durability d) {
    for (int attempt = 0; left > 0 && attempt < ATTEMPTS; attempt++) {
      Cell version = current.getLatestCell(markerFamily, CellNames.VERSION);
      if (version != null && version.timestamp() >= left) {
        return;
      }
      long ts = Math.max(Math.max(System.currentTimeMillis(), newest(current) + 1), left);
      if (table.checkAndMutate(dataWrite(key, version == null ? null : version.value(),
          version == null ? 0 : ByteBuffer.wrap(version.value()).getLong(), null, ts, d))) {
        return;
      }
      current = table.get(new Get(key));
    }
  }

  /**
   * The entries of {@code rows} (whole rows, as a scan read them: phase 0 for each), written as
   * a build writes them, in one call per phase and index for all of them: entries put
   * unverified, each row's version moved if unchanged since read (a batch of check-and-mutates),
   * entries of those rows verified. A row written since its read goes through {@link #write}
   * alone, from a new read. Returns the rows that exist.
   */
  int buildEntries(List<Result> rows) {
    List<byte[]> keys = new ArrayList<>();
    List<Object[]> values = new ArrayList<>();
    List<CheckAndMutate> versions = new ArrayList<>();
    List<Long> stamps = new ArrayList<>();
    long now = System.currentTimeMillis();
    for (Result r : rows) {
      Object[] v = this.rows.values(r.row(), r);
      if (v == null) {
        continue;
      }
      Cell version = r.getLatestCell(markerFamily, CellNames.VERSION);
      long ts = Math.max(now, newest(r) + 1);
      keys.add(r.row());
      values.add(v);
      stamps.add(ts);
      versions.add(dataWrite(r.row(), version == null ? null : version.value(),
          version == null ? 0 : ByteBuffer.wrap(version.value()).getLong(), null, ts,
          Durability.SYNC));
    }
    for (int i = 0; i < layouts.size(); i++) {
      IndexLayout layout = layouts.get(i);
      List<Put> entries = new ArrayList<>(keys.size());
      for (int k = 0; k < keys.size(); k++) {
        Put put = status(layout.entryKey(values.get(k), keys.get(k)), stamps.get(k),
            IndexLayout.UNVERIFIED, Durability.SYNC);
        put.addColumn(IndexLayout.FAMILY, IndexLayout.QUALIFIER, stamps.get(k),
            layout.entryValue(values.get(k), keys.get(k)));
        entries.add(put);
      }
      if (!entries.isEmpty()) {
        indexTables.get(i).put(entries);
      }
    }
    boolean[] applied = versions.isEmpty() ? new boolean[0] : table.checkAndMutate(versions);
    for (int i = 0; i < layouts.size(); i++) {
      List<Put> verified = new ArrayList<>(keys.size());
      for (int k = 0; k < keys.size(); k++) {
        if (applied[k]) {
          verified.add(status(layouts.get(i).entryKey(values.get(k), keys.get(k)),
              stamps.get(k), IndexLayout.VERIFIED, Durability.SYNC));
        }
      }
      if (!verified.isEmpty()) {
        indexTables.get(i).put(verified);
      }
    }
    for (int k = 0; k < keys.size(); k++) {
      if (!applied[k]) { // written since the scan read it: its entries from a new read
        write(keys.get(k), Durability.SYNC,
            old -> old == null ? null : new IndexedRowWrite.Outcome(null, old), true,
            stamps.get(k));
      }
    }
    return keys.size();
  }

  /** Phase 3 of one index: the new entry's verified status, the old entry's delete (or null). */
  private record Verify(Put verified, Delete deleted) {}

  /**
   * Phase 1 for index {@code i}: the new entry put unverified and the old one marked so; returns
   * phase 3's writes (verify the new, delete the old). Nothing when the entry is unchanged.
   */
  private Verify unverify(int i, byte[] key, Object[] old, Object[] now, long ts,
      Durability d, boolean allEntries) {
    IndexLayout layout = layouts.get(i);
    if (!allEntries && old != null && now != null && layout.sameEntry(old, now)) {
      return new Verify(null, null);
    }
    byte[] oldKey = old == null ? null : layout.entryKey(old, key);
    byte[] newKey = now == null ? null : layout.entryKey(now, key);
    boolean moved = oldKey != null && (newKey == null || !Arrays.equals(oldKey, newKey));
    List<Put> phase1 = new ArrayList<>(2);
    Put verified = null;
    Delete deleted = null;
    if (moved) {
      phase1.add(status(oldKey, ts, IndexLayout.UNVERIFIED, d));
      deleted = new Delete(oldKey, ts).setDurability(d);
    }
    if (newKey != null) {
      Put put = status(newKey, ts, IndexLayout.UNVERIFIED, d);
      put.addColumn(IndexLayout.FAMILY, IndexLayout.QUALIFIER, ts, layout.entryValue(now, key));
      phase1.add(put);
      verified = status(newKey, ts, IndexLayout.VERIFIED, d);
    }
    if (!phase1.isEmpty()) {
      indexTables.get(i).put(phase1);
    }
    return new Verify(verified, deleted);
  }

  static Put status(byte[] entryKey, long ts, byte[] status, Durability d) {
    Put put = new Put(entryKey).addColumn(IndexLayout.FAMILY, IndexLayout.STATUS, ts, status);
    put.setDurability(d);
    return put;
  }

  /**
   * Phase 2: the statement's mutation with every cell at {@code ts} and the row's next version,
   * if its version cell still holds {@code expected} (null: has none). A row delete keeps the
   * version, a millisecond later (HBase hides a put under a marker of its own mutation).
   */
  private CheckAndMutate dataWrite(byte[] key, byte[] expected, long v, Row mutation, long ts,
      Durability d) {
    RowMutations rm = new RowMutations(key);
    long versionTs = ts;
    List<Mutation> parts = new ArrayList<>();
    if (mutation instanceof RowMutations m) {
      parts.addAll(m.mutations());
    } else if (mutation != null) {
      parts.add((Mutation) mutation);
    }
    for (Mutation m : parts) {
      if (m instanceof Delete del && del.cells().isEmpty()) {
        rm.add(new Delete(key, ts).setDurability(d));
        versionTs = ts + 1;
      } else if (m instanceof Delete del) {
        Delete restamped = new Delete(key, ts);
        for (Cell c : del.cells()) {
          restamp(restamped, c, ts);
        }
        rm.add(restamped.setDurability(d));
      } else if (m instanceof Put put) {
        Put restamped = new Put(key);
        for (Cell c : put.cells()) {
          restamped.addColumn(c.family(), c.qualifier(), ts, c.value());
        }
        rm.add(restamped.setDurability(d));
      } else {
        throw new IllegalStateException("an indexed row's write cannot hold " + m);
      }
    }
    rm.add(new Put(key).addColumn(markerFamily, CellNames.VERSION, versionTs,
        ByteBuffer.allocate(8).putLong(v + 1).array()).setDurability(d));
    CheckAndMutate.Builder when = CheckAndMutate.newBuilder(key);
    if (expected == null) {
      when.ifNotExists(markerFamily, CellNames.VERSION);
    } else {
      when.ifMatches(markerFamily, CellNames.VERSION, CompareOperator.EQUAL, expected);
    }
    return when.build(rm);
  }

  private static void restamp(Delete out, Cell c, long ts) {
    if (c.type() == CellType.DELETE_COLUMN) {
      out.addColumns(c.family(), c.qualifier(), ts);
    } else if (c.type() == CellType.DELETE_FAMILY) {
      out.addFamily(c.family(), ts);
    } else {
      throw new IllegalStateException("an indexed row's write cannot delete one version of "
          + Cell.printable(c.qualifier()));
    }
  }
}
