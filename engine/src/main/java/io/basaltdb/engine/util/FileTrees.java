package io.basaltdb.engine.util;

import io.basaltdb.storage.StorageIOException;
import io.basaltdb.engine.io.FileSystem;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * Deletes directory trees whose files may vanish meanwhile (a compacted file released by its
 * last reader deletes itself): an entry already gone is not an error. The deletion of the
 * tree's root is made durable (its parent directory is fsynced).
 */
public final class FileTrees {
  private FileTrees() {}

  public static void delete(FileSystem fs, Path p) {
    try {
      deleteRecursively(fs, p);
      Path parent = p.toAbsolutePath().getParent();
      if (parent != null && fs.isDirectory(parent)) {
        fs.syncDirectory(parent);
      }
    } catch (IOException e) {
      throw StorageIOException.wrap("cannot delete " + p, e);
    }
  }

  private static void deleteRecursively(FileSystem fs, Path p) throws IOException {
    if (fs.isDirectory(p)) {
      try {
        for (Path c : fs.list(p)) {
          deleteRecursively(fs, c);
        }
      } catch (NoSuchFileException gone) {
        return;
      }
    }
    fs.deleteIfExists(p);
  }
}
