package io.basaltdb.engine.backup;

import java.nio.file.Path;

/**
 * One file of a backup as its cut found it ({@code path} under the backup's directory,
 * '/'-separated, as under the database's): an immutable block file, a prefix of a growing log
 * segment, or bytes taken in memory (a store's manifest, the catalog).
 */
public sealed interface BackupItem {
  String path();

  /** A block file: never changed once written, so it may be hard-linked. */
  record Immutable(String path, Path source, long size) implements BackupItem {}

  /** The first {@code length} bytes of a file that grows at its end (a log segment). */
  record Prefix(String path, Path source, long length) implements BackupItem {}

  /** Content taken under the cut (the file on disk may have been replaced since). */
  record Content(String path, byte[] bytes) implements BackupItem {}
}
