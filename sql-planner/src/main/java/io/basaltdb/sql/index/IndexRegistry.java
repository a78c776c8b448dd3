package io.basaltdb.sql.index;

import io.basaltdb.sql.catalog.SqlCatalog;
import io.basaltdb.sql.catalog.SqlIndexDef;
import io.basaltdb.storage.Storage;
import io.basaltdb.storage.TableName;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * The indexes of each table of one open database, as every writer must maintain them (kept by
 * the database, {@link Storage#extension}; read from the catalog on a table's first write).
 * The invariant an online build rests on: a write statement holds its table's
 * {@linkplain Indexes#writing shared lock} from reading the index list to its last row, and
 * DDL changes the list under the exclusive lock, so once a new index is registered every write
 * that follows maintains it and none that ignored it is still running.
 */
public final class IndexRegistry {
  private final Storage db;
  private final ConcurrentHashMap<TableName, Indexes> tables = new ConcurrentHashMap<>();

  private IndexRegistry(Storage db) {
    this.db = db;
  }

  /**
   * The database's registry; its first use in a process deletes the engine tables a crash left
   * behind an index's DDL ({@link OrphanIndexTables}), every caller waiting until that is done.
   */
  public static IndexRegistry of(Storage db) {
    IndexRegistry r = db.extension(IndexRegistry.class, () -> new IndexRegistry(db));
    if (!r.recovered) {
      r.recover();
    }
    return r;
  }

  private volatile boolean recovered;

  private synchronized void recover() {
    if (!recovered) {
      List<TableName> removed = OrphanIndexTables.remove(db);
      if (!removed.isEmpty()) {
        System.err.println("basalt: removed the storage of interrupted index DDL: " + removed);
      }
      recovered = true;
    }
  }

  /** One table's indexes and the lock that orders its writers with changes to them. */
  public static final class Indexes {
    private final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();
    /** The list, and the catalog version it was read after (one object: never mixed). */
    private volatile Listed listed;

    private Indexes(List<SqlIndexDef> list, long version) {
      this.listed = new Listed(List.copyOf(list), version);
    }

    /** Shared by writers: held, the list does not change. */
    public ReentrantReadWriteLock.ReadLock writing() {
      return lock.readLock();
    }

    /** The indexes writers maintain (BUILDING and ACTIVE). */
    public List<SqlIndexDef> list() {
      return listed.list();
    }
  }

  /**
   * A table's index list, read from the catalog after the catalog version was read as {@code
   * version} (on a storage other processes change too; -1: read it again at the next look).
   */
  private record Listed(List<SqlIndexDef> list, long version) {}

  /** A table definition and an index of it, compared by identity (both are immutable). */
  private static final class LayoutKey {
    private final io.basaltdb.sql.catalog.SqlTableDef def;
    private final SqlIndexDef index;

    LayoutKey(io.basaltdb.sql.catalog.SqlTableDef def, SqlIndexDef index) {
      this.def = def;
      this.index = index;
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof LayoutKey k && k.def == def && k.index == index;
    }

    @Override
    public int hashCode() {
      return System.identityHashCode(def) * 31 + System.identityHashCode(index);
    }
  }

  private final ConcurrentHashMap<LayoutKey, IndexLayout> layouts = new ConcurrentHashMap<>();

  /** The layout of {@code index} for {@code def}, made once per pair (until the next DDL). */
  public IndexLayout layout(io.basaltdb.sql.catalog.SqlTableDef def, SqlIndexDef index) {
    if (layouts.size() > 1000) {
      layouts.clear(); // definitions of connections long gone: start again
    }
    return layouts.computeIfAbsent(new LayoutKey(def, index), k -> new IndexLayout(def, index));
  }

  /**
   * The layout of {@code def}'s index {@code name} when it is ACTIVE now, else null (dropped,
   * or being built or rebuilt: queries must not use it).
   */
  public IndexLayout active(io.basaltdb.sql.catalog.SqlTableDef def, String name) {
    for (SqlIndexDef i : of(def.table()).list()) {
      if (i.name().equals(name) && i.state() == SqlIndexDef.State.ACTIVE) {
        return layout(def, i);
      }
    }
    return null;
  }

  /**
   * Table {@code t}'s indexes. On a storage other processes change too (HBase), the list is
   * read again whenever the catalog's version moved (read from the storage at most once a
   * second, {@link io.basaltdb.sql.catalog.CatalogVersion}): another process's new index is
   * maintained by the statements that start here after that, and its dropped one no longer
   * (without this process's lock: a statement running keeps the list it began with).
   */
  public Indexes of(TableName t) {
    boolean shared = db.sharedByProcesses();
    Indexes i = tables.get(t);
    if (i == null) {
      long version = shared ? io.basaltdb.sql.catalog.CatalogVersion.current(db) : 0;
      return tables.computeIfAbsent(t, x -> new Indexes(new SqlCatalog(db).indexes(x),
          version));
    }
    if (shared) {
      long version = io.basaltdb.sql.catalog.CatalogVersion.current(db); // before the list
      if (version != i.listed.version()) {
        i.listed = new Listed(List.copyOf(new SqlCatalog(db).indexes(t)), version);
      }
    }
    return i;
  }

  /**
   * Sets table {@code t}'s index list once every write statement running on it has finished;
   * writes starting later see the new list.
   */
  public void set(TableName t, List<SqlIndexDef> list) {
    Indexes i = of(t);
    i.lock.writeLock().lock();
    try {
      // read again at the next look (other processes' DDL may be in between)
      i.listed = new Listed(List.copyOf(list), -1);
      layouts.clear();
    } finally {
      i.lock.writeLock().unlock();
    }
  }

  private final java.util.Set<String> builds = ConcurrentHashMap.newKeySet();

  /** Marks the build of index {@code name} of {@code t} as running in this process. */
  public void startBuild(TableName t, String name) {
    if (!builds.add(t + "/" + name)) {
      throw new io.basaltdb.storage.InvalidArgumentException("index " + name + " on " + t
          + " is being built now");
    }
  }

  public void endBuild(TableName t, String name) {
    builds.remove(t + "/" + name);
  }

  /** True while this process builds index {@code name} of {@code t}. */
  public boolean building(TableName t, String name) {
    return builds.contains(t + "/" + name);
  }

  /** Forgets a dropped table (read again from the catalog if one of its name is created). */
  public void forget(TableName t) {
    Indexes i = tables.get(t);
    if (i != null) {
      i.lock.writeLock().lock();
      try {
        tables.remove(t);
        i.listed = new Listed(List.of(), -1);
      } finally {
        i.lock.writeLock().unlock();
      }
    }
  }
}
