package io.basaltdb.engine;

import io.basaltdb.storage.TableName;
import io.basaltdb.engine.catalog.CatalogFile;
import io.basaltdb.engine.io.FileSystem;
import io.basaltdb.engine.region.Region;
import io.basaltdb.engine.util.FileTrees;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * One split of a region in two at a row near the middle of its data (engine/doc/splits.md):
 * the daughters' files are written first, then the catalog switches from parent to daughters
 * in one atomic write, the daughters open and the parent closes. A crash before the switch
 * leaves the parent (daughter directories are deleted as leftovers); after it, the daughters,
 * which hold everything the parent had flushed, with writes to the parent blocked before its
 * last flush. Run by {@link Database#split} under the admin lock.
 */
final class RegionSplit {
  private final TableRegistry registry;
  private final FileSystem fs;
  private final Region parent;

  RegionSplit(TableRegistry registry, Region parent) {
    this.registry = registry;
    this.fs = registry.fileSystem();
    this.parent = parent;
  }

  /** Whether the region was split (false: it is gone, or has no row to split at). */
  boolean run() {
    TableState st = null;
    TableName tableName = null;
    for (Map.Entry<TableName, TableState> e : registry.tables().entrySet()) {
      if (e.getValue().regions.contains(parent)) {
        st = e.getValue();
        tableName = e.getKey();
      }
    }
    if (st == null) {
      return false;
    }
    byte[] mid = parent.splitRow();
    if (mid == null) {
      return false;
    }
    CatalogFile c = registry.catalog();
    CatalogFile.TableEntry t = c.table(tableName);
    long lowId = c.nextRegionId();
    CatalogFile.RegionEntry low = new CatalogFile.RegionEntry(lowId,
        parent.descriptor().startRow(), mid);
    CatalogFile.RegionEntry high = new CatalogFile.RegionEntry(lowId + 1, mid,
        parent.descriptor().endRow());
    Path lowDir = registry.regionDirectory(low.dirName());
    Path highDir = registry.regionDirectory(high.dirName());
    try {
      Region.create(fs, lowDir, st.descriptor.families().keySet());
      Region.create(fs, highDir, st.descriptor.families().keySet());
      parent.splitInto(lowDir, highDir, mid);
      fs.crashPoint("split.beforeCatalog");
    } catch (RuntimeException e) {
      abandon(lowDir, highDir, e);
      throw e;
    }
    List<CatalogFile.RegionEntry> entries = new ArrayList<>();
    for (CatalogFile.RegionEntry re : t.regions()) {
      if (re.dirName().equals(parent.name())) {
        entries.add(low);
        entries.add(high);
      } else {
        entries.add(re);
      }
    }
    try {
      registry.installCatalog(c.withTable(new CatalogFile.TableEntry(t.descriptor(), t.enabled(),
          entries), lowId + 2));
    } catch (RuntimeException e) {
      abandon(lowDir, highDir, e);
      throw e;
    }
    fs.crashPoint("split.afterCatalog");
    Region lowRegion = registry.openRegion(st.descriptor, low);
    Region highRegion = registry.openRegion(st.descriptor, high);
    List<Region> regions = new ArrayList<>();
    for (Region r : st.regions) {
      if (r == parent) {
        regions.add(lowRegion);
        regions.add(highRegion);
      } else {
        regions.add(r);
      }
    }
    st.setRegions(regions);
    registry.closeRegion(parent);
    FileTrees.delete(fs, registry.regionDirectory(parent.name()));
    return true;
  }

  /** Before the catalog switch: the parent takes writes again, the daughters' files go. */
  private void abandon(Path lowDir, Path highDir, RuntimeException failure) {
    parent.unblockWrites();
    for (Path p : List.of(lowDir, highDir)) {
      try {
        FileTrees.delete(fs, p);
      } catch (RuntimeException e) {
        failure.addSuppressed(e);
      }
    }
  }
}
