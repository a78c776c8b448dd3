package io.basaltdb.sql.ddl;

import io.basaltdb.sql.catalog.SqlCatalog;
import io.basaltdb.sql.catalog.SqlTableDef;
import io.basaltdb.storage.Storage;
import io.basaltdb.storage.TableName;
import org.apache.calcite.jdbc.CalcitePrepare;
import org.apache.calcite.sql.SqlIdentifier;

/**
 * Dropping and emptying tables: {@code DROP TABLE [CASCADE | RESTRICT]} (a table with its
 * indexes and its identity columns' sequences; CASCADE also the views that read it, RESTRICT
 * refuses while one does: {@link DependentObjects}), {@code DROP SCHEMA ... CASCADE} (all it
 * holds), {@code TRUNCATE TABLE} (rows and index entries; the table, indexes and splits stay).
 * Stateless.
 */
final class TableDrops {
  private TableDrops() {}

  static void dropTable(Storage db, TableName t, boolean ifExists, SqlIdentifier name,
      boolean cascade, boolean restrict) {
    if (!db.admin().tableExists(t)) {
      if (ifExists) {
        return;
      }
      throw new io.basaltdb.storage.TableNotFoundException("table " + name + " does not exist");
    }
    if (restrict) {
      DependentObjects.refuseIfRead(db, t, "table " + name);
    }
    SqlCatalog catalog = new SqlCatalog(db);
    referencingKeys(db, java.util.Set.of(t), cascade, "table " + name);
    if (cascade) {
      for (TableName view : DependentObjects.viewsReading(db, t::equals)) {
        catalog.remove(view);
      }
    }
    dropTable(db, t);
  }

  /**
   * The foreign keys of other tables that reference {@code dropped}: refused (2BP01) unless
   * {@code cascade}, which drops those constraints (the child tables stay).
   */
  private static void referencingKeys(Storage db, java.util.Set<TableName> dropped,
      boolean cascade, String what) {
    SqlCatalog catalog = new SqlCatalog(db);
    java.util.Map<TableName, java.util.List<String>> byChild = new java.util.HashMap<>();
    for (TableName parent : dropped) {
      for (io.basaltdb.sql.catalog.ForeignKeys.Reference r
          : io.basaltdb.sql.catalog.ForeignKeys.referencing(db, parent)) {
        if (!dropped.contains(r.child().table())) {
          byChild.computeIfAbsent(r.child().table(), c -> new java.util.ArrayList<>())
              .add(r.key().name());
        }
      }
    }
    if (byChild.isEmpty()) {
      return;
    }
    if (!cascade) {
      throw new io.basaltdb.sql.SqlStateException(
          io.basaltdb.sql.SqlStates.DEPENDENT_OBJECTS_STILL_EXIST, "cannot drop " + what
          + ": foreign keys reference it " + byChild + " (drop them, or use CASCADE)");
    }
    for (java.util.Map.Entry<TableName, java.util.List<String>> e : byChild.entrySet()) {
      SqlTableDef child = catalog.get(e.getKey());
      java.util.List<io.basaltdb.sql.catalog.ForeignKey> keys =
          new java.util.ArrayList<>(child.foreignKeys());
      keys.removeIf(fk -> e.getValue().contains(fk.name()));
      catalog.put(child.withForeignKeys(keys));
    }
  }

  /** Drops an existing table with its indexes and the sequences of its identity columns. */
  private static void dropTable(Storage db, TableName t) {
    IndexDdl.dropAll(db, t);
    SqlCatalog catalog = new SqlCatalog(db);
    SqlTableDef def = catalog.get(t);
    catalog.remove(t);
    db.admin().deleteTable(t);
    if (def != null) {
      for (TableName seq : io.basaltdb.sql.catalog.IdentityColumns.ownedSequences(def)) {
        catalog.remove(seq); // its identity columns' sequences go with it
      }
    }
  }

