package io.basaltdb.engine;

import io.basaltdb.storage.CorruptionException;
import io.basaltdb.storage.StorageIOException;
import io.basaltdb.engine.catalog.CatalogFile;
import io.basaltdb.engine.io.FileSystem;
import io.basaltdb.engine.store.Store;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * The catalog as a database open finds it: a new one for a directory that holds no database
 * yet; corruption for a directory that holds a log or regions but no catalog (never an empty
 * database); a version-1 catalog upgraded (stores got a manifest only at their first flush:
 * empty stores get theirs, then the catalog is rewritten in the current version).
 */
final class CatalogRecovery {
  private CatalogRecovery() {}

  static CatalogFile read(FileSystem fs, Path dir) {
    CatalogFile c = CatalogFile.readIfPresent(fs, dir);
    if (c == null) {
      for (String held : List.of("wal", "regions")) {
        if (fs.exists(dir.resolve(held))) {
          throw new CorruptionException(dir.resolve(CatalogFile.NAME).toString(), 0,
              "the catalog is missing but the directory holds a database (" + held + "/);"
              + " refusing to open it as an empty one");
        }
      }
      c = CatalogFile.empty();
      c.writeTo(fs, dir);
      return c;
    }
    if (c.formatVersion() < CatalogFile.FORMAT_VERSION) {
      for (CatalogFile.TableEntry t : c.tables()) {
        for (CatalogFile.RegionEntry re : t.regions()) {
          for (String family : t.descriptor().families().keySet()) {
            upgradeStore(fs, dir.resolve("regions").resolve(re.dirName()).resolve(family));
          }
        }
      }
      c = new CatalogFile(c.nextRegionId(), c.namespaces(), c.tables());
      c.writeTo(fs, dir);
    }
    return c;
  }

  /** A version-1 store without a manifest is a store never flushed, unless it holds files. */
  private static void upgradeStore(FileSystem fs, Path storeDir) {
    if (io.basaltdb.engine.manifest.Manifest.readIfPresent(fs, storeDir) != null) {
      return;
    }
    try {
      if (fs.isDirectory(storeDir)) {
        for (Path p : fs.list(storeDir)) {
          if (p.getFileName().toString().endsWith(".blk")) {
            throw new CorruptionException(storeDir.resolve("MANIFEST").toString(), 0,
                "the store's manifest is missing but it holds block files (" + p.getFileName()
                + ")");
          }
        }
      }
    } catch (IOException e) {
      throw StorageIOException.wrap("cannot list " + storeDir, e);
    }
    Store.create(fs, storeDir);
  }
}
