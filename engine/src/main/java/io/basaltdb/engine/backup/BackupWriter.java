package io.basaltdb.engine.backup;

import io.basaltdb.storage.InvalidArgumentException;
import io.basaltdb.storage.StorageIOException;
import io.basaltdb.engine.io.FileSystem;
import io.basaltdb.engine.util.AtomicFiles;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.zip.CRC32C;

/**
 * Writes the files a backup's cut captured into its directory, then its {@link
 * BackupManifest} last. Block files are hard-linked from the database when the file system
 * allows (else copied), or linked from the previous backup when it holds the same file; log
 * prefixes and in-memory content are copied. Every file's CRC32C is computed from the bytes as
 * written or linked.
 *
 * <p>Invariant: the directory holds a {@code BACKUP} manifest only once every file it names is
 * durable (written and fsynced, directories synced); a failure leaves no manifest, so the
 * partial copy is refused by restore. The database's files are only read.
 */
public final class BackupWriter {
  private static final int CHUNK = 1 << 20;

  private final FileSystem fs;
  private final Path dest;
  private final BackupOptions options;
  private final Map<String, BackupManifest.Entry> previous;
  private final Set<Path> directories = new LinkedHashSet<>();
  private final ByteBuffer buffer = ByteBuffer.allocate(CHUNK);
  private boolean linksFromSource;
  private int linked;
  private int reused;
  private int copied;
  private long copiedBytes;

  /** What a backup wrote and how: the counts the command reports. */
  public record Report(BackupManifest manifest, int linked, int reused, int copied,
      long copiedBytes, long writesHeldMicros, long millis) {
    public Report withTimes(long heldMicros, long ms) {
      return new Report(manifest, linked, reused, copied, copiedBytes, heldMicros, ms);
    }
  }

  /**
   * Checks {@code dest} (absent, or an empty directory) and the previous backup (complete)
   * before anything is captured, so a bad argument costs the database nothing.
   */
  public BackupWriter(FileSystem fs, Path dest, BackupOptions options) {
    this.fs = fs;
    this.dest = dest;
    this.options = options;
    this.linksFromSource = !options.copyOnly();
    try {
      if (fs.exists(dest) && (!fs.isDirectory(dest) || !fs.list(dest).isEmpty())) {
        throw new InvalidArgumentException("backup directory " + dest
            + " is not empty: a backup is written into a new or empty directory");
      }
    } catch (IOException e) {
      throw StorageIOException.wrap("cannot read backup directory " + dest, e);
    }
    this.previous = options.previous() == null ? Map.of()
        : BackupManifest.read(fs, options.previous()).byPath();
  }

  /** Writes {@code items} and then the manifest (cut {@code cut}, from {@code source}). */
  public Report write(long cut, String source, List<BackupItem> items) {
    List<BackupManifest.Entry> entries = new ArrayList<>(items.size());
    String at = dest.toString();
    try {
      fs.createDirectories(dest);
      for (BackupItem item : items) {
        at = item.path();
        Path target = target(item.path());
        entries.add(writeOne(item, target));
      }
      at = "directory entries";
      for (Path d : directories) {
        fs.syncDirectory(d);
      }
    } catch (IOException e) {
      throw StorageIOException.wrap(failedAt(at), e);
    } catch (StorageIOException e) {
      throw StorageIOException.wrap(failedAt(at), e);
    }
    BackupManifest m = new BackupManifest(cut, System.currentTimeMillis(), source, entries);
    m.writeTo(fs, dest);
    return new Report(m, linked, reused, copied, copiedBytes, 0, 0);
  }

  private String failedAt(String at) {
    return "backup to " + dest + " failed at " + at + ": it is incomplete (no "
        + BackupManifest.NAME + " manifest), restore refuses it; the database is unchanged";
  }

