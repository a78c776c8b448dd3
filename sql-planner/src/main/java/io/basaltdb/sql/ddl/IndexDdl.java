package io.basaltdb.sql.ddl;

import io.basaltdb.sql.SqlStateException;
import io.basaltdb.sql.SqlStates;
import io.basaltdb.sql.catalog.SqlCatalog;
import io.basaltdb.sql.catalog.SqlIndexDef;
import io.basaltdb.sql.catalog.SqlTableDef;
import io.basaltdb.sql.index.IndexBuilder;
import io.basaltdb.sql.index.IndexExpression;
import io.basaltdb.sql.index.IndexRegistry;
import io.basaltdb.sql.parser.SqlCreateBasaltIndex;
import io.basaltdb.sql.parser.SqlDropBasaltIndex;
import io.basaltdb.sql.parser.SqlTableOption;
import io.basaltdb.storage.FamilyOptions;
import io.basaltdb.storage.InvalidArgumentException;
import io.basaltdb.storage.Storage;
import io.basaltdb.storage.TableDescriptor;
import io.basaltdb.storage.TableName;
import io.basaltdb.storage.TableNotFoundException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlNode;

/**
 * CREATE INDEX, DROP INDEX and ALTER INDEX .. REBUILD ({@code doc/indexes.md}): an index is an
 * engine table with one family {@code 0} (the versions, TTL and storage options of its table's
 * marker family, so old entries age as their rows do) and a record in the SQL catalog. A new
 * index is registered BUILDING, built online, then made ACTIVE; a build that fails (a
 * duplicate in a UNIQUE index: 23505) leaves no trace. An index left BUILDING by a crash is
 * maintained by every write but not used by queries until rebuilt ({@code ALTER INDEX ..
 * REBUILD}, or {@code CREATE INDEX IF NOT EXISTS} of it again). Stateless.
 */
final class IndexDdl {
  private static final String VERSION_CELL = new String(
      io.basaltdb.sql.catalog.CellNames.VERSION, java.nio.charset.StandardCharsets.UTF_8);

  private IndexDdl() {}

  static void create(Storage db, SqlCreateBasaltIndex create) {
    IndexRegistry.of(db); // first: what a crash left of index DDL is cleared away
    TableName t = BasaltDdlExecutor.tableName(create.table);
    SqlCatalog catalog = new SqlCatalog(db);
    SqlTableDef def = catalog.get(t);
    if (def == null) {
      throw new TableNotFoundException("table " + create.table + " does not exist");
    }
    String name = create.name.getSimple();
    SqlIndexDef existing = catalog.indexes(t).stream().filter(i -> i.name().equals(name))
        .findFirst().orElse(null);
    if (existing != null) {
      boolean unfinished = existing.state() == SqlIndexDef.State.BUILDING
          && !IndexRegistry.of(db).building(t, name);
      if (create.ifNotExists && unfinished) {
        rebuild(db, catalog, existing); // a build a crash interrupted: finish it now
        return;
      }
      if (create.ifNotExists) {
        return;
      }
      throw new SqlStateException(SqlStates.DUPLICATE_OBJECT, "index " + name + " on " + t
          + " already exists" + (unfinished ? " (its build did not finish: ALTER INDEX " + name
              + " ON " + create.table + " REBUILD)" : ""));
    }
    TableName engine = SqlIndexDef.engineTable(t, name);
    if (db.admin().tableExists(engine)) {
      throw new SqlStateException(SqlStates.DUPLICATE_OBJECT, "a table named " + engine.name()
          + " exists in schema " + t.namespace() + "; name the index otherwise");
    }
    if (def.rowTimestamp() != null) {
      throw new SqlStateException(SqlStates.FEATURE_NOT_SUPPORTED, "index " + name + " on " + t
          + ": a table with a ROW_TIMESTAMP column has no indexes yet (its cells are written "
          + "at the row's time, which index entries would have to follow)");
    }
    if (!db.atomicAcrossRows() && def.columns().stream().anyMatch(c -> !c.isKey()
        && c.family().equals(def.markerFamily()) && c.name().equals(VERSION_CELL))) {
      throw new SqlStateException(SqlStates.FEATURE_NOT_SUPPORTED, "index " + name + " on " + t
          + ": its column " + VERSION_CELL + " has the name of the version cell an index over "
          + db.location() + " keeps in each row; rename the column");
    }
    Set<String> seen = new HashSet<>();
    List<String> columns = new ArrayList<>();
    List<Boolean> computed = new ArrayList<>();
    for (SqlNode part : create.columns) {
      if (part instanceof SqlIdentifier c && c.isSimple()) {
        columns.add(keyColumn(def, c, seen, name));
        computed.add(false);
      } else { // an expression of columns: compiled now, so a bad one fails here
        String text = IndexExpression.textOf(part);
        IndexExpression.of(def, text);
        if (!seen.add(text)) {
          throw new InvalidArgumentException("index " + name + " has expression " + text
              + " twice");
        }
        columns.add(text);
        computed.add(true);
      }
    }
    List<String> includes = new ArrayList<>();
    for (SqlIdentifier c : create.includes) {
      String col = column(def, c, seen, name);
      if (def.columns().get(def.columnIndex(col)).isMap()) {
        throw new SqlStateException(SqlStates.FEATURE_NOT_SUPPORTED, "index " + name + " cannot "
            + "INCLUDE MAP column " + col + ": its cells are many");
      }
      includes.add(col);
    }
    int salt = 0;
    for (SqlTableOption o : create.options) {
      if (!o.option().equals("SALT_BUCKETS") || o.family() != null) {
        throw new InvalidArgumentException("unknown index option " + o.name + " for index "
            + name + " (an index takes SALT_BUCKETS)");
      }
      salt = Integer.parseInt(o.valueText());
      if (salt < 1 || salt > 256) {
        throw new InvalidArgumentException("SALT_BUCKETS of index " + name
            + " must be between 1 and 256, got " + salt);
      }
    }
    SqlIndexDef index = new SqlIndexDef(name, t, columns, create.descending, includes,
        create.unique, salt, SqlIndexDef.State.BUILDING, null, computed);
    createEngineTable(db, def, index);
    build(db, catalog, def, index);
  }

