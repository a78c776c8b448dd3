package io.basaltdb.sql.index;

import io.basaltdb.sql.SqlStateException;
import io.basaltdb.sql.SqlStates;
import io.basaltdb.sql.catalog.CellNames;
import io.basaltdb.storage.Cell;
import io.basaltdb.storage.CheckAndMutate;
import io.basaltdb.storage.Delete;
import io.basaltdb.storage.Durability;
import io.basaltdb.storage.Get;
import io.basaltdb.storage.Put;
import io.basaltdb.storage.Result;
import io.basaltdb.storage.Table;
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
 * UnverifiedEntries}). The row's version and its checked write are {@link RowVersion}'s; a
 * UNIQUE entry is claimed in phase 1 by {@link UniqueClaims}. Rows go in batches ({@link
 * #writeAll}): a round trip per phase for all of them. One per {@link IndexedRowWrite}; not
 * thread-safe.
 */
final class ClientIndexProtocol {
  /** Attempts of one row's write before a SERIALIZATION_FAILURE: writers keep overtaking it. */
  private static final int ATTEMPTS = 100;

  private final IndexedRowWrite rows;
  private final Table table;
  private final byte[] markerFamily;
  private final List<IndexLayout> layouts;
  private final List<Table> indexTables;
  private final UniqueClaims claims;
  /**
   * Run before phases 1 and 2 (rows sent): may refuse to go on (a writer's index list no longer
   * current, {@link IndexListLease#confirm}).
   */
  private Runnable beforeRows = () -> { };

  ClientIndexProtocol(IndexedRowWrite rows, Table table, byte[] markerFamily,
      List<IndexLayout> layouts, List<Table> indexTables) {
    this.rows = rows;
    this.table = table;
    this.markerFamily = markerFamily;
    this.layouts = layouts;
    this.indexTables = indexTables;
    this.claims = new UniqueClaims(rows, table, markerFamily, layouts, indexTables);
  }

  void beforeRows(Runnable check) {
    beforeRows = check;
  }

  /** One row of a batch: its key, its write's durability and its change. */
  record Pending(byte[] key, Durability durability, IndexedRowWrite.Change change) {}

  /**
   * What a batch wrote: per row whether it was written, and the exception of the first row
   * whose change or UNIQUE entry failed (null: none) and that row's place ({@code failedAt},
   * else the batch's size): every row before it was tried; after it, none, but for a row written
   * before a row it came after failed when written again alone (a UNIQUE entry taken meanwhile).
   */
  record Written(boolean[] wrote, RuntimeException failure, int failedAt) {}

  /** Phase 3 of one index: the new entry's verified status, the old entry's delete (or null). */
  private record Verify(Put verified, Delete deleted) {}

  /**
   * One row's write planned from its read: its key, new values and timestamp, then each phase's
   * writes, the UNIQUE entries it claims in phase 1 among them ({@link UniqueClaims}).
   */
  private record Plan(byte[] key, Object[] now, long ts, List<List<Put>> unverified,
      List<UniqueClaims.Claim> claims, CheckAndMutate data, List<Verify> verify) {}

  /**
   * Applies {@code change} to the row of {@code key} and keeps its entries; with {@code
   * allEntries}, the entries of the row's new values are written even where they did not change
   * (an index being built). Whether the change wrote anything.
   */
  boolean write(byte[] key, Durability d, IndexedRowWrite.Change change, boolean allEntries) {
    return write(key, d, change, allEntries, 0);
  }

  /** As above, after an attempt that left entries at {@code left} (0: none) was overtaken. */
  private boolean write(byte[] key, Durability d, IndexedRowWrite.Change change,
      boolean allEntries, long left) {
    for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
      Result current = table.get(new Get(key));
      Plan plan;
      try {
        plan = plan(key, current, d, change, allEntries, left);
      } catch (RuntimeException e) { // a duplicate key found at the new read, say
        settle(key, current, left, d);
        throw e;
      }
      if (plan == null) {
        settle(key, current, left, d);
        return false;
      }
      beforeRows.run(); // before phase 1 too: a refusal then leaves no entry to settle
      try {
        if (!claims.claimAll(plan.claims(), plan.key(), plan.now(), plan.ts(), d)) {
          left = plan.ts();
          continue; // a claimed entry was written at or above its timestamp meanwhile
        }
      } catch (RuntimeException e) { // a duplicate of a UNIQUE index
        settle(key, current, plan.ts(), d);
        throw e;
      }
      unverify(List.of(plan));
      beforeRows.run();
      if (!table.checkAndMutate(plan.data())) {
        left = plan.ts();
        continue; // another writer wrote the row since phase 0
      }
      verify(List.of(plan));
      return true;
    }
    throw new SqlStateException(SqlStates.SERIALIZATION_FAILURE, "row " + rows.describe(key)
        + " changed under " + ATTEMPTS + " attempts to write it and its index entries; try"
        + " again");
  }

  /**
   * Writes {@code batch} (rows of distinct keys) in one call per phase and index for all of
   * them: the rows read (or taken as {@code read}, whole rows a scan read), every change applied
   * in order until one fails, entries put and unverified, the rows' version-checked writes as one
   * batched check-and-mutate, entries verified and deleted. A row another writer wrote since its
   * read goes through {@link #write} alone, from a new read.
   */
  Written writeAll(List<Pending> batch, List<Result> read, boolean allEntries) {
    List<Result> current = read;
    if (current == null) {
      List<Get> gets = new ArrayList<>(batch.size());
      for (Pending p : batch) {
        gets.add(new Get(p.key()));
      }
      current = table.get(gets);
    }
    boolean[] wrote = new boolean[batch.size()];
    List<Plan> plans = new ArrayList<>();
    List<Integer> planned = new ArrayList<>();
    RuntimeException failure = null;
    int failedAt = batch.size();
    for (int k = 0; k < batch.size(); k++) {
      Pending p = batch.get(k);
      try {
        Plan plan = plan(p.key(), current.get(k), p.durability(), p.change(), allEntries, 0);
        if (plan != null) {
          plans.add(plan);
          planned.add(k);
        }
      } catch (RuntimeException e) {
        failure = e;
        failedAt = k;
        break;
      }
    }
    if (!plans.isEmpty()) {
      beforeRows.run(); // before phase 1 too: a refusal then leaves no entry to settle
    }
    List<Plan> claimed = new ArrayList<>(plans.size());
    List<Integer> claimedAt = new ArrayList<>(plans.size());
    List<Integer> again = new ArrayList<>(); // rows to write alone: a claim met a newer entry
    java.util.Set<List<Object>> taken = new java.util.HashSet<>(); // batch's claims: index, key
    for (int j = 0; j < plans.size(); j++) {
      Plan plan = plans.get(j);
      int k = planned.get(j);
      Pending p = batch.get(k);
      try {
        for (UniqueClaims.Claim c : plan.claims()) {
          if (!taken.add(List.of(c.index(), java.nio.ByteBuffer.wrap(c.entryKey())))) {
            throw rows.duplicate(layouts.get(c.index()), plan.now()); // an earlier row's value
          }
        }
        if (claims.claimAll(plan.claims(), plan.key(), plan.now(), plan.ts(),
            p.durability())) {
          claimed.add(plan);
          claimedAt.add(k);
        } else {
          again.add(k);
        }
      } catch (RuntimeException e) { // a duplicate: this row fails, the later ones are not tried
        settle(p.key(), current.get(k), plan.ts(), p.durability());
        failure = e;
        failedAt = k;
        break;
      }
    }
    plans = claimed;
    planned = claimedAt;
    unverify(plans);
    List<CheckAndMutate> data = new ArrayList<>(plans.size());
    for (Plan plan : plans) {
      data.add(plan.data());
    }
    if (!data.isEmpty()) {
      beforeRows.run();
    }
    boolean[] applied = data.isEmpty() ? new boolean[0] : table.checkAndMutate(data);
    List<Plan> done = new ArrayList<>(plans.size());
    for (int j = 0; j < applied.length; j++) {
      if (applied[j]) {
        done.add(plans.get(j));
      }
    }
    verify(done);
    for (int j = 0; j < applied.length; j++) {
      Pending p = batch.get(planned.get(j));
      wrote[planned.get(j)] = applied[j]
          || write(p.key(), p.durability(), p.change(), allEntries, plans.get(j).ts());
    }
    for (int k : again) {
      Pending p = batch.get(k);
      try {
        wrote[k] = write(p.key(), p.durability(), p.change(), allEntries, 0);
      } catch (RuntimeException e) { // a duplicate written since: the first failing row's
        if (k < failedAt) {
          failure = e;
          failedAt = k;
        }
      }
    }
    return new Written(wrote, failure, failedAt);
  }

  /**
   * The entries of {@code read} (whole rows a scan of the table read), as a build writes them
   * ({@link #writeAll}); the rows written (a row deleted since has none).
   */
  int buildEntries(List<Result> read) {
    List<Pending> batch = new ArrayList<>(read.size());
    for (Result r : read) {
      batch.add(new Pending(r.row(), Durability.SYNC,
          old -> old == null ? null : new IndexedRowWrite.Outcome(null, old)));
    }
    Written written = writeAll(batch, read, true);
    if (written.failure() != null) {
      throw written.failure(); // a duplicate in a UNIQUE index being built
    }
    int n = 0;
    for (boolean w : written.wrote()) {
      n += w ? 1 : 0;
    }
    return n;
  }

  /**
   * Phase 0's outcome for one row read as {@code current}: its change's mutation and values,
   * the timestamp above every cell it held (and {@code left}), each index's entries; null when
   * there is nothing to write.
   */
  private Plan plan(byte[] key, Result current, Durability d, IndexedRowWrite.Change change,
      boolean allEntries, long left) {
    Object[] old = rows.values(key, current);
    IndexedRowWrite.Outcome out = change.apply(old, current);
    if (out == null || (out.mutation() == null && out.values() == null && old == null
        && !allEntries)) {
      return null;
    }
    Object[] now = out.values();
    List<UniqueClaims.Claim> claims = new ArrayList<>();
    boolean[] claimed = new boolean[layouts.size()];
    long above = Math.max(RowVersion.newest(current) + 1, left);
    for (int i = 0; i < layouts.size(); i++) {
      IndexLayout layout = layouts.get(i);
      if (now != null && !layout.keyEndsWithBaseKey(now)
          && (allEntries || old == null || !layout.sameEntry(old, now))) {
        UniqueClaims.Claim c = new UniqueClaims.Claim(i, layout.entryKey(now, key),
            layout.entryValue(now, key));
        claims.add(c);
        claimed[i] = true;
        above = Math.max(above,
            RowVersion.newest(indexTables.get(i).get(new Get(c.entryKey()))) + 1);
      }
    }
    long ts = Math.max(System.currentTimeMillis(), above);
    List<List<Put>> unverified = new ArrayList<>(layouts.size());
    List<Verify> verify = new ArrayList<>(layouts.size());
    for (int i = 0; i < layouts.size(); i++) {
      List<Put> phase1 = new ArrayList<>(2);
      verify.add(entries(layouts.get(i), key, old, now, ts, d, allEntries, claimed[i], phase1));
      unverified.add(phase1);
    }
    return new Plan(key, now, ts, unverified, claims,
        RowVersion.checkedWrite(markerFamily, key, current, out.mutation(), ts, d), verify);
  }

  /**
   * One index's entries of a row going from {@code old} to {@code now} at {@code ts}: phase 1's
   * puts into {@code phase1} (the new entry whole and unverified, the old one marked unverified)
   * and phase 3's writes returned (verify the new, delete the old). Nothing when the entry is
   * unchanged (unless {@code allEntries}). A {@code claimed} new entry (UNIQUE) is put by its
   * claim ({@link UniqueClaims}), not here.
   */
  private static Verify entries(IndexLayout layout, byte[] key, Object[] old, Object[] now,
      long ts, Durability d, boolean allEntries, boolean claimed, List<Put> phase1) {
    if (!allEntries && old != null && now != null && layout.sameEntry(old, now)) {
      return new Verify(null, null);
    }
    byte[] oldKey = old == null ? null : layout.entryKey(old, key);
    byte[] newKey = now == null ? null : layout.entryKey(now, key);
    Put verified = null;
    Delete deleted = null;
    if (oldKey != null && (newKey == null || !Arrays.equals(oldKey, newKey))) {
      phase1.add(status(oldKey, ts, IndexLayout.UNVERIFIED, d));
      deleted = new Delete(oldKey, ts).setDurability(d);
    }
    if (newKey != null) {
      if (!claimed) {
        phase1.add(entry(newKey, ts, IndexLayout.UNVERIFIED, layout.entryValue(now, key), d));
      }
      verified = status(newKey, ts, IndexLayout.VERIFIED, d);
    }
    return new Verify(verified, deleted);
  }

  /** Phase 1 of {@code plans}: one put call per index. */
  private void unverify(List<Plan> plans) {
    for (int i = 0; i < layouts.size(); i++) {
      List<Put> puts = new ArrayList<>();
      for (Plan p : plans) {
        puts.addAll(p.unverified().get(i));
      }
      if (!puts.isEmpty()) {
        indexTables.get(i).put(puts);
      }
    }
  }

  /** Phase 3 of {@code plans}: per index, one call of verified statuses, one of deletes. */
  private void verify(List<Plan> plans) {
    for (int i = 0; i < layouts.size(); i++) {
      List<Put> puts = new ArrayList<>();
      List<Delete> deletes = new ArrayList<>();
      for (Plan p : plans) {
        Verify v = p.verify().get(i);
        if (v.verified() != null) {
          puts.add(v.verified());
        }
        if (v.deleted() != null) {
          deletes.add(v.deleted());
        }
      }
      if (!puts.isEmpty()) {
        indexTables.get(i).put(puts);
      }
      if (!deletes.isEmpty()) {
        indexTables.get(i).delete(deletes);
      }
    }
  }

  /**
   * After an attempt overtaken by another writer left entries at {@code left} (0: none) and the
   * next found nothing to write: moves the row's version to {@code left} or above, so readers
   * delete the new entries it put (they delete an entry the row does not give once its version
   * is no older), and marks verified again the old ones it unverified, rather than leave either
   * for verify-index.
   */
  private void settle(byte[] key, Result current, long left, Durability d) {
    for (int attempt = 0; left > 0 && attempt < ATTEMPTS; attempt++) {
      Cell version = current.getLatestCell(markerFamily, CellNames.VERSION);
      if (version != null && version.timestamp() >= left) {
        return;
      }
      long ts = Math.max(Math.max(System.currentTimeMillis(), RowVersion.newest(current) + 1),
          left);
      if (table.checkAndMutate(RowVersion.checkedWrite(markerFamily, key, current, null, ts,
          d))) {
        reverify(key, current, left, d);
        return;
      }
      current = table.get(new Get(key));
    }
  }

  /**
   * The entries the row read as {@code current} gives, marked verified at {@code left} where
   * they hold its values: an attempt that gave up unverified them at {@code left} as its old
   * entries, and the row, unchanged since (its version just moved from the one read), still
   * gives them. A writer that changes the row next unverifies them above {@code left}.
   */
  private void reverify(byte[] key, Result current, long left, Durability d) {
    Object[] values = rows.values(key, current);
    if (values == null) {
      return;
    }
    for (int i = 0; i < layouts.size(); i++) {
      IndexLayout layout = layouts.get(i);
      byte[] entryKey = layout.entryKey(values, key);
      indexTables.get(i).checkAndMutate(CheckAndMutate.newBuilder(entryKey)
          .ifEquals(IndexLayout.FAMILY, IndexLayout.QUALIFIER, layout.entryValue(values, key))
          .build(status(entryKey, left, IndexLayout.VERIFIED, d)));
    }
  }

  static Put status(byte[] entryKey, long ts, byte[] status, Durability d) {
    Put put = new Put(entryKey).addColumn(IndexLayout.FAMILY, IndexLayout.STATUS, ts, status);
    put.setDurability(d);
    return put;
  }

  /** A whole entry: its value and its status, both at {@code ts}. */
  static Put entry(byte[] entryKey, long ts, byte[] status, byte[] value, Durability d) {
    return status(entryKey, ts, status, d).addColumn(IndexLayout.FAMILY, IndexLayout.QUALIFIER,
        ts, value);
  }

  /**
   * An entry's value alone at {@code ts}: a build's, verified by having no status newer than
   * it ({@link UnverifiedEntries#usable}).
   */
  static Put value(byte[] entryKey, long ts, byte[] value, Durability d) {
    Put put = new Put(entryKey).addColumn(IndexLayout.FAMILY, IndexLayout.QUALIFIER, ts, value);
    put.setDurability(d);
    return put;
  }
}
