package io.basaltdb.sql.exec.write;

import io.basaltdb.sql.SqlStateException;
import io.basaltdb.sql.SqlStates;
import io.basaltdb.sql.catalog.CellNames;
import io.basaltdb.sql.catalog.ColumnValues;
import io.basaltdb.sql.catalog.ForeignKey;
import io.basaltdb.sql.catalog.ForeignKeys;
import io.basaltdb.sql.catalog.SqlColumn;
import io.basaltdb.sql.catalog.SqlIndexDef;
import io.basaltdb.sql.catalog.SqlTableDef;
import io.basaltdb.sql.exec.read.LookupJoins;
import io.basaltdb.sql.exec.read.ScanExecutor;
import io.basaltdb.sql.index.IndexLayout;
import io.basaltdb.sql.index.IndexListLease;
import io.basaltdb.sql.index.IndexRegistry;
import io.basaltdb.sql.index.IndexedRowWrite;
import io.basaltdb.sql.pushdown.KeyConditions;
import io.basaltdb.sql.pushdown.KeyRange;
import io.basaltdb.sql.pushdown.Operand;
import io.basaltdb.sql.pushdown.ScanSpec;
import io.basaltdb.storage.Delete;
import io.basaltdb.storage.Durability;
import io.basaltdb.storage.Get;
import io.basaltdb.storage.Storage;
import io.basaltdb.storage.StorageTransaction;
import io.basaltdb.storage.TableName;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.calcite.DataContext;
import org.apache.calcite.linq4j.Enumerator;

/**
 * The enforced foreign keys at both ends of one table, for one statement's writes
 * ({@code doc/foreign-keys.md}): a child row written must find its parent row
 * ({@link #checkParents}); a parent row deleted takes its children's action with it
 * ({@link #beforeDelete}: refused while NO ACTION/RESTRICT children remain, children deleted
 * for CASCADE, their key columns set NULL for SET NULL). Reads and writes go through the
 * statement's storage, the transaction a statement on such a table always runs in, so the
 * check and the children's changes commit with the row; each check's read is held to commit
 * ({@link StorageTransaction#holdRead}), so a racing writer that changed it fails one of the
 * two commits (40001). Not thread-safe; one per statement execution.
 */
public final class ForeignKeyChecks {
  private final Storage db;
  private final SqlTableDef def;
  private final DataContext ctx;
  private final List<ForeignKey> keys = new ArrayList<>();
  private final List<ForeignKeys.Reference> children = new ArrayList<>();
  private final Set<String> deleting;
  private final long timestamp;
  private final Durability durability;

  private ForeignKeyChecks(Storage db, SqlTableDef def, DataContext ctx, Set<String> deleting,
      long timestamp, Durability durability) {
    this.db = db;
    this.def = def;
    this.ctx = ctx;
    this.deleting = deleting;
    this.timestamp = timestamp;
    this.durability = durability;
    for (ForeignKey fk : def.foreignKeys()) {
      if (fk.enforced()) {
        keys.add(fk);
      }
    }
    for (ForeignKeys.Reference r : ForeignKeys.referencing(db, def.table())) {
      if (r.key().enforced()) {
        children.add(r);
      }
    }
  }

  /**
   * The checks of {@code def}'s writes, or null when no enforced key starts or ends at it.
   * {@code timestamp}: the cells' timestamp (the latest: {@code Cell.LATEST_TIMESTAMP}).
   */
  public static ForeignKeyChecks of(Storage db, SqlTableDef def, DataContext ctx,
      long timestamp, Durability durability) {
    boolean atomic = db instanceof StorageTransaction tx ? tx.atomicCommit()
        : db.keepsTransactions();
    if (!atomic || !ForeignKeys.enforcedAt(db, def)) {
      return null;
    }
    return new ForeignKeyChecks(db, def, ctx, new HashSet<>(), timestamp, durability);
  }

  /** Checks {@code rows} (every visible column) of {@code child}, as written now. */
  public static void checkRows(Storage db, SqlTableDef child, Iterable<Object[]> rows) {
    ForeignKeyChecks checks = new ForeignKeyChecks(db, child, null, new HashSet<>(),
        io.basaltdb.storage.Cell.LATEST_TIMESTAMP, Durability.ASYNC);
    for (Object[] row : rows) {
      checks.checkParents(null, Arrays.copyOf(row, child.columns().size()), null);
    }
  }

