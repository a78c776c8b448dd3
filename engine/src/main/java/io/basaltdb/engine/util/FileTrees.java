package io.basaltdb.engine.util;

import io.basaltdb.engine.StorageIOException;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * Deletes directory trees whose files may vanish meanwhile (a compacted file released by its
 * last reader deletes itself): an entry already gone is not an error.
 */
public final class FileTrees {
  private FileTrees() {}

  public static void delete(Path p) {
    try {
      if (Files.isDirectory(p, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
        try (DirectoryStream<Path> children = Files.newDirectoryStream(p)) {
          for (Path c : children) {
            delete(c);
          }
        } catch (NoSuchFileException gone) {
          return;
        }
      }
      Files.deleteIfExists(p);
    } catch (IOException e) {
      throw StorageIOException.wrap("cannot delete " + p, e);
    }
  }
}
