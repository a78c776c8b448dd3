package io.basaltdb.engine.io;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.List;

/**
 * Every file and directory operation of the engine goes through this seam, so that a test can
 * put a fault-injecting implementation underneath: one that fails a chosen write, fsync or
 * rename, forgets what was never synced (a simulated power loss), or stops the engine at a
 * named crash point.
 *
 * <p>The durability contract the engine relies on (and that {@link NioFileSystem} gives on a
 * POSIX file system): data written to a channel is durable after {@code force}; a new,
 * renamed or deleted directory entry is durable after {@link #syncDirectory} of its parent;
 * {@link #rename} replaces its target atomically. Nothing else is durable.
 *
 * <p>Implementations are thread-safe.
 */
public interface FileSystem {
  /** Creates a new file for writing; fails if it exists. The entry is not yet durable. */
  FileChannel createNew(Path file) throws IOException;

  /** Opens an existing file for writing (positioned at 0). */
  FileChannel openForWrite(Path file) throws IOException;

  /** Opens an existing file for reading; {@link java.nio.file.NoSuchFileException} if absent. */
  FileChannel openForRead(Path file) throws IOException;

  /**
   * Creates a directory and any missing parents, and makes each new entry durable (the
   * parent of every directory created is fsynced).
   */
  void createDirectories(Path dir) throws IOException;

  /** Makes the entries of {@code dir} (created, renamed, deleted) durable. */
  void syncDirectory(Path dir) throws IOException;

  /** Renames atomically, replacing {@code to} if it exists. Not durable until the directory sync. */
  void rename(Path from, Path to) throws IOException;

  /**
   * Makes {@code link} a second name of the existing file {@code existing} (a hard link). A
   * {@link java.nio.file.FileSystemException} when the file system cannot (another device, no
   * hard links): the caller copies instead. Not durable until the directory sync.
   */
  void createLink(Path link, Path existing) throws IOException;

  /** Deletes a file or an empty directory if it exists; returns whether it did. */
  boolean deleteIfExists(Path p) throws IOException;

  /** The entries of a directory (any order); {@link java.nio.file.NoSuchFileException} if absent. */
  List<Path> list(Path dir) throws IOException;

  boolean exists(Path p);

  boolean isDirectory(Path p);

  long size(Path file) throws IOException;

  /**
   * A named point on a durable path (inside flush, compaction install, manifest and catalog
   * switches, WAL roll, split, disable), reported so that a test can crash the engine there.
   * Does nothing in production.
   */
  default void crashPoint(String name) {}
}
