package io.basaltdb.engine;

import io.basaltdb.storage.Admin;
import io.basaltdb.storage.FamilyOptions;
import io.basaltdb.storage.InvalidArgumentException;
import io.basaltdb.storage.RegionInfo;
import io.basaltdb.storage.Splits;
import io.basaltdb.storage.TableDescriptor;
import io.basaltdb.storage.TableDisabledException;
import io.basaltdb.storage.TableName;
import io.basaltdb.storage.TableNotFoundException;
import io.basaltdb.engine.catalog.CatalogFile;
import io.basaltdb.engine.region.Region;
import io.basaltdb.engine.util.FileTrees;
import java.util.ArrayList;
import java.util.List;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * The embedded engine's {@link Admin}. Every schema change is recorded in the catalog atomically
 * before it takes effect. Thread-safe: changes are serialised on this object.
 */
final class LocalAdmin implements Admin {
  private final Database db;
  private final TableRegistry registry;

  LocalAdmin(Database db, TableRegistry registry) {
    this.db = db;
    this.registry = registry;
  }

  // ------------------------------------------------------------ namespaces

  @Override
  public synchronized void createNamespace(String namespace) {
    db.checkOpen();
    TableName.checkName("namespace", namespace);
    CatalogFile c = registry.catalog();
    if (c.namespaces().contains(namespace)) {
      throw new InvalidArgumentException("namespace " + namespace + " already exists");
    }
    SortedSet<String> ns = new TreeSet<>(c.namespaces());
    ns.add(namespace);
    registry.installCatalog(c.withNamespaces(ns));
  }

  @Override
  public synchronized void dropNamespace(String namespace) {
    db.checkOpen();
    CatalogFile c = registry.catalog();
    if (!c.namespaces().contains(namespace)) {
      throw new TableNotFoundException("namespace " + namespace + " does not exist");
    }
    if (namespace.equals(TableName.DEFAULT_NAMESPACE)) {
      throw new InvalidArgumentException("the default namespace cannot be dropped");
    }
    for (CatalogFile.TableEntry t : c.tables()) {
      if (t.descriptor().name().namespace().equals(namespace)) {
        throw new InvalidArgumentException("namespace " + namespace + " is not empty: it holds "
            + t.descriptor().name());
      }
    }
    SortedSet<String> ns = new TreeSet<>(c.namespaces());
    ns.remove(namespace);
    registry.installCatalog(c.withNamespaces(ns));
  }

  @Override
  public List<String> listNamespaces() {
    db.checkOpen();
    return List.copyOf(registry.catalog().namespaces());
  }

  // ------------------------------------------------------------ tables

  @Override
  public void createTable(TableDescriptor desc) {
    createTable(desc, new byte[0][]);
  }

  @Override
  public synchronized void createTable(TableDescriptor desc, byte[][] splitKeys) {
    db.checkOpen();
    CatalogFile c = registry.catalog();
    TableName name = desc.name();
    if (!c.namespaces().contains(name.namespace())) {
      throw new TableNotFoundException("namespace " + name.namespace() + " does not exist");
    }
    if (c.table(name) != null) {
      throw new InvalidArgumentException("table " + name + " already exists");
    }
    Splits.check(splitKeys);
    long next = c.nextRegionId();
    List<CatalogFile.RegionEntry> entries = new ArrayList<>();
    byte[] start = new byte[0];
    for (byte[] k : splitKeys) {
      entries.add(new CatalogFile.RegionEntry(next++, start, k));
      start = k;
    }
    entries.add(new CatalogFile.RegionEntry(next++, start, new byte[0]));
    CatalogFile.TableEntry t = new CatalogFile.TableEntry(desc, true, entries);
    // the regions exist (each store with its manifest) before the catalog names them
    try {
      for (CatalogFile.RegionEntry re : entries) {
        Region.create(registry.fileSystem(), registry.regionDirectory(re.dirName()),
            desc.families().keySet());
      }
      registry.fileSystem().crashPoint("createTable.beforeCatalog");
      registry.installCatalog(c.withTable(t, next));
    } catch (RuntimeException e) {
      for (CatalogFile.RegionEntry re : entries) {
        try {
          FileTrees.delete(registry.fileSystem(), registry.regionDirectory(re.dirName()));
        } catch (RuntimeException suppressed) {
          e.addSuppressed(suppressed);
        }
      }
      throw e;
    }
    List<Region> regions = new ArrayList<>();
    for (CatalogFile.RegionEntry re : entries) {
      regions.add(registry.openRegion(desc, re));
    }
    registry.put(name, new TableState(desc, true, regions));
  }

