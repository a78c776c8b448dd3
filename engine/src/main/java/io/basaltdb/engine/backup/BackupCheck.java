package io.basaltdb.engine.backup;

import io.basaltdb.storage.CorruptionException;
import io.basaltdb.storage.StorageIOException;
import io.basaltdb.engine.cache.BlockCache;
import io.basaltdb.engine.catalog.CatalogFile;
import io.basaltdb.engine.cell.CellIterator;
import io.basaltdb.engine.file.BlockFileReader;
import io.basaltdb.engine.io.FileSystem;
import io.basaltdb.engine.manifest.Manifest;
import io.basaltdb.engine.util.AtomicFiles;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * Checks a backup without changing it ({@code bin/basalt backup --verify}): its manifest, then
 * that its directory holds exactly the files the manifest names, each of the recorded size
 * and CRC32C; with {@code deep}, also that each store manifest and the catalog decode and that
 * every block of every block file reads back (each block's own checksum). The first failure is
 * a {@link CorruptionException} naming the file.
 */
public final class BackupCheck {
  private BackupCheck() {}

  /** What a check read. */
  public record Report(BackupManifest manifest, int files, long bytes, long cells) {}

  /** {@link #verify(FileSystem, Path, boolean)} on the real file system. */
  public static Report verify(Path dir, boolean deep) {
    return verify(io.basaltdb.engine.io.NioFileSystem.INSTANCE, dir, deep);
  }

  public static Report verify(FileSystem fs, Path dir, boolean deep) {
    BackupManifest m = BackupManifest.read(fs, dir);
    checkFileSet(fs, dir, m);
    ByteBuffer buffer = ByteBuffer.allocate(1 << 20);
    long cells = 0;
    for (BackupManifest.Entry e : m.files()) {
      Path p = dir.resolve(e.path());
      try {
        long size = fs.size(p);
        if (size != e.size()) {
          throw damaged(p, "it has " + size + " bytes, the backup's manifest says " + e.size());
        }
        int crc = BackupWriter.crcOf(fs, p, size, buffer);
        if (crc != e.crc32c()) {
          throw damaged(p, "its CRC32C is " + BackupManifest.hex(crc)
              + ", the backup's manifest says " + BackupManifest.hex(e.crc32c()));
        }
        if (deep) {
          cells += readWhole(fs, p);
        }
      } catch (IOException ex) {
        throw StorageIOException.wrap("cannot read " + p, ex);
      }
    }
    return new Report(m, m.files().size(), m.totalBytes(), cells);
  }

  /** Every file the manifest names is there, and nothing else is (the manifest aside). */
  static void checkFileSet(FileSystem fs, Path dir, BackupManifest m) {
    TreeSet<String> found = new TreeSet<>();
    try {
      listFiles(fs, dir, "", found);
    } catch (IOException e) {
      throw StorageIOException.wrap("cannot list backup " + dir, e);
    }
    found.remove(BackupManifest.NAME);
    Map<String, BackupManifest.Entry> named = m.byPath();
    for (String p : named.keySet()) {
      if (!found.remove(p)) {
        throw damaged(dir.resolve(p), "the file is missing");
      }
    }
    if (!found.isEmpty()) {
      throw damaged(dir.resolve(found.first()), "the backup's manifest does not name it");
    }
  }

  private static void listFiles(FileSystem fs, Path dir, String prefix, TreeSet<String> out)
      throws IOException {
    List<Path> entries = new ArrayList<>(fs.list(dir));
    for (Path p : entries) {
      String name = prefix + p.getFileName();
      if (fs.isDirectory(p)) {
        listFiles(fs, p, name + "/", out);
      } else {
        out.add(name);
      }
    }
  }

  /** Decodes a manifest or the catalog, or reads every cell of a block file; cells read. */
  private static long readWhole(FileSystem fs, Path p) throws IOException {
    String name = p.getFileName().toString();
    if (name.equals(Manifest.NAME)) {
      Manifest.decode(AtomicFiles.readAll(fs, p), p.toString());
    } else if (name.equals(CatalogFile.NAME)) {
      CatalogFile.decode(AtomicFiles.readAll(fs, p), p.toString());
    } else if (name.endsWith(".blk")) {
      long cells = 0;
      try (BlockFileReader r = BlockFileReader.open(fs, p, new BlockCache(0))) {
        CellIterator it = r.scanner();
        for (it.seekToFirst(); it.current() != null; it.next()) {
          cells++;
        }
      }
      return cells;
    }
    return 0; // a log segment: its CRC32C above covers it, and its records carry their own
  }

  static CorruptionException damaged(Path file, String what) {
    return new CorruptionException("damaged backup: " + file + ": " + what);
  }
}
