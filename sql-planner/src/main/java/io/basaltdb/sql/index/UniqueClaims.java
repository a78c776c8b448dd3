package io.basaltdb.sql.index;

import io.basaltdb.sql.SqlStateException;
import io.basaltdb.sql.SqlStates;
import io.basaltdb.storage.Cell;
import io.basaltdb.storage.CheckAndMutate;
import io.basaltdb.storage.Durability;
import io.basaltdb.storage.Get;
import io.basaltdb.storage.Put;
import io.basaltdb.storage.Result;
import io.basaltdb.storage.Table;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;

/**
 * The UNIQUE entries of the client-side index protocol ({@link ClientIndexProtocol}, doc
 * "UNIQUE"): a UNIQUE entry's row is its indexed values alone, so rows with equal values meet
 * on it. A write claims it in its phase 1 by check-and-mutate on the claim cell {@code _c}
 * (random bytes each claim puts): empty, its own, or held by a row whose values no longer give
 * it, that row fenced first (its version moved: a writer between its claim and its row write
 * fails that write and reads again); held by a row that gives it, 23505. A fresh unverified
 * claim of another row is waited for, not fenced. One per protocol; not thread-safe.
 */
final class UniqueClaims {
  /** A UNIQUE entry a row's write puts: its index (position), key and value. */
  record Claim(int index, byte[] entryKey, byte[] value) {}

  /**
   * How long an unverified claim of a UNIQUE entry is presumed to be a live writer's, waited
   * for rather than fenced (a writer's claim, row write and verify take a few round trips).
   */
  static final long CLAIM_LEASE_MILLIS = 1000;
  /** How long a claim waits for other writers' claims of its entry before giving up (40001). */
  private static final long CLAIM_GIVE_UP_NANOS = 10_000_000_000L;

  private final IndexedRowWrite rows;
  private final Table table;
  private final byte[] markerFamily;
  private final List<IndexLayout> layouts;
  private final List<Table> indexTables;

  UniqueClaims(IndexedRowWrite rows, Table table, byte[] markerFamily, List<IndexLayout> layouts,
      List<Table> indexTables) {
    this.rows = rows;
    this.table = table;
    this.markerFamily = markerFamily;
    this.layouts = layouts;
    this.indexTables = indexTables;
  }

  /**
   * Phase 1 of the UNIQUE entries {@code claims} of the write of row {@code key} (new values
   * {@code now}) at {@code ts}, in order ({@link #claim}); false when one was written at or
   * above {@code ts} meanwhile (the write must start again, above).
   */
  boolean claimAll(List<Claim> claims, byte[] key, Object[] now, long ts, Durability d) {
    for (Claim c : claims) {
      if (!claim(c, key, now, ts, d)) {
        return false;
      }
    }
    return true;
  }

  /**
   * Puts a UNIQUE entry, unverified at {@code ts}, into its row (doc "UNIQUE"), by
   * check-and-mutate on the claim read (a random number each claim puts beside the value, so
   * that a claim is never taken for another with the same value): when the row holds no
   * entry, this row's own, or one of another row whose current values no longer give it. That
   * other row's writer may be between its entry and its row write: the row is fenced first (its
   * version moved), so that writer's row write fails and it reads again, meeting this entry.
   * Another row that gives the entry is a duplicate: 23505, nothing of this row written. False
   * when the entry row holds cells at or above {@code ts}.
   */
  private boolean claim(Claim c, byte[] key, Object[] now, long ts, Durability d) {
    Table index = indexTables.get(c.index());
    IndexLayout layout = layouts.get(c.index());
    long deadline = System.nanoTime() + CLAIM_GIVE_UP_NANOS;
    while (System.nanoTime() < deadline) {
      Result entry = index.get(new Get(c.entryKey()));
      if (RowVersion.newest(entry) >= ts) {
        return false;
      }
      byte[] held = entry.getValue(IndexLayout.FAMILY, IndexLayout.QUALIFIER);
      byte[] claimed = entry.getValue(IndexLayout.FAMILY, IndexLayout.CLAIM);
      CheckAndMutate.Builder when = CheckAndMutate.newBuilder(c.entryKey());
      if (held == null) {
        when.ifNotExists(IndexLayout.FAMILY, IndexLayout.QUALIFIER);
      } else {
        byte[] holder = layout.baseKey(c.entryKey(), held);
        if (!Arrays.equals(holder, key)) {
          Result other = table.get(new Get(holder));
          Object[] values = rows.values(holder, other);
          if (values != null && Arrays.equals(layout.entryKey(values, holder), c.entryKey())) {
            throw rows.duplicate(layout, now);
          }
          if (fresh(entry)) { // its writer is likely between its claim and its row: wait
            pause();
            continue;
          }
          if (!fence(holder, other, d)) {
            continue; // the other row was written since: look again
          }
        }
        if (claimed == null) {
          when.ifNotExists(IndexLayout.FAMILY, IndexLayout.CLAIM);
        } else { // not the value: its holder may have put the same value again since
          when.ifEquals(IndexLayout.FAMILY, IndexLayout.CLAIM, claimed);
        }
      }
      Put put = ClientIndexProtocol.entry(c.entryKey(), ts, IndexLayout.UNVERIFIED, c.value(), d);
      put.addColumn(IndexLayout.FAMILY, IndexLayout.CLAIM, ts, ByteBuffer.allocate(8)
          .putLong(java.util.concurrent.ThreadLocalRandom.current().nextLong()).array());
      if (index.checkAndMutate(when.build(put))) {
        return true;
      }
    }
    throw new SqlStateException(SqlStates.SERIALIZATION_FAILURE, "unique index "
        + layout.index().name() + " entry of row " + rows.describe(key) + " still claimed by"
        + " other writers after " + CLAIM_GIVE_UP_NANOS / 1_000_000_000 + " s; try again");
  }

  /**
   * Whether a UNIQUE entry another row holds is an unverified claim younger than {@link
   * #CLAIM_LEASE_MILLIS}: its writer is presumed alive, about to write its row, and is waited
   * for rather than fenced (two claimers fencing each other's claims would go on forever);
   * an older one is presumed left by a dead writer and fenced.
   */
  private static boolean fresh(Result entry) {
    Cell status = entry.getLatestCell(IndexLayout.FAMILY, IndexLayout.STATUS);
    return status != null && Arrays.equals(status.value(), IndexLayout.UNVERIFIED)
        && status.timestamp() > System.currentTimeMillis() - CLAIM_LEASE_MILLIS;
  }

  private static void pause() {
    try {
      Thread.sleep(1 + java.util.concurrent.ThreadLocalRandom.current().nextInt(4));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new SqlStateException(SqlStates.SERIALIZATION_FAILURE, "interrupted while waiting"
          + " for another writer's claim of a unique index entry");
    }
  }

  /**
   * Moves the version of the row read as {@code row} (key {@code key}) if it is still the one
   * read, nothing else: a writer that read the row before fails its row write. Whether it moved.
   */
  private boolean fence(byte[] key, Result row, Durability d) {
    long ts = Math.max(System.currentTimeMillis(), RowVersion.newest(row) + 1);
    return table.checkAndMutate(RowVersion.checkedWrite(markerFamily, key, row, null, ts, d));
  }
}
