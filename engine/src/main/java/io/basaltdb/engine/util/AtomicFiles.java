package io.basaltdb.engine.util;

import io.basaltdb.storage.StorageIOException;
import io.basaltdb.engine.io.FileSystem;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * Small metadata files replaced atomically (the manifest, the catalog): written whole to
 * {@code name.tmp} and fsynced, renamed over {@code name}, then the directory fsynced, so a
 * crash leaves the old file or the new one, never a mix. The crash points
 * {@code <crashPoint>.beforeRename} and {@code <crashPoint>.afterRename} bracket the switch.
 * A failure before the rename leaves the old file in place; one after it (the directory fsync)
 * is {@link InDoubt}: the new file is there now, but a power loss may bring the old one back.
 */
public final class AtomicFiles {
  private AtomicFiles() {}

  /**
   * The new file replaced the old one but the directory fsync failed: until a later replacement
   * succeeds, either may be what a power loss leaves, so every file either names must be kept.
   */
  public static final class InDoubt extends StorageIOException {
    private static final long serialVersionUID = 1L;

    InDoubt(String message, IOException cause) {
      super(message, cause);
    }
  }

  public static void write(FileSystem fs, Path dir, String name, byte[] content,
      String crashPoint) {
    Path tmp = dir.resolve(name + ".tmp");
    try {
      fs.deleteIfExists(tmp);
      try (FileChannel ch = fs.createNew(tmp)) {
        writeFully(ch, content, content.length);
        ch.force(true);
      }
      fs.crashPoint(crashPoint + ".beforeRename");
      fs.rename(tmp, dir.resolve(name));
    } catch (IOException e) {
      throw StorageIOException.wrap("cannot write " + name + " in " + dir, e);
    }
    fs.crashPoint(crashPoint + ".afterRename");
    try {
      fs.syncDirectory(dir);
    } catch (IOException e) {
      throw new InDoubt("replaced " + name + " in " + dir + " but cannot sync the directory", e);
    }
  }

  /** The file's bytes, or null when it does not exist. */
  public static byte[] read(FileSystem fs, Path dir, String name) {
    Path p = dir.resolve(name);
    try {
      return readAll(fs, p);
    } catch (NoSuchFileException e) {
      return null;
    } catch (IOException e) {
      throw StorageIOException.wrap("cannot read " + p, e);
    }
  }

  /** The whole content of a file. */
  public static byte[] readAll(FileSystem fs, Path p) throws IOException {
    try (FileChannel ch = fs.openForRead(p)) {
      long size = ch.size();
      if (size > Integer.MAX_VALUE - 16) {
        throw new IOException(p + " is too large to read whole: " + size + " bytes");
      }
      ByteBuffer b = ByteBuffer.allocate((int) size);
      while (b.hasRemaining()) {
        if (ch.read(b, b.position()) < 0) {
          break; // shrank meanwhile
        }
      }
      if (b.hasRemaining()) {
        byte[] out = new byte[b.position()];
        System.arraycopy(b.array(), 0, out, 0, out.length);
        return out;
      }
      return b.array();
    }
  }

  public static void writeFully(FileChannel ch, byte[] b, int len) throws IOException {
    ByteBuffer bb = ByteBuffer.wrap(b, 0, len);
    while (bb.hasRemaining()) {
      ch.write(bb);
    }
  }
}
