package io.basaltdb.engine;

import io.basaltdb.engine.region.DatabaseMvcc;
import io.basaltdb.engine.region.Region;
import io.basaltdb.engine.wal.WriteAheadLog;

/**
 * The database's one write-ahead log once recovery has replayed the old segments: its start,
 * its retention (a segment goes once every edit in it is in a flushed file) and its end.
 *
 * <p>Invariant: a segment is deleted only below the oldest sequence id some open region still
 * holds unflushed, read after a floor every later write is above ({@link #deleteObsolete}).
 */
final class DatabaseLog {
  /** After a flush, a segment at least this big rolls so its flushed edits can go at once. */
  private static final long ROLL_AFTER_FLUSH_BYTES = 1 << 20;

  private final DatabaseMvcc order;
  private final TableRegistry registry;
  private volatile WriteAheadLog wal;

  DatabaseLog(DatabaseMvcc order, TableRegistry registry) {
    this.order = order;
    this.registry = registry;
  }

  /** The log writes go to, or null while recovery replays the old segments. */
  WriteAheadLog current() {
    return wal;
  }

  /** Starts a fresh segment after replay; new writes get sequence ids above the replayed. */
  void start(WriteAheadLog started) {
    started.setRecoveredMaxSeq(order.newest());
    wal = started;
  }

  /**
   * Deletes the log segments whose edits are all in files. The floor is read before the
   * regions: a write that begins later gets a sequence id at or above it, and one that began
   * earlier is still in flight or in a memstore when its region is read.
   */
  void deleteObsolete() {
    long oldest = order.newest() + 1;
    for (Region r : registry.openRegions()) {
      oldest = Math.min(oldest, r.oldestUnflushedSequenceId());
    }
    WriteAheadLog w = wal;
    if (w != null) {
      if (w.currentSegmentBytes() >= ROLL_AFTER_FLUSH_BYTES) {
        w.rollNow(); // its flushed edits can then go without waiting for the size-based roll
      }
      w.deleteObsoleteSegments(oldest);
    }
  }

  /**
   * Keeps the log near {@code maxBytes}: once its closed segments hold more, the regions holding
   * an edit of the oldest one unflushed are asked to flush (then {@link #deleteObsolete} takes
   * the segment). Without it the log only shrinks when memstores fill, and a memstore that does
   * not (a region written once and then left alone, or hot rows whose old versions are pruned
   * in memory) would keep every segment after its oldest edit, to be replayed at the next open.
   */
  void enforceRetention(long maxBytes) {
    WriteAheadLog w = wal;
    long seq = w == null ? -1 : w.oldestKeptPast(maxBytes);
    if (seq < 0) {
      return;
    }
    for (Region r : registry.openRegions()) {
      if (r.oldestUnflushedSequenceId() <= seq) {
        r.requestFlush();
      }
    }
  }

  /** Returns once everything written so far (ASYNC writes included) is on stable storage. */
  void sync() {
    WriteAheadLog w = wal;
    if (w != null) {
      w.syncAll();
    }
  }

  int segmentCount() {
    return wal.segmentCount();
  }

  long syncCount() {
    return wal.syncCount();
  }

  /** Syncs and closes the log (nothing if recovery failed before it started). */
  void close() {
    WriteAheadLog w = wal;
    if (w != null) {
      w.close();
    }
  }
}