  /**
   * The foreign keys' part of one row's write by statement {@code spec}, before it: its parents
   * must exist (a written row), or its children take their action (a deleted one). An UPDATE's
   * row holds the table's visible columns, then each updated column's new value.
   */
  void beforeWrite(io.basaltdb.sql.pushdown.WriteSpec spec, byte[] key, Object[] row) {
    switch (spec.kind()) {
      case INSERT -> checkParents(key, row, null);
      case UPSERT -> checkParents(key, row, spec.listed());
      case UPDATE -> {
        Object[] after = java.util.Arrays.copyOf(row, def.columns().size());
        for (int u = 0; u < spec.updated().size(); u++) {
          if (spec.increments().get(u) == null) {
            after[spec.updated().get(u)] = row[def.visibleColumnCount() + u];
          }
        }
        checkParents(key, after, spec.updated());
      }
      case DELETE -> beforeDelete(key);
    }
  }

  /**
   * Checks a child row: {@code values} every column's value after the write (internal form);
   * {@code touched} the columns the write sets (null: all, a new row). A key whose columns the
   * write leaves alone, or that has a NULL column, is not checked.
   */
  public void checkParents(byte[] rowKey, Object[] values, List<Integer> touched) {
    for (ForeignKey fk : keys) {
      int[] cols = columns(def, fk.columns());
      if (touched != null && Arrays.stream(cols).noneMatch(touched::contains)) {
        continue;
      }
      SqlTableDef parent = fk.parent().equals(def.table()) ? def
          : ForeignKeys.definition(db, fk.parent());
      if (parent == null) {
        throw new SqlStateException(SqlStates.FOREIGN_KEY_VIOLATION, "table " + fk.parent()
            + ", referenced by foreign key " + fk.name() + " of " + def.table()
            + ", no longer exists");
      }
      Object[] parentKey = parentKey(fk, parent, cols, values);
      if (parentKey == null) {
        continue; // MATCH SIMPLE: a NULL column is not checked
      }
      byte[] key = parentKey.length == 0 ? null : parent.keyCodec().encode(parentKey);
      if (key != null && parent == def && Arrays.equals(key, rowKey)) {
        continue; // a row that references itself
      }
      if (key == null || !exists(parent.table(), key)) {
        throw new SqlStateException(SqlStates.FOREIGN_KEY_VIOLATION, "insert or update on table "
            + def.table() + " violates foreign key constraint " + fk.name() + ": key "
            + text(fk.columns(), cols, values) + " is not in table " + fk.parent());
      }
    }
  }

  /** The parent's key values (key order, key form), null for a NULL, empty when out of range. */
  private static Object[] parentKey(ForeignKey fk, SqlTableDef parent, int[] cols,
      Object[] values) {
    Object[] key = new Object[parent.keyColumnCount()];
    for (int i = 0; i < cols.length; i++) {
      Object v = values[cols[i]];
      if (v == null) {
        return null;
      }
      SqlColumn pc = parent.columns().get(parent.columnIndex(fk.parentColumns().get(i)));
      Object exact = exactly(v, pc);
      if (exact == null) {
        return new Object[0]; // a value the parent's key cannot hold: no such parent
      }
      key[pc.keyPosition()] = pc.type().toKey(exact);
    }
    return key;
  }

  private boolean exists(TableName table, byte[] key) {
    hold(table, key, Arrays.copyOf(key, key.length + 1));
    return !db.table(table).get(new Get(key)).isEmpty();
  }

