package io.basaltdb.engine;

import io.basaltdb.storage.StorageIOException;
import io.basaltdb.engine.catalog.CatalogFile;
import io.basaltdb.engine.io.FileSystem;
import io.basaltdb.engine.region.DatabaseMvcc;
import io.basaltdb.engine.region.Region;
import io.basaltdb.engine.util.FileTrees;
import io.basaltdb.engine.wal.WalReader;
import io.basaltdb.engine.wal.WriteAheadLog;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ScheduledExecutorService;

/**
 * Opening a database directory: the catalog, the regions of enabled tables, the log replayed
 * into their memstores (edits of regions the catalog no longer names are skipped: their tables
 * were dropped, or disabled after a flush), a fresh log segment, then the leftovers of
 * interrupted work deleted and the replayed edits flushed.
 *
 * <p>Invariant: nothing is deleted until everything has opened: a missing or damaged catalog,
 * manifest, store or log segment fails the open with a {@link CorruptionException} and leaves
 * every file as it was.
 */
final class DatabaseRecovery {
  /** What the replay found (diagnostics the database reports). */
  record Replayed(WalReader.ReplayStats stats, long skippedEdits) {}

  private final FileSystem fs;
  private final Path dir;
  private final EngineOptions options;
  private final DatabaseMvcc order;
  private final TableRegistry registry;
  private final DatabaseLog log;

  DatabaseRecovery(Path dir, EngineOptions options, DatabaseMvcc order, TableRegistry registry,
      DatabaseLog log) {
    this.fs = options.fileSystem();
    this.dir = dir;
    this.options = options;
    this.order = order;
    this.registry = registry;
    this.log = log;
  }

  /** Opens what the directory holds; {@code background} runs the log's timed syncs. */
  Replayed run(ScheduledExecutorService background) {
    CatalogFile catalog = CatalogRecovery.read(fs, dir);
    registry.recovered(catalog);
    Set<String> live = new HashSet<>();
    for (CatalogFile.TableEntry t : catalog.tables()) {
      List<Region> regions = new ArrayList<>();
      for (CatalogFile.RegionEntry re : t.regions()) {
        live.add(re.dirName());
        if (t.enabled()) {
          regions.add(registry.openRegion(t.descriptor(), re));
        }
      }
      registry.put(t.descriptor().name(), new TableState(t.descriptor(), t.enabled(), regions));
    }
    long[] skipped = {0};
    Set<Region> replayed = Collections.newSetFromMap(new IdentityHashMap<>());
    WalReader.ReplayStats stats = WalReader.replay(fs, dir.resolve("wal"), edit -> {
      Region r = registry.region(new String(edit.region(), StandardCharsets.UTF_8));
      if (r == null) {
        skipped[0]++;
      } else if (r.replay(edit) > 0) {
        replayed.add(r);
      }
    });
    order.raiseTo(stats.maxSequenceId());
    log.start(new WriteAheadLog(fs, dir.resolve("wal"), options.walRollBytes(),
        options.asyncSyncIntervalMillis(), background));
    for (Region r : registry.openRegions()) {
      r.opened();
    }
    deleteLeftovers(live);
    flushReplayed(replayed);
    return new Replayed(stats, skipped[0]);
  }

  /**
   * Flushes what the log gave back to memstores, then deletes the segments that held it (as
   * HBase does on opening a region with recovered edits): without it, a database opened and
   * closed or killed again and again below the flush size would keep every segment and replay
   * all of them at every open. A flush the disk refuses leaves the database read-only (the log
   * still holds the edits), as any failed flush does.
   */
  private void flushReplayed(Set<Region> replayed) {
    try {
      for (Region r : replayed) {
        r.flush();
      }
      log.deleteObsolete();
    } catch (StorageIOException e) {
      System.err.println("basalt: flushing the edits replayed at open failed; the database"
          + " takes no writes until reopened: " + e.getMessage());
    }
  }

  /** After a complete open: what no catalog or manifest names goes (interrupted work). */
  private void deleteLeftovers(Set<String> live) {
    try {
      fs.deleteIfExists(dir.resolve(CatalogFile.NAME + ".tmp"));
      Path regionsDir = dir.resolve("regions");
      if (fs.isDirectory(regionsDir)) {
        for (Path p : fs.list(regionsDir)) {
          if (!live.contains(p.getFileName().toString())) {
            FileTrees.delete(fs, p);
          }
        }
      }
    } catch (IOException e) {
      throw StorageIOException.wrap("cannot delete leftovers in " + dir, e);
    }
    for (Region r : registry.openRegions()) {
      r.deleteLeftovers();
    }
  }
}
