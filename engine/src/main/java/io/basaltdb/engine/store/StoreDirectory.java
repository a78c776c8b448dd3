package io.basaltdb.engine.store;

import io.basaltdb.engine.cache.BlockCache;
import io.basaltdb.engine.file.BlockFileReader;
import io.basaltdb.engine.io.FileSystem;
import io.basaltdb.engine.manifest.Manifest;
import io.basaltdb.engine.util.FileTrees;
import io.basaltdb.storage.CorruptionException;
import io.basaltdb.storage.FamilyOptions;
import io.basaltdb.storage.StorageIOException;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * A store's directory on disk: its manifest and the block files the manifest names. Made
 * durable, empty, before anything names the store; opened only whole (the manifest present,
 * each file it names there with its recorded size); what the manifest does not name is left
 * until the whole database has opened, then deleted.
 */
final class StoreDirectory {
  /** What an open found: the manifest, its files opened (each held once), the leftovers. */
  record Opened(Manifest manifest, List<StoreFile> files, List<Path> leftovers) {}

  private StoreDirectory() {}

  /** See {@link Store#create(FileSystem, Path, long)}. */
  static void create(FileSystem fs, Path dir, long flushedSeq) {
    FileTrees.delete(fs, dir);
    try {
      fs.createDirectories(dir);
    } catch (IOException e) {
      throw StorageIOException.wrap("cannot create store directory " + dir, e);
    }
    new Manifest(flushedSeq, Manifest.EMPTY.nextFileNumber(), List.of()).writeTo(fs, dir);
  }

  /** See {@link Store#open}: {@link CorruptionException} when the store is not whole. */
  static Opened open(FileSystem fs, Path dir, FamilyOptions options, BlockCache cache) {
    if (!fs.isDirectory(dir)) {
      throw new CorruptionException(dir.toString(), 0, "the store's directory is missing");
    }
    Manifest m = Manifest.read(fs, dir);
    List<StoreFile> files = new ArrayList<>();
    Set<String> live = new HashSet<>();
    try {
      for (Manifest.FileEntry e : m.files()) {
        Path p = dir.resolve(e.name());
        if (!fs.exists(p)) {
          throw new CorruptionException("block file " + p + " named by the manifest is missing");
        }
        long size = fs.size(p);
        if (size != e.size()) {
          throw new CorruptionException(p.toString(), size,
              "file is " + size + " bytes, the manifest says " + e.size());
        }
        BlockFileReader reader = BlockFileReader.open(fs, p, cache);
        reader.setCachePriority(options.inMemory());
        files.add(new StoreFile(fs, parseNumber(e.name()), e.name(), reader));
        live.add(e.name());
      }
      List<Path> leftovers = new ArrayList<>();
      for (Path p : fs.list(dir)) {
        String n = p.getFileName().toString();
        if ((n.endsWith(".blk") && !live.contains(n)) || n.equals(Manifest.NAME + ".tmp")) {
          leftovers.add(p);
        }
      }
      return new Opened(m, files, leftovers);
    } catch (IOException e) {
      files.forEach(StoreFile::release);
      throw StorageIOException.wrap("cannot open store " + dir, e);
    } catch (RuntimeException e) {
      files.forEach(StoreFile::release);
      throw e;
    }
  }

  /** Deletes {@code leftovers} (an interrupted flush's or compaction's files) durably. */
  static void deleteLeftovers(FileSystem fs, Path dir, List<Path> leftovers) {
    try {
      for (Path p : leftovers) {
        fs.deleteIfExists(p);
      }
      if (!leftovers.isEmpty()) {
        fs.syncDirectory(dir);
      }
    } catch (IOException e) {
      throw StorageIOException.wrap("cannot delete leftovers in " + dir, e);
    }
  }

  private static long parseNumber(String name) {
    try {
      return Long.parseLong(name.substring(0, name.indexOf('.')));
    } catch (RuntimeException e) {
      throw new CorruptionException("bad block file name in manifest: " + name);
    }
  }
}
