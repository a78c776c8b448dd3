package io.basaltdb.engine;

import io.basaltdb.engine.region.EngineTotals;
import io.basaltdb.engine.region.Region;
import io.basaltdb.engine.store.Store;
import io.basaltdb.engine.store.StoreFile;
import io.basaltdb.engine.store.StoreStats;
import io.basaltdb.engine.wal.WriteAheadLog;

/**
 * What an open database has done since it opened and holds now, read live at each call: the
 * source of its metrics ({@code jdbc-driver/doc/metrics.md}, where each is described). Counts
 * only grow while the database is open; the others are the state of the moment. Reading a
 * figure costs at most a walk over the open regions' stores (no I/O). Thread-safe.
 */
public final class DatabaseStats {
  private final Database db;
  private final EngineTotals totals;

  DatabaseStats(Database db, EngineTotals totals) {
    this.db = db;
    this.totals = totals;
  }

  private WriteAheadLog wal() {
    return db.context().wal();
  }

  private StoreStats stores() {
    return totals.stores;
  }

  /** Rows written (a write of several rows counts each). */
  public long writes() {
    return totals.writes.sum();
  }

  /** Gets and scans begun. */
  public long reads() {
    return totals.reads.sum();
  }

  public long walSyncs() {
    return wal() == null ? 0 : wal().syncCount();
  }

  public long walSyncNanos() {
    return wal() == null ? 0 : wal().syncNanos();
  }

  public long walBytes() {
    return wal() == null ? 0 : wal().appendedBytes();
  }

  public long walSegments() {
    return wal() == null ? 0 : wal().segmentCount();
  }

  public long memstoreBytes() {
    return db.memstoreBudget().used();
  }

  public long memstoreLimitBytes() {
    return db.memstoreBudget().limit();
  }

  /** Writes that waited for memory (the memstores over their limit until a flush). */
  public long writeStalls() {
    return db.memstoreBudget().blockedWrites();
  }

  public long writeStallNanos() {
    return db.memstoreBudget().blockedNanos();
  }

  public long flushes() {
    return stores().flushes.get();
  }

  public long flushNanos() {
    return stores().flushNanos.get();
  }

  public long flushedBytes() {
    return stores().flushedBytes.get();
  }

  public long compactions() {
    return stores().compactions.get();
  }

  public long majorCompactions() {
    return stores().majorCompactions.get();
  }

  public long compactionNanos() {
    return stores().compactionNanos.get();
  }

  /** Bytes of files read by compactions. */
  public long compactedBytes() {
    return stores().compactedBytes.get();
  }

  /** Open regions with a store whose files the compaction policy would merge now. */
  public long compactionBacklog() {
    long n = 0;
    for (Region r : db.allRegions()) {
      if (r.needsCompaction()) {
        n++;
      }
    }
    return n;
  }

  /** Flushes, compactions and splits queued or running. */
  public long backgroundTasks() {
    return db.backgroundTasks();
  }

  public long blockCacheHits() {
    return db.blockCache().stats().hitCount();
  }

  public long blockCacheMisses() {
    return db.blockCache().stats().missCount();
  }

  public long blockCacheEvictions() {
    return db.blockCache().stats().evictionCount();
  }

  public long blockCacheBytes() {
    return db.blockCache().usedBytes();
  }

  public long blockCacheCapacityBytes() {
    return db.blockCache().capacityBytes();
  }

  public long regions() {
    return db.allRegions().size();
  }

  public long splits() {
    return db.splitCount();
  }

  /** Block files of every open store, and their bytes ({@link #storeFileBytes}). */
  public long storeFiles() {
    long n = 0;
    for (Region r : db.allRegions()) {
      for (Store s : r.stores()) {
        n += s.filesSnapshot().size();
      }
    }
    return n;
  }

  public long storeFileBytes() {
    long n = 0;
    for (Region r : db.allRegions()) {
      for (Store s : r.stores()) {
        for (StoreFile f : s.filesSnapshot()) {
          n += f.length();
        }
      }
    }
    return n;
  }

  /** Read snapshots held open (transactions, statements, scans). */
  public long openSnapshots() {
    return db.openSnapshots();
  }
}