  /**
   * {@code DROP SCHEMA s}: refused (2BP01) while it holds anything; with CASCADE its views, the
   * views elsewhere that read its tables, its tables (with their indexes and identity
   * sequences), its other sequences and storage tables go first.
   */
  static void dropSchema(Storage db, io.basaltdb.sql.parser.SqlDropBasaltTable.Schema drop,
      CalcitePrepare.Context context) {
    String ns = drop.name.getSimple();
    if (!db.admin().listNamespaces().contains(ns)) {
      if (drop.ifExists) {
        return;
      }
      throw new io.basaltdb.storage.TableNotFoundException("schema " + ns + " does not exist");
    }
    SqlCatalog catalog = new SqlCatalog(db);
    if (!drop.cascade && (!catalog.views(ns).isEmpty() || !catalog.sequences(ns).isEmpty()
        || db.admin().listTables().stream().anyMatch(t -> t.namespace().equals(ns)))) {
      throw new io.basaltdb.sql.SqlStateException(
          io.basaltdb.sql.SqlStates.DEPENDENT_OBJECTS_STILL_EXIST, "schema " + ns
          + " is not empty (DROP SCHEMA " + ns + " CASCADE drops what it holds)");
    }
    for (String view : catalog.views(ns).keySet()) {
      catalog.remove(new TableName(ns, view));
    }
    java.util.Set<TableName> tables = new java.util.HashSet<>();
    for (SqlTableDef def : catalog.list(ns)) {
      tables.add(def.table());
    }
    for (TableName view : DependentObjects.viewsReading(db, tables::contains)) {
      catalog.remove(view); // views elsewhere that read its tables
    }
    referencingKeys(db, tables, true, "schema " + ns); // keys of tables elsewhere go
    for (TableName t : tables) {
      dropTable(db, t);
    }
    for (String seq : catalog.sequences(ns)) {
      catalog.remove(new TableName(ns, seq));
    }
    for (TableName t : db.admin().listTables()) {
      if (t.namespace().equals(ns)) {
        db.admin().deleteTable(t); // storage tables of no SQL table: the schema holds them too
      }
    }
    db.admin().dropNamespace(ns);
    context.getMutableRootSchema().removeSubSchema(ns);
  }

  /**
   * {@code TRUNCATE TABLE}: the table's and its indexes' storage tables emptied (splits kept);
   * {@code RESTART IDENTITY} starts its own identity sequences again.
   */
  static void truncate(Storage db, io.basaltdb.sql.parser.SqlDropBasaltTable.Truncate truncate) {
    TableName t = BasaltDdlExecutor.tableName(truncate.name);
    if (!db.admin().tableExists(t)) {
      throw new io.basaltdb.storage.TableNotFoundException("table " + truncate.name
          + " does not exist");
    }
    SqlCatalog catalog = new SqlCatalog(db);
    for (io.basaltdb.sql.catalog.ForeignKeys.Reference r
        : io.basaltdb.sql.catalog.ForeignKeys.referencing(db, t)) {
      if (r.key().enforced() && !r.child().table().equals(t)) {
        throw new io.basaltdb.sql.SqlStateException(
            io.basaltdb.sql.SqlStates.FEATURE_NOT_SUPPORTED, "cannot truncate " + t
            + ": foreign key " + r.key().name() + " of " + r.child().table()
            + " references it (delete its rows, or drop the constraint)");
      }
    }
    db.admin().truncateTable(t, true);
    for (io.basaltdb.sql.catalog.SqlIndexDef i : catalog.indexes(t)) {
      if (db.admin().tableExists(i.engineTable())) {
        db.admin().truncateTable(i.engineTable(), true);
      }
    }
    SqlTableDef def = catalog.get(t);
    if (truncate.restartIdentity && def != null) {
      for (TableName seq : io.basaltdb.sql.catalog.IdentityColumns.ownedSequences(def)) {
        catalog.putSequence(seq, catalog.sequenceStart(seq), catalog.sequenceIncrement(seq));
      }
    }
  }
}