  /** A column of the index (or its INCLUDE list), checked: exists, visible, named once. */
  private static String column(SqlTableDef def, SqlIdentifier id, Set<String> seen,
      String index) {
    String c = id.getSimple();
    boolean exists = false;
    for (int i = 0; i < def.visibleColumnCount(); i++) {
      exists |= def.columns().get(i).name().equals(c);
    }
    if (!exists) {
      throw new InvalidArgumentException("index " + index + ": table " + def.table()
          + " has no column " + c);
    }
    if (!seen.add(c)) {
      throw new InvalidArgumentException("index " + index + " names column " + c + " twice");
    }
    return c;
  }

  /** Refuses an ARRAY column as a key part of an index (INCLUDE may carry one). */
  private static String keyColumn(SqlTableDef def, SqlIdentifier id, Set<String> seen,
      String index) {
    String c = column(def, id, seen, index);
    if (def.columns().get(def.columnIndex(c)).isArray()
        || def.columns().get(def.columnIndex(c)).type() == io.basaltdb.sql.type.ColumnType.MAP) {
      throw new SqlStateException(SqlStates.FEATURE_NOT_SUPPORTED,
          "index " + index + ": column " + c
          + " is an " + def.columns().get(def.columnIndex(c)).type() + ", which an index key "
          + "cannot hold; index an element (" + c + "[1], " + c + "['k']) or carry it in "
          + "INCLUDE");
    }
    return c;
  }

  private static void createEngineTable(Storage db, SqlTableDef def, SqlIndexDef index) {
    FamilyOptions options = db.admin().describe(def.table()).families()
        .getOrDefault(def.markerFamily(), FamilyOptions.DEFAULT);
    List<byte[]> splits = new ArrayList<>();
    for (int b = 1; b < index.saltBuckets(); b++) {
      splits.add(new byte[] {(byte) b});
    }
    TableDescriptor table = new TableDescriptor(index.engineTable(), Map.of("0", options));
    if (!db.atomicAcrossRows() && !index.unique()) {
      // the protocol's timestamps order a non-unique entry's writers (IndexBuilder); a UNIQUE
      // entry is claimed by rows of any timestamps, after deletes of others' (not hidden)
      db.admin().createTableHidingLaterPuts(table, splits.toArray(new byte[0][]));
    } else {
      db.admin().createTable(table, splits.toArray(new byte[0][]));
    }
  }

  /** Registers {@code index} BUILDING, builds it, then makes it ACTIVE; undone on failure. */
  private static void build(Storage db, SqlCatalog catalog, SqlTableDef def,
      SqlIndexDef index) {
    IndexRegistry registry = IndexRegistry.of(db);
    TableName t = def.table();
    registry.startBuild(t, index.name());
    try {
      catalog.putIndex(index);
      registry.set(t, catalog.indexes(t));
      // over HBase: other processes' statements starting from now on maintain the index
      io.basaltdb.sql.catalog.CatalogVersion.awaitOtherProcesses(db);
      IndexBuilder.Built built = IndexBuilder.build(db, def, index, progress(index));
      io.basaltdb.sql.catalog.IndexStats stats = built.stats() != null ? built.stats()
          : IndexBuilder.countStats(db, registry.layout(def, index));
      catalog.putIndex(index.withState(SqlIndexDef.State.ACTIVE).withStats(stats));
      registry.set(t, catalog.indexes(t));
    } catch (RuntimeException e) {
      try {
        drop(db, catalog, index);
      } catch (RuntimeException f) {
        e.addSuppressed(f);
      }
      throw e;
    } finally {
      registry.endBuild(t, index.name());
    }
  }

