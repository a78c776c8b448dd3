package io.basaltdb.engine.util;

import io.basaltdb.engine.StorageIOException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

/**
 * Small metadata files replaced atomically (the manifest, the catalog): written whole to
 * {@code name.tmp} and fsynced, renamed over {@code name}, then the directory fsynced, so a
 * crash leaves the old file or the new one, never a mix.
 */
public final class AtomicFiles {
  private AtomicFiles() {}

  public static void write(Path dir, String name, byte[] content) {
    Path tmp = dir.resolve(name + ".tmp");
    try {
      Files.write(tmp, content, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING,
          StandardOpenOption.WRITE, StandardOpenOption.SYNC);
      Files.move(tmp, dir.resolve(name), StandardCopyOption.ATOMIC_MOVE,
          StandardCopyOption.REPLACE_EXISTING);
      Fsync.directory(dir);
    } catch (IOException e) {
      throw StorageIOException.wrap("cannot write " + name + " in " + dir, e);
    }
  }

  /** The file's bytes, or null when it does not exist. */
  public static byte[] read(Path dir, String name) {
    Path p = dir.resolve(name);
    try {
      return Files.readAllBytes(p);
    } catch (NoSuchFileException e) {
      return null;
    } catch (IOException e) {
      throw StorageIOException.wrap("cannot read " + p, e);
    }
  }
}
