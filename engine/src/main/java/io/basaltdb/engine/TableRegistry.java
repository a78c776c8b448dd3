package io.basaltdb.engine;

import io.basaltdb.storage.TableDescriptor;
import io.basaltdb.storage.TableName;
import io.basaltdb.storage.TableNotFoundException;
import io.basaltdb.engine.catalog.CatalogFile;
import io.basaltdb.engine.io.FileSystem;
import io.basaltdb.engine.region.DatabaseMvcc;
import io.basaltdb.engine.region.Region;
import io.basaltdb.engine.region.RegionContext;
import io.basaltdb.engine.region.RegionDescriptor;
import io.basaltdb.engine.store.Store;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What a database holds, by name: the catalog file in force, every table's live state, and every
 * open region by its directory name (the name the write-ahead log's edits carry).
 *
 * <p>Invariant: the catalog on disk names every table and region before they are opened here,
 * and a region is opened here at most once (a region in {@link #regionsByName} belongs to the
 * regions of exactly one enabled table). Changes come from the admin lock holder only.
 */
final class TableRegistry {
  private final FileSystem fs;
  private final Path dir;
  private final DatabaseMvcc order;
  private final Map<TableName, TableState> tables = new ConcurrentHashMap<>();
  private final Map<String, Region> regionsByName = new ConcurrentHashMap<>();
  private RegionContext ctx;
  private volatile CatalogFile catalog;

  TableRegistry(FileSystem fs, Path dir, DatabaseMvcc order) {
    this.fs = fs;
    this.dir = dir;
    this.order = order;
  }

  /** The context regions open with (set once, before the first region opens). */
  void setContext(RegionContext ctx) {
    this.ctx = ctx;
  }

  FileSystem fileSystem() {
    return fs;
  }

  CatalogFile catalog() {
    return catalog;
  }

  /** Writes {@code c} durably as the catalog, then makes it the one in force. */
  void installCatalog(CatalogFile c) {
    c.writeTo(fs, dir);
    catalog = c;
  }

  /** The catalog read at open (already on disk). */
  void recovered(CatalogFile c) {
    catalog = c;
  }

  Path regionDirectory(String name) {
    return dir.resolve("regions").resolve(name);
  }

  /**
   * Opens a region the catalog names and registers it. Sequence ids go on from above
   * everything the region holds: its data stays visible to its read point, and new writes sort
   * after it.
   */
  Region openRegion(TableDescriptor t, CatalogFile.RegionEntry re) {
    RegionDescriptor d = new RegionDescriptor(re.dirName(), re.startRow(), re.endRow(),
        t.families());
    Region r = Region.open(d, regionDirectory(re.dirName()), ctx);
    long maxSeq = 0;
    for (Store s : r.stores()) {
      maxSeq = Math.max(maxSeq, s.flushedSequenceId());
      for (var f : s.filesSnapshot()) {
        maxSeq = Math.max(maxSeq, f.info().maxSequenceId());
      }
    }
    order.raiseTo(maxSeq);
    regionsByName.put(re.dirName(), r);
    r.opened();
    return r;
  }

  void closeRegion(Region r) {
    r.close();
    regionsByName.remove(r.name());
  }

  /** The open region a log edit names, or null (its table was dropped or disabled). */
  Region region(String dirName) {
    return regionsByName.get(dirName);
  }

  /** The open regions, live view (iteration sees regions opened or closed meanwhile or not). */
  Collection<Region> openRegions() {
    return regionsByName.values();
  }

  void put(TableName name, TableState s) {
    tables.put(name, s);
  }

  void remove(TableName name) {
    tables.remove(name);
  }

  Map<TableName, TableState> tables() {
    return tables;
  }

  /** The live state of an existing table, or {@link TableNotFoundException}. */
  TableState state(TableName name) {
    TableState s = tables.get(name);
    if (s == null) {
      throw new TableNotFoundException("table " + name + " does not exist");
    }
    return s;
  }

  /** The region holding most memstore bytes, or null when none is open. */
  Region largestMemstore() {
    Region largest = null;
    for (Region x : regionsByName.values()) {
      if (largest == null || x.memstoreBytes() > largest.memstoreBytes()) {
        largest = x;
      }
    }
    return largest;
  }

  List<String> describe() {
    List<String> out = new ArrayList<>();
    for (Region r : regionsByName.values()) {
      out.add(r.stats().toString());
    }
    return out;
  }
}
