package io.basaltdb.sql.catalog;

import io.basaltdb.storage.Storage;
import io.basaltdb.storage.TableName;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The foreign keys of every table of a storage, seen from both ends: a child's keys are in its
 * own definition; a parent's referencing keys ({@link #referencing}) are found by reading every
 * definition, once per catalog version (kept by the storage, {@link Storage#extension}), with
 * the definitions of the parents they name. Thread-safe; a stale view is never used (the
 * version moves with every DDL).
 */
public final class ForeignKeys {
  /** A key of {@code child} (enforced or not). */
  public record Reference(SqlTableDef child, ForeignKey key) {}

  private record View(long version, Map<TableName, List<Reference>> byParent,
      Map<TableName, SqlTableDef> defs) {}

  private static final class Cache {
    volatile View view;
    /** The storage itself (not a transaction), to read the catalog as it is now. */
    volatile Storage base;
  }

  private ForeignKeys() {}

  /**
   * Tells the cache of {@code db}'s storage which object is the storage itself: a transaction's
   * reads of the catalog see its snapshot, older than the catalog version it would be kept
   * under (a table created since would be missing for every later statement).
   */
  public static void know(Storage db) {
    if (!db.inTransaction()) {
      db.extension(Cache.class, Cache::new).base = db;
    }
  }

  private static View view(Storage asked) {
    Cache cache = asked.extension(Cache.class, Cache::new);
    Storage db = asked.inTransaction() ? cache.base : asked;
    if (db == null) {
      return build(asked, -1); // no storage known to read the catalog now: not kept
    }
    long version = CatalogVersion.current(db);
    View v = cache.view;
    if (v != null && v.version == version) {
      return v;
    }
    v = build(db, version);
    cache.view = v;
    return v;
  }

  private static View build(Storage db, long version) {
    Map<TableName, List<Reference>> byParent = new HashMap<>();
    Map<TableName, SqlTableDef> defs = new HashMap<>();
    SqlCatalog catalog = new SqlCatalog(db);
    for (String ns : db.admin().listNamespaces()) {
      if (ns.equals(SqlCatalog.SYSTEM_NAMESPACE)) {
        continue;
      }
      for (SqlTableDef def : catalog.list(ns)) {
        defs.put(def.table(), def);
        for (ForeignKey fk : def.foreignKeys()) {
          byParent.computeIfAbsent(fk.parent(), p -> new ArrayList<>())
              .add(new Reference(def, fk));
        }
      }
    }
    return new View(version, byParent, defs);
  }

  /** The keys that reference {@code parent} (from any table, itself included). */
  public static List<Reference> referencing(Storage db, TableName parent) {
    return view(db).byParent.getOrDefault(parent, List.of());
  }

  /** The current definition of {@code table}, or null. */
  public static SqlTableDef definition(Storage db, TableName table) {
    return view(db).defs.get(table);
  }

  /** Whether writes of {@code def} check or act on an enforced foreign key (either end). */
  public static boolean enforcedAt(Storage db, SqlTableDef def) {
    for (ForeignKey fk : def.foreignKeys()) {
      if (fk.enforced()) {
        return true;
      }
    }
    for (Reference r : referencing(db, def.table())) {
      if (r.key().enforced()) {
        return true;
      }
    }
    return false;
  }
}