  @Override
  public boolean tableExists(TableName name) {
    db.checkOpen();
    return registry.catalog().table(name) != null;
  }

  @Override
  public List<TableName> listTables() {
    db.checkOpen();
    List<TableName> out = new ArrayList<>();
    for (CatalogFile.TableEntry t : registry.catalog().tables()) {
      out.add(t.descriptor().name());
    }
    out.sort(null);
    return out;
  }

  @Override
  public TableDescriptor describe(TableName name) {
    return db.state(name).descriptor;
  }

  @Override
  public boolean isEnabled(TableName name) {
    return db.state(name).enabled;
  }

  /**
   * Disables a table: its regions refuse new writes and wait for those in flight, flush
   * everything they acknowledged, then the catalog records the table disabled and the regions
   * close. Writers racing the disable get {@link TableDisabledException} (after retrying while
   * it runs); none of their acknowledged writes is lost. If a flush or the catalog switch fails,
   * the table stays enabled and takes writes again.
   */
  @Override
  public synchronized void disableTable(TableName name) {
    TableState s = db.state(name);
    if (!s.enabled) {
      throw new InvalidArgumentException("table " + name + " is already disabled");
    }
    CatalogFile c = registry.catalog();
    CatalogFile.TableEntry t = c.table(name);
    List<Region> regions = s.regions;
    try {
      for (Region r : regions) {
        r.blockWrites();
      }
      for (Region r : regions) {
        r.flush();
      }
      registry.fileSystem().crashPoint("disable.beforeCatalog");
      registry.installCatalog(c.withTable(new CatalogFile.TableEntry(t.descriptor(), false,
          t.regions()), c.nextRegionId()));
    } catch (RuntimeException e) {
      regions.forEach(Region::unblockWrites);
      throw e;
    }
    s.enabled = false;
    s.setRegions(List.of());
    for (Region r : regions) {
      registry.closeRegion(r);
    }
  }

  @Override
  public synchronized void enableTable(TableName name) {
    TableState s = db.state(name);
    if (s.enabled) {
      throw new InvalidArgumentException("table " + name + " is already enabled");
    }
    CatalogFile c = registry.catalog();
    CatalogFile.TableEntry t = c.table(name);
    registry.installCatalog(c.withTable(
        new CatalogFile.TableEntry(t.descriptor(), true, t.regions()),
        c.nextRegionId()));
    List<Region> regions = new ArrayList<>();
    for (CatalogFile.RegionEntry re : t.regions()) {
      regions.add(registry.openRegion(t.descriptor(), re));
    }
    s.setRegions(regions);
    s.enabled = true;
  }

  @Override
  public synchronized void deleteTable(TableName name) {
    TableState s = db.state(name);
    CatalogFile c = registry.catalog();
    CatalogFile.TableEntry t = c.table(name);
    s.enabled = false;
    for (Region r : s.regions) {
      registry.closeRegion(r);
    }
    registry.installCatalog(c.withoutTable(name));
    registry.remove(name);
    registry.fileSystem().crashPoint("dropTable.afterCatalog");
    for (CatalogFile.RegionEntry re : t.regions()) {
      FileTrees.delete(registry.fileSystem(), registry.regionDirectory(re.dirName()));
    }
  }

