package io.basaltdb.sql.index;

import io.basaltdb.storage.Storage;
import io.basaltdb.storage.TableName;
import io.basaltdb.sql.catalog.SqlCatalog;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The engine tables a crash left behind an index's DDL: {@code CREATE INDEX} makes the index's
 * engine table before its catalog record, {@code DROP INDEX} removes the record before the
 * table, so a kill between the two leaves a table {@code <t>.<i>} that no index record names.
 * Such a table holds nothing anyone acknowledged (entries of an index never created, or of one
 * dropped); it is deleted before the database's first index use in a process
 * ({@link IndexRegistry#of}). A table is taken for one only when all of this holds: its name is
 * {@code <t>.<i>} for a SQL table {@code t}, that table has no index {@code i}, no SQL table
 * is named {@code <t>.<i>}, and its one family is the index family {@code 0}.
 */
final class OrphanIndexTables {
  private OrphanIndexTables() {}

  /** Deletes them; returns their names. */
  static List<TableName> remove(Storage db) {
    SqlCatalog catalog = new SqlCatalog(db);
    List<TableName> removed = new ArrayList<>();
    for (String namespace : db.admin().listNamespaces()) {
      for (TableName engine : db.admin().listTables(namespace)) {
        if (orphan(db, catalog, engine)) {
          db.admin().deleteTable(engine);
          removed.add(engine);
        }
      }
    }
    return removed;
  }

  static boolean orphan(Storage db, SqlCatalog catalog, TableName engine) {
    String n = engine.name();
    if (n.indexOf('.') < 0 || catalog.get(engine) != null
        || !db.admin().describe(engine).families().keySet().equals(Set.of("0"))) {
      return false;
    }
    for (int dot = n.indexOf('.'); dot > 0; dot = n.indexOf('.', dot + 1)) {
      TableName base = new TableName(engine.namespace(), n.substring(0, dot));
      String index = n.substring(dot + 1);
      if (catalog.get(base) != null) {
        return catalog.indexes(base).stream().noneMatch(i -> i.name().equals(index));
      }
    }
    return false;
  }
}
