package io.basaltdb.engine.backup;

import java.nio.file.Path;

/**
 * How a backup is written. {@code copyOnly}: never hard-link a block file, even on the
 * database's own file system (a copy that survives damage to the database's files, or that is
 * to be moved). {@code previous}: a complete earlier backup; a block file found there with the
 * same path, size and CRC32C is linked from it instead of copied (an incremental backup), which
 * saves the writes when the backup is on another file system. {@code atCut}: run while every
 * write is held back at the cut (tests take a snapshot there to compare with). Immutable.
 */
public record BackupOptions(boolean copyOnly, Path previous, Runnable atCut) {
  public static BackupOptions defaults() {
    return new BackupOptions(false, null, null);
  }

  public BackupOptions withCopyOnly(boolean copy) {
    return new BackupOptions(copy, previous, atCut);
  }

  public BackupOptions withPrevious(Path prev) {
    return new BackupOptions(copyOnly, prev, atCut);
  }

  public BackupOptions withAtCut(Runnable r) {
    return new BackupOptions(copyOnly, previous, r);
  }
}