  @Override
  public synchronized void truncateTable(TableName name, boolean preserveSplits) {
    TableState s = db.state(name);
    TableDescriptor desc = s.descriptor;
    List<byte[]> splits = new ArrayList<>();
    if (preserveSplits) {
      for (CatalogFile.RegionEntry re : registry.catalog().table(name).regions()) {
        if (re.startRow().length > 0) {
          splits.add(re.startRow());
        }
      }
    }
    deleteTable(name);
    createTable(desc, splits.toArray(new byte[0][]));
  }

  // ------------------------------------------------------------ families (online)

  @Override
  public synchronized void addFamily(TableName name, String family, FamilyOptions options) {
    TableState s = db.state(name);
    if (s.descriptor.families().containsKey(family)) {
      throw new InvalidArgumentException("table " + name + " already has column family " + family);
    }
    // every region (open or not) has the new, empty store before the catalog names it
    for (CatalogFile.RegionEntry re : registry.catalog().table(name).regions()) {
      io.basaltdb.engine.store.Store.create(registry.fileSystem(),
          registry.regionDirectory(re.dirName()).resolve(family), db.currentSequenceId());
    }
    changeFamilies(name, s.descriptor.withFamily(family, options));
    for (Region r : s.regions) {
      r.addFamily(family, options);
    }
  }

  @Override
  public synchronized void modifyFamily(TableName name, String family, FamilyOptions options) {
    TableState s = db.state(name);
    requireFamily(s, name, family);
    changeFamilies(name, s.descriptor.withFamily(family, options));
    for (Region r : s.regions) {
      r.store(family).setOptions(options);
    }
  }

  @Override
  public synchronized void deleteFamily(TableName name, String family) {
    TableState s = db.state(name);
    requireFamily(s, name, family);
    if (s.descriptor.families().size() == 1) {
      throw new InvalidArgumentException("cannot remove " + family + ", the last family of "
          + name);
    }
    changeFamilies(name, s.descriptor.withoutFamily(family));
    for (Region r : s.regions) {
      r.removeFamily(family);
    }
  }

  private static void requireFamily(TableState s, TableName name, String family) {
    if (!s.descriptor.families().containsKey(family)) {
      throw new InvalidArgumentException("table " + name + " has no column family " + family
          + "; families: " + s.descriptor.families().keySet());
    }
  }

  private void changeFamilies(TableName name, TableDescriptor desc) {
    CatalogFile c = registry.catalog();
    CatalogFile.TableEntry t = c.table(name);
    registry.installCatalog(c.withTable(new CatalogFile.TableEntry(desc, t.enabled(), t.regions()),
        c.nextRegionId()));
    db.state(name).setDescriptor(desc);
  }

  // ------------------------------------------------------------ regions and maintenance

  @Override
  public List<RegionInfo> regions(TableName name) {
    List<RegionInfo> out = new ArrayList<>();
    for (Region r : db.state(name).regions) {
      out.add(new RegionInfo(name, r.name(), r.descriptor().startRow(), r.descriptor().endRow(),
          r.stats()));
    }
    return out;
  }

  @Override
  public int regionCount(TableName name) {
    return db.state(name).regions.size();
  }

  @Override
  public List<byte[]> regionStartRows(TableName name) {
    return db.state(name).startRows;
  }

  @Override
  public int split(TableName name) {
    int n = 0;
    for (Region r : enabledRegions(name)) {
      r.flush();
      if (db.split(r)) {
        n++;
      }
    }
    return n;
  }

  @Override
  public void flush(TableName name) {
    for (Region r : enabledRegions(name)) {
      r.flush();
    }
  }

  @Override
  public void compact(TableName name) {
    for (Region r : enabledRegions(name)) {
      r.compact(false);
    }
  }

  @Override
  public void majorCompact(TableName name) {
    for (Region r : enabledRegions(name)) {
      r.flush();
      r.compact(true);
    }
  }

  private List<Region> enabledRegions(TableName name) {
    TableState s = db.state(name);
    if (!s.enabled) {
      throw new TableDisabledException(name);
    }
    return s.regions;
  }

}
