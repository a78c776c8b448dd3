package io.basaltdb.engine.region;

import io.basaltdb.storage.StorageIOException;
import io.basaltdb.engine.io.FileSystem;
import io.basaltdb.engine.store.Store;
import io.basaltdb.engine.util.FileTrees;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Collection;
import java.util.Set;

/**
 * A region's directory on disk: one store directory per family. Made whole before the catalog
 * names the region; cleaned of what no store names only once the whole database has opened.
 */
final class RegionDirectory {
  private RegionDirectory() {}

  /** See {@link Region#create}. */
  static void create(FileSystem fs, Path dir, Collection<String> families) {
    FileTrees.delete(fs, dir);
    try {
      fs.createDirectories(dir);
    } catch (IOException e) {
      throw StorageIOException.wrap("cannot create region directory " + dir, e);
    }
    for (String f : families) {
      Store.create(fs, dir.resolve(f));
    }
  }

  /** See {@link Region#deleteLeftovers}. */
  static void deleteLeftovers(FileSystem fs, Path dir, Collection<Store> stores,
      Set<String> families) {
    for (Store s : stores) {
      s.deleteLeftovers();
    }
    try {
      for (Path p : fs.list(dir)) {
        if (!families.contains(p.getFileName().toString())) {
          FileTrees.delete(fs, p);
        }
      }
    } catch (IOException e) {
      throw StorageIOException.wrap("cannot list " + dir, e);
    }
  }
}
