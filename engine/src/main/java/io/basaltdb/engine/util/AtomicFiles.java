package io.basaltdb.engine.util;

import io.basaltdb.engine.StorageIOException;
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
 */
public final class AtomicFiles {
  private AtomicFiles() {}

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
      fs.crashPoint(crashPoint + ".afterRename");
      fs.syncDirectory(dir);
    } catch (IOException e) {
      throw StorageIOException.wrap("cannot write " + name + " in " + dir, e);
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
