package io.basaltdb.engine.backup;

import io.basaltdb.storage.InvalidArgumentException;
import io.basaltdb.storage.StorageIOException;
import io.basaltdb.engine.io.FileSystem;
import io.basaltdb.engine.util.FileTrees;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Makes a database directory of a backup ({@code bin/basalt restore}). The backup's manifest
 * and file set are checked first; each file is then copied into {@code DIR.restoring} with its
 * CRC32C checked as it is copied; {@code openCheck} opens the copy (replaying the copied log);
 * only then is it renamed to {@code DIR}. A damaged or incomplete backup is refused naming the
 * file, and leaves {@code DIR} as it was. An existing, non-empty {@code DIR} is refused unless
 * {@code force}, which moves it aside to {@code DIR.before-restore-<millis>}, never deletes it.
 */
public final class BackupRestore {
  private BackupRestore() {}

  /** What a restore did. */
  public record Report(BackupManifest manifest, int files, long bytes, Path movedAside) {}

  /** {@link #restore(FileSystem, Path, Path, boolean, Consumer)} on the real file system. */
  public static Report restore(Path backup, Path dataDir, boolean force,
      Consumer<Path> openCheck) {
    return restore(io.basaltdb.engine.io.NioFileSystem.INSTANCE, backup, dataDir, force,
        openCheck);
  }

  public static Report restore(FileSystem fs, Path backup, Path dataDir, boolean force,
      Consumer<Path> openCheck) {
    Path target = dataDir.toAbsolutePath().normalize();
    BackupManifest m = BackupManifest.read(fs, backup);
    BackupCheck.checkFileSet(fs, backup, m);
    boolean occupied;
    try {
      occupied = fs.exists(target) && (!fs.isDirectory(target) || !fs.list(target).isEmpty());
    } catch (IOException e) {
      throw StorageIOException.wrap("cannot read " + target, e);
    }
    if (occupied && !force) {
      throw new InvalidArgumentException(target + " is not empty: restore never writes over a"
          + " database unless told to (--force moves the old one aside)");
    }
    Path parent = target.getParent();
    Path tmp = parent.resolve(target.getFileName() + ".restoring");
    FileTrees.delete(fs, tmp); // what an interrupted restore left
    try {
      copyAll(fs, backup, tmp, m);
      openCheck.accept(tmp);
    } catch (RuntimeException e) {
      FileTrees.delete(fs, tmp);
      throw e;
    }
    Path aside = null;
    try {
      if (fs.exists(target)) {
        if (occupied) {
          aside = parent.resolve(target.getFileName() + ".before-restore-"
              + System.currentTimeMillis());
          fs.rename(target, aside);
        } else {
          fs.deleteIfExists(target); // an empty directory
        }
      }
      fs.rename(tmp, target);
      fs.syncDirectory(parent);
    } catch (IOException e) {
      throw StorageIOException.wrap("cannot move the restored database " + tmp + " to " + target
          + (aside != null ? " (the old one is in " + aside + ")" : ""), e);
    }
    return new Report(m, m.files().size(), m.totalBytes(), aside);
  }

  private static void copyAll(FileSystem fs, Path backup, Path tmp, BackupManifest m) {
    ByteBuffer buffer = ByteBuffer.allocate(1 << 20);
    Set<Path> dirs = new LinkedHashSet<>();
    try {
      fs.createDirectories(tmp);
      for (BackupManifest.Entry e : m.files()) {
        Path to = tmp.resolve(e.path());
        if (dirs.add(to.getParent())) {
          fs.createDirectories(to.getParent());
        }
        copyChecked(fs, backup.resolve(e.path()), to, e, buffer);
      }
      for (Path d : dirs) {
        fs.syncDirectory(d);
      }
    } catch (IOException e) {
      throw StorageIOException.wrap("cannot restore " + backup + " into " + tmp, e);
    }
  }

  private static void copyChecked(FileSystem fs, Path from, Path to, BackupManifest.Entry e,
      ByteBuffer buffer) throws IOException {
    long size = fs.size(from);
    if (size != e.size()) {
      throw BackupCheck.damaged(from, "it has " + size + " bytes, the backup's manifest says "
          + e.size());
    }
    int crc = BackupWriter.copy(fs, from, to, size, buffer);
    if (crc != e.crc32c()) {
      throw BackupCheck.damaged(from, "its CRC32C is " + BackupManifest.hex(crc)
          + ", the backup's manifest says " + BackupManifest.hex(e.crc32c()));
    }
  }
}
