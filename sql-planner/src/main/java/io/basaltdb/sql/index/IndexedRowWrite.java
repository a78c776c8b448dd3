package io.basaltdb.sql.index;

import io.basaltdb.sql.SqlStateException;
import io.basaltdb.sql.SqlStates;
import io.basaltdb.sql.catalog.CellNames;
import io.basaltdb.sql.catalog.SqlColumn;
import io.basaltdb.sql.catalog.SqlIndexDef;
import io.basaltdb.sql.catalog.SqlTableDef;
import io.basaltdb.sql.type.RowKeyCodec;
import io.basaltdb.storage.Delete;
import io.basaltdb.storage.Durability;
import io.basaltdb.storage.Put;
import io.basaltdb.storage.Result;
import io.basaltdb.storage.Row;
import io.basaltdb.storage.RowChange;
import io.basaltdb.storage.Storage;
import io.basaltdb.storage.Table;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Writes one base row of a table with indexes together with its index entries, as one engine
 * write ({@link Storage#mutateAfterRead}): under the base row's lock the row's current values
 * are read, the statement's change computes the new values and the base mutation, and the
 * entries of the old values that change are deleted and those of the new values put, all in
 * one log record. A UNIQUE entry held by another base row refuses the whole write (23505).
 * Entries carry the base write's timestamp (the statement's write timestamp, else the write's
 * time, the same for every part). One per statement execution; not thread-safe.
 */
public final class IndexedRowWrite {
  /** What a statement does to one row, given its current values (null: no such row). */
  public interface Change {
    /** The base mutation and the row's new values (null: deleted); null: write nothing. */
    Outcome apply(Object[] old);

    /** As {@link #apply(Object[])}, given also the row as read ({@code old} is its values). */
    default Outcome apply(Object[] old, Result current) {
      return apply(old);
    }
  }

  /** A base row's mutation and its values after it (null when it deletes the row). */
  public record Outcome(Row mutation, Object[] values) {}

  private final Storage db;
  private final SqlTableDef def;
  private final Table table;
  private final CellNames names;
  private final RowKeyCodec codec;
  private final List<IndexLayout> layouts = new ArrayList<>();
  private final List<Table> indexTables = new ArrayList<>();
  private final long writeTimestamp;
  /** Non-null on a storage writing one row atomically: the entries' client-side protocol. */
  private final ClientIndexProtocol protocol;
  /** In a client-kept transaction, per UNIQUE index: what the protocol's readers do. */
  private final java.util.Map<IndexLayout, UnverifiedEntries> unverifiedChecks =
      new java.util.HashMap<>();

  /** {@code writeTimestamp}: the statement's explicit cell timestamp, or -1. */
  public IndexedRowWrite(Storage db, SqlTableDef def, List<SqlIndexDef> indexes,
      long writeTimestamp) {
    this(db, def, indexes, writeTimestamp, false);
  }

  /**
   * A writer of {@code indexes} (maybe none) by the client-side protocol where the storage
   * keeps indexes by it: for a statement that began with indexes another process's DDL changed
   * ({@link IndexListLease}), whose rows held for the old list are written for the new one.
   */
  public static IndexedRowWrite afterIndexesChanged(Storage db, SqlTableDef def,
      List<SqlIndexDef> indexes, long writeTimestamp) {
    return new IndexedRowWrite(db, def, indexes, writeTimestamp, true);
  }

  private IndexedRowWrite(Storage db, SqlTableDef def, List<SqlIndexDef> indexes,
      long writeTimestamp, boolean protocolEvenIfNone) {
    this.db = db;
    this.def = def;
    this.table = db.table(def.table());
    this.names = CellNames.of(def);
    this.codec = def.keyCodec();
    this.writeTimestamp = writeTimestamp;
    for (SqlIndexDef i : indexes) {
      layouts.add(IndexRegistry.of(db).layout(def, i));
      indexTables.add(db.table(i.engineTable()));
    }
    // in a transaction kept in the client (over HBase) the rows and entries are its own
    // writes, verified; its commit writes the rows through the protocol (ConnectionTransaction)
    protocol = db.atomicAcrossRows() || (indexes.isEmpty() && !protocolEvenIfNone)
        || db.inTransaction() ? null
        : new ClientIndexProtocol(this, table, names.markerFamily(), layouts, indexTables);
    if (!db.atomicAcrossRows() && !indexes.isEmpty() && writeTimestamp >= 0) {
      throw new SqlStateException(SqlStates.FEATURE_NOT_SUPPORTED, "table " + def.table()
          + " has indexes, which " + db.location() + " keeps by a protocol of single-row"
          + " writes at times it picks: a connection's write timestamp cannot write it");
    }
  }

  /** Applies {@code change} to the row of {@code key} and its entries, atomically. */
  public void write(byte[] key, Durability durability, Change change) {
    Durability d = durability == Durability.SKIP ? Durability.ASYNC : durability;
    if (protocol != null) {
      protocol.write(key, d, change, false);
      return;
    }
    db.mutateAfterRead(table, key, d, current -> {
      Object[] old = values(key, current);
      Outcome out = change.apply(old, current);
      if (out == null) {
        return List.of();
      }
      List<RowChange> changes = new ArrayList<>();
      if (out.mutation() != null) {
        changes.add(new RowChange(table, out.mutation()));
      }
      for (int i = 0; i < layouts.size(); i++) {
        entryChanges(layouts.get(i), indexTables.get(i), key, old, out.values(), d, changes);
      }
      return changes;
    });
  }

  /**
   * Writes the entries of the row of {@code key}, if it exists, from its current values under
   * its lock, at the newest timestamp among its cells (an index being built: a write that
   * changed the row since maintained the entries itself, so these are never stale). Not on a
   * storage keeping indexes by the client-side protocol, whose build writes whole rows read by
   * its scan ({@link #writeEntries(List)}).
   */
  public void writeEntries(byte[] key) {
    db.mutateAfterRead(table, key, Durability.ASYNC, current -> {
      Object[] now = values(key, current);
      if (now == null) {
        return List.of();
      }
      long ts = RowVersion.newest(current);
      List<RowChange> changes = new ArrayList<>();
      for (int i = 0; i < layouts.size(); i++) {
        IndexLayout layout = layouts.get(i);
        byte[] entry = layout.entryKey(now, key);
        Put put = new Put(entry).addColumn(IndexLayout.FAMILY, IndexLayout.QUALIFIER, ts,
            layout.entryValue(now, key));
        put.setDurability(Durability.ASYNC);
        Table index = indexTables.get(i);
        changes.add(new RowChange(index, put, layout.keyEndsWithBaseKey(now) ? null
            : existing -> checkUnique(layout, index, entry, key, now, existing)));
      }
      return changes;
    });
  }

  /**
   * Over a storage keeping indexes by the client-side protocol: writes the row of {@code key}
   * unchanged but for its version (so a writer that read the old version, alive or dead, fails
   * its row write and starts again), with every entry of its current values written again,
   * verified, at a timestamp above all it held (a missing row gets a version and no entries).
   */
  public void fence(byte[] key) {
    if (protocol == null) {
      throw new IllegalStateException("no client-side index protocol on " + db.location());
    }
    protocol.write(key, Durability.SYNC, old -> new Outcome(null, old), true);
  }

  /**
   * Runs {@code check} just before the protocol sends rows: it may refuse to send them ({@link
   * IndexListLease#confirm}). No effect when the indexes are not kept by the protocol.
   */
  public void beforeRows(Runnable check) {
    if (protocol != null) {
      protocol.beforeRows(check);
    }
  }

  /**
   * Whether this writer keeps the indexes by the client-side protocol (a storage writing one
   * row atomically), whose build reads whole rows and writes their entries in batches
   * ({@link #writeEntries(List)}).
   */
  public boolean byProtocol() {
    return protocol != null;
  }

  /**
   * The entries of {@code rows}, whole rows a scan of the table read ({@link #byProtocol} only):
   * in one call per phase, as {@link #writeEntries(byte[])} writes one row's; the rows that exist.
   */
  public int writeEntries(List<Result> rows) {
    return protocol.buildEntries(rows);
  }

  /**
   * Whether a build writes this writer's entries by their rows' timestamps ({@link
   * #writeVerifiedEntries}): the client-side protocol, no UNIQUE index, and index tables whose
   * delete markers hide later puts.
   */
  public boolean buildsByTimestamps() {
    if (protocol == null) {
      return false;
    }
    for (IndexLayout layout : layouts) {
      if (layout.index().unique() || !db.markersHideLaterPuts(layout.index().engineTable())) {
        return false;
      }
    }
    return true;
  }

  /**
   * The entries of {@code rows} (whole rows a build's scan read), written verified (a value
   * cell with no status cell: a third less work for the region server than the two cells the
   * protocol writes), each at the newest timestamp among its row's cells, in one put call per
   * index ({@link
   * #buildsByTimestamps} only); the rows that exist. A writer that changes a row after the scan
   * read it writes above that timestamp (every protocol write is above every cell its row holds)
   * and unverifies, then deletes, the entry the scan's values give; where delete markers hide
   * later puts, its status and its delete win over this put whatever the order they land in, so
   * the entry is never a stale verified one. No write of the data table, no check. {@code
   * counts} (null: none) counts the keys of the first index's entries (a build writes one).
   */
  public int writeVerifiedEntries(List<Result> rows, PrefixCounts counts) {
    List<List<Put>> puts = new ArrayList<>(layouts.size());
    layouts.forEach(l -> puts.add(new ArrayList<>(rows.size())));
    int written = 0;
    for (Result r : rows) {
      Object[] now = values(r.row(), r);
      if (now == null) {
        continue;
      }
      long ts = RowVersion.newest(r);
      for (int i = 0; i < layouts.size(); i++) {
        IndexLayout layout = layouts.get(i);
        byte[] entryKey = layout.entryKey(now, r.row());
        puts.get(i).add(ClientIndexProtocol.value(entryKey, ts, layout.entryValue(now, r.row()),
            Durability.SYNC));
        if (i == 0 && counts != null) {
          counts.add(entryKey);
        }
      }
      written++;
    }
    for (int i = 0; i < layouts.size(); i++) {
      if (!puts.get(i).isEmpty()) {
        indexTables.get(i).put(puts.get(i));
      }
    }
    return written;
  }

  /**
   * The change a client-kept transaction's commit makes of a row it wrote ({@link
   * io.basaltdb.storage.StorageTransaction#takeRows}): its own cells over the row as the
   * protocol reads it then, so a column another client wrote meanwhile is kept and indexed.
   */
  public Change committing(io.basaltdb.storage.StorageTransaction.OwnRow own) {
    return new Change() {
      @Override
      public Outcome apply(Object[] old) {
        throw new IllegalStateException("a committed row is written from the row as read");
      }

      @Override
      public Outcome apply(Object[] old, Result current) {
        return new Outcome(own.mutation(), values(own.row(), own.over(current)));
      }
    };
  }

  /**
   * A batch of this statement's rows ({@link #byProtocol} only); {@code countUnchanged}: whether
   * a row its change leaves alone counts as written.
   */
  public IndexedBatch batch(boolean countUnchanged) {
    return new IndexedBatch(protocol, countUnchanged);
  }

  /** The row of {@code key} by its key values, for messages. */
  String describe(byte[] key) {
    return Arrays.toString(codec.decode(key)) + " of " + def.table();
  }

  /** A row of {@code key}'s key column values, every other column NULL. */
  public Object[] keyValues(byte[] key) {
    List<SqlColumn> cols = def.columns();
    Object[] row = new Object[cols.size()];
    Object[] keyValues = codec.decode(key);
    for (int i = 0; i < cols.size(); i++) {
      SqlColumn c = cols.get(i);
      if (c.isKey()) {
        row[i] = c.type().fromKey(keyValues[c.keyPosition()]);
      }
    }
    return row;
  }

  /** Every column's value of the row (internal form), or null when the row does not exist. */
  public Object[] values(byte[] key, Result current) {
    if (current.getValue(names.markerFamily(), CellNames.MARKER) == null) {
      return null;
    }
    List<SqlColumn> cols = def.columns();
    Object[] row = keyValues(key);
    for (int i = 0; i < cols.size(); i++) {
      if (cols.get(i).isMap()) {
        row[i] = names.mapValue(i, current);
      } else if (!cols.get(i).isKey()) {
        byte[] v = names.value(i, current.getValue(names.family(i), names.qualifier(i)));
        row[i] = v == null ? null : cols.get(i).fromCell(v);
      }
    }
    return row;
  }

  private void entryChanges(IndexLayout layout, Table index, byte[] key, Object[] old,
      Object[] now, Durability d, List<RowChange> out) {
    if (old != null && now != null && layout.sameEntry(old, now)) {
      return;
    }
    byte[] oldKey = old == null ? null : layout.entryKey(old, key);
    byte[] newKey = now == null ? null : layout.entryKey(now, key);
    if (oldKey != null && (newKey == null || !Arrays.equals(oldKey, newKey))) {
      Delete del = writeTimestamp >= 0 ? new Delete(oldKey, writeTimestamp) : new Delete(oldKey);
      del.setDurability(d);
      out.add(new RowChange(index, del));
    }
    if (newKey != null) {
      byte[] value = layout.entryValue(now, key);
      Put put;
      if (UnverifiedEntries.kept(db)) { // a client-kept transaction's entry: with its status
        put = ClientIndexProtocol.entry(newKey, System.currentTimeMillis(),
            IndexLayout.VERIFIED, value, d);
      } else if (writeTimestamp >= 0) {
        put = new Put(newKey).addColumn(IndexLayout.FAMILY, IndexLayout.QUALIFIER,
            writeTimestamp, value);
      } else {
        put = new Put(newKey).addColumn(IndexLayout.FAMILY, IndexLayout.QUALIFIER, value);
      }
      put.setDurability(d);
      out.add(new RowChange(index, put, layout.keyEndsWithBaseKey(now) ? null
          : existing -> checkUnique(layout, index, newKey, key, now, existing)));
    }
  }

  private void checkUnique(IndexLayout layout, Table index, byte[] entryKey, byte[] key,
      Object[] now, Result existing) {
    byte[] v = UnverifiedEntries.kept(db) // an entry the protocol left is checked first
        ? unverifiedChecks.computeIfAbsent(layout,
            l -> new UnverifiedEntries(db, def, l, index)).usable(existing)
        : existing.getValue(IndexLayout.FAMILY, IndexLayout.QUALIFIER);
    if (v != null && !Arrays.equals(layout.baseKey(entryKey, v), key)) {
      throw duplicate(layout, now);
    }
  }

  /** The refusal of a row whose values {@code now} another row holds in a UNIQUE index. */
  SqlStateException duplicate(IndexLayout layout, Object[] now) {
    List<Object> values = Arrays.asList(layout.partValues(now));
    return new SqlStateException(SqlStates.UNIQUE_VIOLATION, "duplicate value " + values
        + " in unique index " + layout.index().name() + " on " + def.table() + " ("
        + String.join(", ", layout.index().columns()) + ")");
  }
}