  private BackupManifest.Entry writeOne(BackupItem item, Path target) throws IOException {
    if (item instanceof BackupItem.Immutable f) {
      return immutable(f, target);
    } else if (item instanceof BackupItem.Prefix p) {
      return copy(p.path(), p.source(), p.length(), target);
    }
    BackupItem.Content c = (BackupItem.Content) item;
    return content(c.path(), c.bytes(), target);
  }

  private Path target(String path) throws IOException {
    Path t = dest.resolve(path);
    Path dir = t.getParent();
    if (directories.add(dir)) {
      fs.createDirectories(dir);
    }
    return t;
  }

  private BackupManifest.Entry immutable(BackupItem.Immutable f, Path target)
      throws IOException {
    if (linksFromSource && link(target, f.source())) {
      linked++;
      return new BackupManifest.Entry(f.path(), f.size(), crcOf(target, f.size()));
    }
    BackupManifest.Entry before = previous.get(f.path());
    if (before != null && before.size() == f.size() && before.crc32c() == crcOf(f.source(),
        f.size()) && link(target, options.previous().resolve(f.path()))) {
      reused++;
      return before;
    }
    return copy(f.path(), f.source(), f.size(), target);
  }

  /** A hard link; false when this file system makes none (another device): then copy. */
  private boolean link(Path target, Path existing) throws IOException {
    try {
      fs.createLink(target, existing);
      return true;
    } catch (NoSuchFileException | FileAlreadyExistsException e) {
      throw e; // not the file system's refusal
    } catch (FileSystemException | UnsupportedOperationException e) {
      linksFromSource = false; // one refusal: the others would be refused too
      return false;
    }
  }

  private BackupManifest.Entry copy(String path, Path source, long length, Path target)
      throws IOException {
    int crc = copy(fs, source, target, length, buffer);
    copied++;
    copiedBytes += length;
    return new BackupManifest.Entry(path, length, crc);
  }

  /**
   * Copies the first {@code length} bytes of {@code source} into the new file {@code target},
   * fsynced; their CRC32C. An {@link IOException} when the source is shorter.
   */
  static int copy(FileSystem fs, Path source, Path target, long length, ByteBuffer buffer)
      throws IOException {
    CRC32C crc = new CRC32C();
    try (FileChannel in = fs.openForRead(source); FileChannel out = fs.createNew(target)) {
      long pos = 0;
      while (pos < length) {
        buffer.clear().limit((int) Math.min(buffer.capacity(), length - pos));
        int n = in.read(buffer, pos);
        if (n < 0) {
          throw new IOException(source + " has " + pos + " bytes, " + length + " were expected");
        }
        buffer.flip();
        crc.update(buffer.duplicate());
        while (buffer.hasRemaining()) {
          out.write(buffer);
        }
        pos += n;
      }
      out.force(true);
    }
    return (int) crc.getValue();
  }

  private BackupManifest.Entry content(String path, byte[] bytes, Path target) throws IOException {
    try (FileChannel out = fs.createNew(target)) {
      AtomicFiles.writeFully(out, bytes, bytes.length);
      out.force(true);
    }
    copied++;
    copiedBytes += bytes.length;
    return new BackupManifest.Entry(path, bytes.length, BackupManifest.crc(bytes, bytes.length));
  }

  /** The CRC32C of the first {@code length} bytes of {@code file}. */
  static int crcOf(FileSystem fs, Path file, long length, ByteBuffer buffer) throws IOException {
    CRC32C crc = new CRC32C();
    try (FileChannel in = fs.openForRead(file)) {
      long pos = 0;
      while (pos < length) {
        buffer.clear().limit((int) Math.min(buffer.capacity(), length - pos));
        int n = in.read(buffer, pos);
        if (n < 0) {
          throw new IOException(file + " has " + pos + " bytes, expected " + length);
        }
        buffer.flip();
        crc.update(buffer);
        pos += n;
      }
    }
    return (int) crc.getValue();
  }

  private int crcOf(Path file, long length) throws IOException {
    return crcOf(fs, file, length, buffer);
  }
}