  /**
   * Before the row of {@code key} is deleted: each enforced key referencing it takes its
   * action on the row's children (23503 for NO ACTION and RESTRICT when there are some).
   */
  public void beforeDelete(byte[] key) {
    if (children.isEmpty() || !deleting.add(def.table() + "/" + Arrays.toString(key))) {
      return; // a row already being deleted by this statement (a cycle of CASCADEs)
    }
    Object[] keyValues = def.keyCodec().decode(key);
    for (ForeignKeys.Reference r : children) {
      ForeignKey fk = r.key();
      SqlTableDef child = r.child().table().equals(def.table()) ? def : r.child();
      Object[] values = new Object[fk.columns().size()];
      for (int i = 0; i < values.length; i++) {
        SqlColumn pc = def.columns().get(def.columnIndex(fk.parentColumns().get(i)));
        values[i] = pc.type().fromKey(keyValues[pc.keyPosition()]);
      }
      int[] cols = columns(child, fk.columns());
      List<Object[]> rows = children(child, cols, values);
      rows.removeIf(row -> child == def && Arrays.equals(ColumnValues.rowKey(child, false, row),
          key));
      if (rows.isEmpty()) {
        continue;
      }
      switch (fk.onDelete()) {
        case CASCADE -> {
          ForeignKeyChecks next = child == def ? this
              : new ForeignKeyChecks(db, child, ctx, deleting, timestamp, durability);
          ChildWriter writer = writer(child);
          for (Object[] row : rows) {
            byte[] childKey = ColumnValues.rowKey(child, false, row);
            next.beforeDelete(childKey);
            writer.write(childKey, old -> old == null ? null
                : new IndexedRowWrite.Outcome(deletion(childKey), null));
          }
        }
        case SET_NULL -> {
          ChildWriter writer = writer(child);
          for (Object[] row : rows) {
            byte[] childKey = ColumnValues.rowKey(child, false, row);
            writer.write(childKey, old -> old == null ? null
                : nulled(child, childKey, cols, old));
          }
        }
        default -> throw new SqlStateException(SqlStates.FOREIGN_KEY_VIOLATION,
            "update or delete on table " + def.table() + " violates foreign key constraint "
            + fk.name() + " on table " + child.table() + ": key "
            + text(fk.parentColumns(), null, values) + " is still referenced from table "
            + child.table());
      }
    }
  }

  private Delete deletion(byte[] key) {
    Delete d = new Delete(key, timestamp);
    d.setDurability(durability);
    return d;
  }

  /** A child row with its key columns {@code cols} set to NULL (23502 for a NOT NULL one). */
  private IndexedRowWrite.Outcome nulled(SqlTableDef child, byte[] key, int[] cols,
      Object[] old) {
    Object[] now = old.clone();
    UpdatedCells cells = new UpdatedCells(key, child, CellNames.of(child), timestamp,
        durability);
    for (int c : cols) {
      NotNullCheck.checkValue(child, c, null);
      cells.set(c, old[c], null);
      now[c] = null;
    }
    return new IndexedRowWrite.Outcome(cells.mutation(), now);
  }

  /**
   * A writer of a child table's rows (a cascade), for its indexes as leased now: a write is
   * refused (40001) should another process change them meanwhile ({@link IndexListLease}).
   */
  private record ChildWriter(IndexListLease lease, IndexedRowWrite rows, Durability durability) {
    void write(byte[] key, IndexedRowWrite.Change change) {
      lease.confirm();
      rows.write(key, durability, change);
    }
  }

  private ChildWriter writer(SqlTableDef child) {
    long ts = timestamp == io.basaltdb.storage.Cell.LATEST_TIMESTAMP ? -1 : timestamp;
    IndexListLease lease = IndexListLease.of(db, child.table());
    IndexedRowWrite rows = new IndexedRowWrite(db, child, lease.list(), ts);
    rows.beforeRows(lease::confirm);
    return new ChildWriter(lease, rows, durability);
  }