  /**
   * A build's progress, once a second, on standard error when the process asks for it
   * ({@code -Dbasalt.progress=stderr}, as {@code bin/basalt sql} runs): the shell that typed
   * CREATE INDEX shows how far it is; an application embedding the driver sees nothing.
   */
  private static java.util.function.LongConsumer progress(SqlIndexDef index) {
    if (!"stderr".equals(io.basaltdb.sql.Switches.PROGRESS.value())) {
      return rows -> { };
    }
    long start = System.nanoTime();
    return rows -> System.err.printf(java.util.Locale.ROOT,
        "CREATE INDEX %s ON %s: %,d rows indexed in %.1f s%n", index.name(), index.table(),
        rows, (System.nanoTime() - start) / 1e9);
  }

  private static void drop(Storage db, SqlCatalog catalog, SqlIndexDef index) {
    catalog.removeIndex(index.table(), index.name());
    IndexRegistry.of(db).set(index.table(), catalog.indexes(index.table()));
    io.basaltdb.sql.catalog.CatalogVersion.awaitOtherProcesses(db); // they stop writing it
    if (db.admin().tableExists(index.engineTable())) {
      db.admin().deleteTable(index.engineTable());
    }
  }

  static void drop(Storage db, SqlDropBasaltIndex drop) {
    SqlCatalog catalog = new SqlCatalog(db);
    SqlIndexDef index = find(db, catalog, drop.name.getSimple(), drop.table);
    if (index == null) {
      if (drop.ifExists) {
        return;
      }
      throw new TableNotFoundException("index " + drop.name + (drop.table == null ? ""
          : " on " + drop.table) + " does not exist");
    }
    drop(db, catalog, index);
  }

  /** ALTER INDEX .. REBUILD: the index emptied and built again, online. */
  static void rebuild(Storage db, io.basaltdb.sql.parser.SqlAlterBasaltIndex alter) {
    SqlCatalog catalog = new SqlCatalog(db);
    SqlIndexDef index = find(db, catalog, alter.name.getSimple(), alter.table);
    if (index == null) {
      throw new TableNotFoundException("index " + alter.name + " on " + alter.table
          + " does not exist");
    }
    if (IndexRegistry.of(db).building(index.table(), index.name())) {
      throw new InvalidArgumentException("index " + alter.name + " on " + alter.table
          + " is being built now");
    }
    rebuild(db, catalog, index);
  }

  private static void rebuild(Storage db, SqlCatalog catalog, SqlIndexDef index) {
    SqlTableDef def = catalog.get(index.table());
    drop(db, catalog, index);
    SqlIndexDef fresh = index.withState(SqlIndexDef.State.BUILDING);
    createEngineTable(db, def, fresh);
    build(db, catalog, def, fresh);
  }

  /** The index named {@code name} on {@code table}, or on any table of the default schema. */
  private static SqlIndexDef find(Storage db, SqlCatalog catalog, String name,
      SqlIdentifier table) {
    if (table != null) {
      TableName t = BasaltDdlExecutor.tableName(table);
      return catalog.indexes(t).stream().filter(i -> i.name().equals(name)).findFirst()
          .orElse(null);
    }
    List<SqlIndexDef> found = catalog.indexes(TableName.DEFAULT_NAMESPACE).stream()
        .filter(i -> i.name().equals(name)).toList();
    if (found.size() > 1) {
      throw new InvalidArgumentException("indexes named " + name + " exist on several tables;"
          + " say which: DROP INDEX " + name + " ON <table>");
    }
    return found.isEmpty() ? null : found.get(0);
  }

  /** Drops every index of a table being dropped (their engine tables; the catalog row goes). */
  static void dropAll(Storage db, TableName t) {
    SqlCatalog catalog = new SqlCatalog(db);
    List<SqlIndexDef> indexes = catalog.indexes(t);
    IndexRegistry.of(db).forget(t);
    for (SqlIndexDef i : indexes) {
      if (db.admin().tableExists(i.engineTable())) {
        db.admin().deleteTable(i.engineTable());
      }
    }
  }

  /** Refuses to drop a column an index uses. */
  static void checkNotIndexed(Storage db, TableName t, String column) {
    SqlCatalog catalog = new SqlCatalog(db);
    for (SqlIndexDef i : catalog.indexes(t)) {
      boolean used = i.includes().contains(column);
      for (int p = 0; p < i.columns().size() && !used; p++) {
        if (!i.computed().get(p)) {
          used = i.columns().get(p).equals(column);
        } else {
          SqlTableDef def = catalog.get(t);
          used = IndexExpression.of(def, i.columns().get(p)).inputs()
              .get(def.columnIndex(column));
        }
      }
      if (used) {
        throw new InvalidArgumentException("column " + column + " of " + t + " is used by index "
            + i.name() + "; drop the index first");
      }
    }
  }
}
