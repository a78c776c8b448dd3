package io.basaltdb.sql.index;

import io.basaltdb.sql.catalog.CellNames;
import io.basaltdb.sql.catalog.SqlTableDef;
import io.basaltdb.storage.Cell;
import io.basaltdb.storage.CheckAndMutate;
import io.basaltdb.storage.Delete;
import io.basaltdb.storage.Durability;
import io.basaltdb.storage.Get;
import io.basaltdb.storage.Result;
import io.basaltdb.storage.Storage;
import io.basaltdb.storage.Table;
import java.util.Arrays;
import java.util.List;

/**
 * What a reader of an index kept by {@link ClientIndexProtocol} (a storage writing one row
 * atomically) does with each entry: a verified one (newest status {@code 1}, no older than its
 * value) is used; an unverified one is checked against its base row read now. An entry whose
 * key the row's current values give is used, with the value they give (a writer may have put
 * its new value before writing the row); one they give whole is also repaired (status verified
 * at the entry's own timestamp, if still unverified: a newer writer's status, at a newer
 * timestamp, still wins); any other is skipped, and deleted (up to its own timestamp) only when
 * the row's version cell is no older than it: a later write superseded it, or a write at the
 * same millisecond, which either made the entry and unverified it as the row's old one, or
 * raced its writer, whose version check then fails (a writer that reads the row after it takes
 * a later timestamp). An older row may mean its writer is between its entry and its row write,
 * so the entry is left for it ({@link #stuck}). An entry without value (a status a writer put
 * where no entry was) does not exist. Counts the entries it checked. One per index read; not
 * thread-safe.
 */
public final class UnverifiedEntries {
  private final IndexLayout layout;
  private final Table index;
  private final Table table;
  private final IndexedRowWrite rows;
  private final byte[] markerFamily;
  private long checked;
  /** Whether the last entry checked stays unverified (repair hidden, or left for its writer). */
  private boolean stuck;

  public UnverifiedEntries(Storage db, SqlTableDef def, IndexLayout layout, Table index) {
    this.layout = layout;
    this.index = index;
    this.table = db.table(def.table());
    this.rows = new IndexedRowWrite(db, def, List.of(), -1);
    this.markerFamily = CellNames.of(def).markerFamily();
  }

  /** Whether a storage keeps its indexes by the client-side protocol (entries with status). */
  public static boolean kept(Storage db) {
    return !db.atomicAcrossRows();
  }

  /**
   * The value to use for {@code entry} (read with its value and status cells), or null when no
   * row gives it: its own value when verified, that is unless its newest status, at or above
   * the value's timestamp, says unverified. The protocol writes a value with its status at one
   * timestamp and later statuses above it, so a value newer than every status (or with none)
   * is a build's ({@link IndexedRowWrite#writeVerifiedEntries}), verified: a status below it is
   * an earlier write's of the same entry. For an unverified entry, the value its row's
   * current values give, when they give its key (the row is then found through it even while a
   * writer's new value, put before the row's write, sits in the entry).
   */
  public byte[] usable(Result entry) {
    Cell value = entry.getLatestCell(IndexLayout.FAMILY, IndexLayout.QUALIFIER);
    if (value == null) {
      return null;
    }
    Cell status = entry.getLatestCell(IndexLayout.FAMILY, IndexLayout.STATUS);
    if (status == null || status.timestamp() < value.timestamp() // a build's value alone
        || Arrays.equals(status.value(), IndexLayout.VERIFIED)) {
      return value.value();
    }
    checked++;
    stuck = true;
    byte[] baseKey = layout.baseKey(entry.row(), value.value());
    Result row = table.get(new Get(baseKey));
    Object[] values = rows.values(baseKey, row);
    if (values != null && Arrays.equals(layout.entryKey(values, baseKey), entry.row())) {
      byte[] rowValue = layout.entryValue(values, baseKey);
      if (!Arrays.equals(rowValue, value.value())) {
        return rowValue; // a writer's value not (yet) in the row: only a fence settles it
      }
      index.checkAndMutate(CheckAndMutate.newBuilder(entry.row())
          .ifEquals(IndexLayout.FAMILY, IndexLayout.STATUS, IndexLayout.UNVERIFIED)
          .build(ClientIndexProtocol.status(entry.row(), value.timestamp(), IndexLayout.VERIFIED,
              Durability.ASYNC)));
      stuck = status != null && status.timestamp() > value.timestamp(); // a writer's unverify
      return rowValue;
    }
    Cell version = row.getLatestCell(markerFamily, CellNames.VERSION);
    if (version != null && version.timestamp() >= value.timestamp()) {
      index.delete(new Delete(entry.row(), value.timestamp()).setDurability(Durability.ASYNC));
      stuck = false;
    }
    return null;
  }

  /**
   * Whether the entry {@link #usable} last checked stays unverified: a writer unverified it (at a
   * newer timestamp than its value, so a reader's repair is hidden) and did not write the row, or
   * it matches no row and its row was not written since (its writer may be about to). Only
   * fencing the row ({@link IndexedRowWrite#fence}) settles it.
   */
  public boolean stuck() {
    return stuck;
  }

  /** Unverified entries checked against their rows. */
  public long checked() {
    return checked;
  }
}
