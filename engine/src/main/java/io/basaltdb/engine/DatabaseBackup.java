package io.basaltdb.engine;

import io.basaltdb.storage.InvalidArgumentException;
import io.basaltdb.storage.StorageIOException;
import io.basaltdb.engine.backup.BackupItem;
import io.basaltdb.engine.backup.BackupOptions;
import io.basaltdb.engine.backup.BackupWriter;
import io.basaltdb.engine.catalog.CatalogFile;
import io.basaltdb.engine.io.FileSystem;
import io.basaltdb.engine.manifest.Manifest;
import io.basaltdb.engine.region.DatabaseMvcc;
import io.basaltdb.engine.region.Region;
import io.basaltdb.engine.store.PinnedFiles;
import io.basaltdb.engine.store.Store;
import io.basaltdb.engine.store.StoreFile;
import io.basaltdb.engine.wal.WriteAheadLog;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * A backup of an open database ({@code engine/doc/backup.md}): takes the cut, then has a
 * {@link BackupWriter} write what it captured. The cut holds every open region's update lock
 * (in region name order, as writes spanning regions take them) and waits for the writes in
 * flight, so that at sequence id P no write is staged past P and every write up to P is in the
 * log; then it pins the log's segments (with their lengths) and each store's manifest with its
 * files, and lets writers go (their wait: the in-flight writes' completion plus bookkeeping,
 * no I/O but the log buffer's write). The admin lock is held from the cut to the last file,
 * so no split, DDL or drop changes the catalog or removes a region's files meanwhile; a
 * compaction may replace a pinned file, which stays on disk until the pin goes.
 *
 * <p>Invariant: the backup holds exactly the writes with sequence ids up to P (every write
 * acknowledged before the cut, none begun after it); the database is only read.
 */
final class DatabaseBackup {
  /** How long the cut waits for the writes in flight (they only need their log sync). */
  private static final long DRAIN_MILLIS = 30_000;

  private final Database db;
  private final FileSystem fs;
  private final List<BackupItem> items = new ArrayList<>();
  private final List<PinnedFiles> pinned = new ArrayList<>();
  private WriteAheadLog pinnedLog;

  private DatabaseBackup(Database db) {
    this.db = db;
    this.fs = db.options().fileSystem();
  }

  static BackupWriter.Report run(Database db, Path dest, BackupOptions options) {
    Path source = db.directory().toAbsolutePath().normalize();
    if (dest.toAbsolutePath().normalize().startsWith(source)) {
      throw new InvalidArgumentException("backup directory " + dest
          + " is inside the database directory " + source);
    }
    BackupWriter writer = new BackupWriter(db.options().fileSystem(), dest, options);
    for (Region r : db.registry().openRegions()) {
      if (r.hasUnloggedEdits()) {
        r.flush(); // SKIP writes are in no log: a backup has them once flushed
      }
    }
    return new DatabaseBackup(db).take(writer, source.toString(), options.atCut());
  }

  private BackupWriter.Report take(BackupWriter writer, String source, Runnable atCut) {
    long start = System.nanoTime();
    synchronized (db.adminLock()) {
      try {
        long cut;
        long held;
        List<Region> regions = new ArrayList<>(db.registry().openRegions());
        regions.sort(Comparator.comparing(Region::name));
        int holding = 0;
        long holdStart = System.nanoTime();
        try {
          for (Region r : regions) {
            r.holdWrites();
            holding++;
          }
          cut = capture(db.context().order(), atCut);
        } finally {
          for (int i = holding - 1; i >= 0; i--) {
            regions.get(i).releaseWrites();
          }
          held = (System.nanoTime() - holdStart) / 1_000;
        }
        BackupWriter.Report r = writer.write(cut, source, items);
        return r.withTimes(held, (System.nanoTime() - start) / 1_000_000);
      } finally {
        pinned.forEach(PinnedFiles::close);
        if (pinnedLog != null) {
          pinnedLog.unpinForCopy();
        }
      }
    }
  }

  // every region's writes held: nothing stages, so nothing is appended to the log meanwhile
  private long capture(DatabaseMvcc order, Runnable atCut) {
    try {
      if (!order.awaitNoneInFlight(DRAIN_MILLIS)) {
        throw new StorageIOException("backup could not take its cut", new IOException(
            "writes in flight did not complete within " + DRAIN_MILLIS + " ms"));
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new StorageIOException("backup interrupted",
          new java.io.InterruptedIOException("while taking its cut"));
    }
    long cut = order.newest();
    if (atCut != null) {
      atCut.run();
    }
    // the log first: a segment it lists is kept, and a store pinned after it may only have
    // flushed further (a flush installs meanwhile), never lost an edit the copy lacks
    WriteAheadLog log = db.context().wal();
    for (WriteAheadLog.SegmentPrefix s : log.pinForCopy()) {
      items.add(new BackupItem.Prefix("wal/" + s.path().getFileName(), s.path(), s.length()));
    }
    pinnedLog = log;
    CatalogFile catalog = db.registry().catalog();
    items.add(new BackupItem.Content(CatalogFile.NAME, catalog.encode()));
    for (CatalogFile.TableEntry t : catalog.tables()) {
      for (CatalogFile.RegionEntry re : t.regions()) {
        Region open = db.registry().region(re.dirName());
        if (open != null) {
          for (Store s : open.stores()) {
            PinnedFiles p = s.pinFiles();
            pinned.add(p);
            String path = storePath(re, s.directory());
            addStore(path, p.manifest());
            for (StoreFile f : p.files()) {
              items.add(new BackupItem.Immutable(path + "/" + f.name(), f.reader().path(),
                  f.length()));
            }
          }
        } else {
          addClosedRegion(re);
        }
      }
    }
    return cut;
  }

  /** A region of a disabled table: its stores as their manifests on disk say (nothing writes them). */
  private void addClosedRegion(CatalogFile.RegionEntry re) {
    Path dir = db.registry().regionDirectory(re.dirName());
    try {
      for (Path storeDir : fs.list(dir)) {
        Manifest m = fs.isDirectory(storeDir) ? Manifest.readIfPresent(fs, storeDir) : null;
        if (m != null) {
          String path = storePath(re, storeDir);
          addStore(path, m);
          for (Manifest.FileEntry f : m.files()) {
            items.add(new BackupItem.Immutable(path + "/" + f.name(), storeDir.resolve(f.name()),
                f.size()));
          }
        }
      }
    } catch (IOException e) {
      throw StorageIOException.wrap("cannot list region " + dir, e);
    }
  }

  private void addStore(String path, Manifest m) {
    items.add(new BackupItem.Content(path + "/" + Manifest.NAME, m.encode()));
  }

  private static String storePath(CatalogFile.RegionEntry re, Path storeDir) {
    return "regions/" + re.dirName() + "/" + storeDir.getFileName();
  }
}