  /**
   * The rows of {@code child} whose columns {@code cols} hold {@code values}: through the
   * child's key when they are a prefix of it, else through an ACTIVE index they lead, else by
   * a scan of the whole table; the range read is held.
   */
  private List<Object[]> children(SqlTableDef child, int[] cols, Object[] values) {
    List<Integer> all = new ArrayList<>();
    for (int i = 0; i < child.columns().size(); i++) {
      all.add(i); // the hidden key too, when the table has one: the row's key is needed
    }
    ScanExecutor scan = new ScanExecutor(db, child, new ScanSpec(KeyConditions.NONE, List.of(),
        all, null, null, false, null, null, false, null), ctx, -1);
    Enumerator<Object[]> rows = null;
    List<KeyRange> ranges = leading(child, child.keyColumns().stream().map(SqlColumn::name)
        .toList(), cols, values, child);
    if (ranges != null) {
      holdAll(child.table(), ranges);
      rows = scan.lookup(ranges, false, null);
    } else {
      for (SqlIndexDef index : IndexRegistry.of(db).of(child.table()).list()) {
        IndexLayout layout = index.state() == SqlIndexDef.State.ACTIVE
            ? IndexRegistry.of(db).active(child, index.name()) : null;
        ranges = layout == null ? null
            : leading(child, index.columns(), cols, values, layout.keyDefinition());
        if (ranges != null) {
          holdAll(layout.keyDefinition().table(), ranges);
          rows = scan.lookup(ranges, false, index.name());
          break;
        }
      }
    }
    if (rows == null) {
      hold(child.table(), new byte[0], new byte[0]);
      rows = scan.enumerable().enumerator();
    }
    List<Object[]> out = new ArrayList<>();
    try (Enumerator<Object[]> e = rows) {
      while (e.moveNext()) {
        Object[] row = e.current();
        if (matches(row, cols, values)) {
          out.add(row);
        }
      }
    }
    return out;
  }

  /**
   * Key ranges of {@code keyed} (the child, or an index seen as a table) for rows whose
   * columns {@code cols} equal {@code values}, when those columns are the first of
   * {@code leading} (in any order); else null.
   */
  private List<KeyRange> leading(SqlTableDef child, List<String> leading, int[] cols,
      Object[] values, SqlTableDef keyed) {
    if (leading.size() < cols.length) {
      return null;
    }
    List<List<Operand>> eq = new ArrayList<>();
    for (int p = 0; p < cols.length; p++) {
      String name = leading.get(p);
      int at = -1;
      for (int i = 0; i < cols.length; i++) {
        if (child.columns().get(cols[i]).name().equals(name)) {
          at = i;
        }
      }
      if (at < 0) {
        return null;
      }
      SqlColumn c = child.columns().get(cols[at]);
      Object exact = exactly(values[at], c);
      if (exact == null) {
        return List.of(); // no child can hold it
      }
      eq.add(List.of(Operand.constant(c.type(), exact)));
    }
    return KeyConditions.merge(new KeyConditions(eq, List.of()).bind(keyed, ctx));
  }

  private static boolean matches(Object[] row, int[] cols, Object[] values) {
    for (int i = 0; i < cols.length; i++) {
      Object v = row[cols[i]];
      if (v == null || !same(v, values[i])) {
        return false;
      }
    }
    return true;
  }

  /**
   * {@code v} as a value of column {@code c} (internal form), or null when it is not exactly
   * one (an integer past the column's range; the key types of both ends are the same kind).
   */
  private static Object exactly(Object v, SqlColumn c) {
    try {
      Object out = ColumnValues.fit(c, c.type().coerce(v));
      return same(out, v) ? out : null;
    } catch (RuntimeException e) {
      return null;
    }
  }

  /** Equal values of the same kind, integers by value (as a lookup join matches them). */
  private static boolean same(Object a, Object b) {
    return LookupJoins.normalized(a).equals(LookupJoins.normalized(b));
  }

  private void holdAll(TableName table, List<KeyRange> ranges) {
    for (KeyRange r : ranges) {
      hold(table, r.start(), r.stop());
    }
  }

  private void hold(TableName table, byte[] start, byte[] stop) {
    if (db instanceof StorageTransaction tx) {
      tx.holdRead(table, start, stop);
    }
  }

  private static int[] columns(SqlTableDef def, List<String> names) {
    int[] out = new int[names.size()];
    for (int i = 0; i < out.length; i++) {
      out[i] = def.columnIndex(names.get(i));
    }
    return out;
  }

  /** {@code (A, B)=(1, 2)}, as PostgreSQL words it. */
  private static String text(List<String> names, int[] cols, Object[] values) {
    List<String> v = new ArrayList<>();
    for (int i = 0; i < names.size(); i++) {
      v.add(String.valueOf(values[cols == null ? i : cols[i]]));
    }
    return "(" + String.join(", ", names) + ")=(" + String.join(", ", v) + ")";
  }
}
