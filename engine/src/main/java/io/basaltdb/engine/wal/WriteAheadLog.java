package io.basaltdb.engine.wal;

import io.basaltdb.storage.ClosedException;
import io.basaltdb.storage.DatabaseReadOnlyException;
import io.basaltdb.storage.StorageIOException;
import io.basaltdb.engine.io.FileSystem;
import io.basaltdb.engine.util.ByteWriter;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * The writing side of the database's log. Always starts a new segment when opened.
 *
 * <p>Positions: every appended record ends at a <em>logical position</em> that grows across
 * segments; {@link #sync(long)} makes everything up to a position durable. Group commit: one
 * syncer at a time (the leader) writes the shared buffer and fsyncs; the others wait on
 * {@code syncMonitor}, and everyone whose position the fsync covered returns at once, the rest
 * electing the next leader.
 *
 * <p>Locks: {@code appendLock} guards the buffer, the current channel, positions and the
 * segment list; {@code syncMonitor} guards the leader flag and is never held during an fsync
 * (so neither appends nor covered waiters queue behind one). A failed write or fsync poisons the log:
 * every later call fails, since nothing after the failure could be acknowledged safely.
 */
public final class WriteAheadLog implements AutoCloseable {
  private static final ThreadLocal<ByteWriter> SCRATCH =
      ThreadLocal.withInitial(() -> new ByteWriter(4096));
  private static final int BUFFER_FLUSH_BYTES = 256 * 1024;

  private record Segment(long number, Path path, long maxSeq, long bytes) {}

  private final FileSystem fs;
  private final Path dir;
  private final long rollBytes;
  private final Object appendLock = new Object();
  private final Object syncMonitor = new Object();

  // guarded by appendLock
  private final Deque<Segment> closedSegments = new ArrayDeque<>();
  private long closedBytes;
  private long segmentNumber;
  private FileChannel channel;
  private long segmentBytes;
  private long segmentMaxSeq;
  private final ByteWriter buffer = new ByteWriter(BUFFER_FLUSH_BYTES * 2);
  private long appendedPosition;
  private long writtenPosition;
  private boolean closed;
  /** Copies under way ({@link #pinForCopy}): no segment is deleted while one is. */
  private int copyPins;

  private volatile long syncedPosition;
  private volatile IOException failure;
  private final ScheduledFuture<?> asyncSyncTask;
  // guarded by syncMonitor
  private boolean syncing;
  private long syncCount;
  private int syncCallers;
  // group-commit gathering (see forceWritten): written under appendLock, read by the leader
  private volatile long appendedRecords;
  // the leader's (handed from leader to leader under syncMonitor)
  private long scheduledRecords;
  private int expectedRecords = 1;
  private long fsyncNanosAverage;
  /** Time spent in fsyncs (volatile: written by one leader at a time, read by metrics). */
  private volatile long syncNanos;

  /**
   * Opens the log in {@code dir} with a fresh segment numbered after the existing ones, which
   * are kept (they were replayed) until {@link #deleteObsoleteSegments} finds them flushed.
   * With a scheduler, ASYNC writes are synced every {@code asyncIntervalMillis}.
   */
  public WriteAheadLog(FileSystem fs, Path dir, long rollBytes, long asyncIntervalMillis,
      ScheduledExecutorService scheduler) {
    this.fs = fs;
    this.dir = dir;
    this.rollBytes = rollBytes;
    try {
      fs.createDirectories(dir);
      long last = 0;
      for (Path p : WalReader.segments(fs, dir)) {
        long n = WalFormat.segmentNumber(p);
        long bytes = fs.size(p);
        closedSegments.add(new Segment(n, p, Long.MAX_VALUE, bytes));
        closedBytes += bytes;
        last = n;
      }
      openSegment(last + 1);
    } catch (IOException e) {
      throw StorageIOException.wrap("cannot open write-ahead log in " + dir, e);
    }
    asyncSyncTask = scheduler == null ? null
        : scheduler.scheduleWithFixedDelay(this::backgroundSync, asyncIntervalMillis,
            asyncIntervalMillis, TimeUnit.MILLISECONDS);
  }

  /** Records the largest sequence id of segments kept from before this open (after replay). */
  public void setRecoveredMaxSeq(long maxSeq) {
    synchronized (appendLock) {
      Deque<Segment> fixed = new ArrayDeque<>();
      closedSegments.forEach(s -> fixed.add(new Segment(s.number, s.path, maxSeq, s.bytes)));
      closedSegments.clear();
      closedSegments.addAll(fixed);
    }
  }

  private void openSegment(long number) throws IOException {
    Path p = dir.resolve(WalFormat.segmentName(number));
    FileChannel ch = fs.createNew(p);
    try {
      byte[] h = WalFormat.segmentHeader();
      writeFully(ch, h, h.length);
      ch.force(true);
      fs.syncDirectory(dir);
    } catch (IOException e) {
      try {
        ch.close();
      } catch (IOException ignored) {
        // already failing
      }
      throw e;
    }
    channel = ch;
    segmentNumber = number;
    segmentBytes = WalFormat.HEADER_SIZE;
    segmentMaxSeq = 0;
  }

  /** Appends an edit to the buffer; returns the logical position its record ends at. */
  public long append(WalEdit edit) {
    ByteWriter w = SCRATCH.get();
    w.reset();
    w.putInt(0).putInt(0).putInt(0);
    edit.encode(w);
    return appendRecord(w, edit.sequenceId());
  }

  /**
   * Appends the parts of one write spanning regions (one sequence id) as one record, so a crash
   * keeps all of them or none; returns the logical position the record ends at.
   */
  public long appendAll(List<WalEdit> parts) {
    if (parts.size() == 1) {
      return append(parts.get(0));
    }
    ByteWriter w = SCRATCH.get();
    w.reset();
    w.putInt(0).putInt(0).putInt(0);
    WalEdit.encodeMulti(w, parts);
    return appendRecord(w, parts.get(0).sequenceId());
  }

  private long appendRecord(ByteWriter w, long seq) {
    byte[] a = w.array();
    WalFormat.writeRecordHeader(a, 0, w.size() - WalFormat.RECORD_HEADER_SIZE);
    synchronized (appendLock) {
      checkUsable();
      buffer.put(a, 0, w.size());
      appendedPosition += w.size();
      appendedRecords++;
      segmentBytes += w.size();
      segmentMaxSeq = Math.max(segmentMaxSeq, seq);
      if (buffer.size() >= BUFFER_FLUSH_BYTES) {
        writeBuffer();
      }
      if (segmentBytes >= rollBytes) {
        roll();
      }
      return appendedPosition;
    }
  }

  private void checkUsable() {
    if (closed) {
      throw new ClosedException("write-ahead log " + dir);
    }
    checkWritable();
  }

  /**
   * Throws once the log has failed (a write or fsync failed, or {@link #poison} was called):
   * the database takes no more writes until it is reopened, since nothing written after the
   * failure could be acknowledged safely.
   */
  public void checkWritable() {
    IOException f = failure;
    if (f != null) {
      throw new DatabaseReadOnlyException("the database is read-only until it is reopened: a "
          + "write to " + dir + " failed (" + f.getMessage() + ")", f);
    }
  }

  /** Makes the log (and so the database) refuse writes until reopened, e.g. after a failed flush. */
  public void poison(Throwable cause) {
    if (failure == null) {
      failure = cause instanceof IOException io ? io : new IOException(cause.toString(), cause);
    }
  }

  // appendLock held
  private void writeBuffer() {
    if (buffer.size() == 0) {
      return;
    }
    try {
      writeFully(channel, buffer.array(), buffer.size());
      writtenPosition += buffer.size();
      buffer.reset();
    } catch (IOException e) {
      failure = e;
      throw StorageIOException.wrap("cannot write write-ahead log", e);
    }
  }

  // appendLock held
  private void roll() {
    writeBuffer();
    try {
      fs.crashPoint("wal.roll");
      channel.force(false);
      channel.close();
      syncedPosition = Math.max(syncedPosition, writtenPosition);
      closedSegments.add(new Segment(segmentNumber, dir.resolve(WalFormat.segmentName(segmentNumber)),
          segmentMaxSeq, segmentBytes));
      closedBytes += segmentBytes;
      openSegment(segmentNumber + 1);
    } catch (IOException e) {
      failure = e;
      throw StorageIOException.wrap("cannot roll write-ahead log", e);
    }
  }

  /**
   * Returns once everything up to {@code position} is on stable storage. Group commit: if an
   * fsync is running, waits for it (without holding any lock the fsync needs) and returns if it
   * covered {@code position}; otherwise becomes the next leader and fsyncs everything written
   * so far, for itself and for everyone who appended meanwhile.
   */
  public void sync(long position) {
    sync(position, 1);
  }

  /** {@code writers}: 1 for a writer's sync, 0 for the background one (it appends nothing). */
  private void sync(long position, int writers) {
    if (syncedPosition >= position) {
      return;
    }
    synchronized (syncMonitor) {
      syncCallers += writers;
      awaitLeader(position);
      if (syncedPosition >= position) {
        syncCallers -= writers;
        return;
      }
      syncing = true;
    }
    long synced = -1;
    try {
      synced = forceWritten();
    } finally {
      synchronized (syncMonitor) {
        syncing = false;
        syncCallers -= writers;
        if (synced >= 0) {
          syncCount++;
          syncedPosition = Math.max(syncedPosition, synced);
        }
        expectedRecords = Math.max(1, syncCallers + writers);
        syncMonitor.notifyAll();
      }
    }
    if (syncedPosition < position) {
      sync(position, writers); // the segment rolled during the fsync; roll() forced less
    }
  }

  /** syncMonitor held: waits while a leader fsyncs and {@code position} is not yet durable. */
  private void awaitLeader(long position) {
    boolean interrupted = false;
    while (syncing && syncedPosition < position) {
      try {
        syncMonitor.wait();
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }

  /**
   * The leader's fsync: writes the buffer, forces the channel; returns the position made
   * durable. Gathering: when the last fsync ended with {@code n} threads syncing, the writers
   * it released are likely to append again at once, so the leader waits (at most one average
   * fsync: on 2 cores, 4 SQL writers take about that long to come back) until {@code n}
   * records are unsynced, instead of syncing a small batch and making them wait a whole fsync
   * behind it. One writer never waits.
   */
  private long forceWritten() {
    FileChannel ch;
    long target;
    gather();
    synchronized (appendLock) {
      checkUsable();
      writeBuffer();
      ch = channel;
      target = writtenPosition;
      scheduledRecords = appendedRecords;
    }
    long t0 = System.nanoTime();
    try {
      ch.force(false);
      long took = System.nanoTime() - t0;
      syncNanos += took; // leader only: one fsync at a time
      fsyncNanosAverage = fsyncNanosAverage == 0 ? took : (fsyncNanosAverage * 7 + took) / 8;
      return target;
    } catch (java.nio.channels.ClosedChannelException e) {
      // the segment was rolled (and forced up to at least target) meanwhile
      return syncedPosition;
    } catch (IOException e) {
      failure = e;
      throw StorageIOException.wrap("cannot fsync write-ahead log", e);
    }
  }

  // leader only
  private void gather() {
    long deadline = System.nanoTime() + fsyncNanosAverage;
    while (appendedRecords - scheduledRecords < expectedRecords && failure == null
        && deadline - System.nanoTime() > 0) {
      Thread.yield();
    }
  }

  /** Syncs everything appended so far. */
  public void syncAll() {
    syncAll(1);
  }

  /** {@code writers} as for {@link #sync(long, int)}. */
  private void syncAll(int writers) {
    long p;
    synchronized (appendLock) {
      p = appendedPosition;
    }
    sync(p, writers);
  }

  private void backgroundSync() {
    try {
      if (!closed && failure == null) {
        syncAll(0);
      }
    } catch (RuntimeException e) {
      // recorded in failure; writers see it on their next call
    }
  }

  /** Nanoseconds spent in the log's fsyncs so far (their count is {@link #syncCount}). */
  public long syncNanos() {
    return syncNanos;
  }

  /** Bytes appended to the log since it opened. */
  public long appendedBytes() {
    synchronized (appendLock) {
      return appendedPosition;
    }
  }

  public long syncCount() {
    synchronized (syncMonitor) {
      return syncCount;
    }
  }

  /** A segment's file and how many of its bytes a copy takes. */
  public record SegmentPrefix(Path path, long length) {}

  /**
   * For a copy of the log as it is now (a backup's cut): writes what is buffered to the
   * current segment (no fsync: a copy reads what the OS has), and returns every live segment
   * with its length now, oldest first. Until {@link #unpinForCopy}, no segment is deleted, so
   * each stays readable up to that length (segments only grow).
   */
  public List<SegmentPrefix> pinForCopy() {
    synchronized (appendLock) {
      checkUsable();
      writeBuffer();
      List<SegmentPrefix> out = new java.util.ArrayList<>(closedSegments.size() + 1);
      for (Segment s : closedSegments) {
        out.add(new SegmentPrefix(s.path, s.bytes));
      }
      out.add(new SegmentPrefix(dir.resolve(WalFormat.segmentName(segmentNumber)),
          segmentBytes));
      copyPins++;
      return out;
    }
  }

  /** Ends a copy begun by {@link #pinForCopy}. */
  public void unpinForCopy() {
    synchronized (appendLock) {
      copyPins--;
    }
  }

  /** Deletes closed segments whose edits are all below {@code oldestUnflushedSeq}. */
  public int deleteObsoleteSegments(long oldestUnflushedSeq) {
    int deleted = 0;
    synchronized (appendLock) {
      while (copyPins == 0 && !closedSegments.isEmpty() && closedSegments.peekFirst().maxSeq < oldestUnflushedSeq) {
        Segment s = closedSegments.pollFirst();
        closedBytes -= s.bytes;
        try {
          // one at a time, each made durable: a crash never leaves a gap between segments
          fs.deleteIfExists(s.path);
          fs.syncDirectory(dir);
          deleted++;
        } catch (IOException e) {
          throw StorageIOException.wrap("cannot delete WAL segment " + s.path, e);
        }
      }
    }
    return deleted;
  }

  /**
   * The newest sequence id in the oldest closed segment when the closed segments hold more than
   * {@code maxBytes}, else -1: the regions holding an edit at or below it unflushed are what
   * keeps the log that long.
   */
  public long oldestKeptPast(long maxBytes) {
    synchronized (appendLock) {
      return closedBytes > maxBytes && !closedSegments.isEmpty()
          ? closedSegments.peekFirst().maxSeq : -1;
    }
  }

  public int segmentCount() {
    synchronized (appendLock) {
      return closedSegments.size() + 1;
    }
  }

  /** Bytes in the segment being written. */
  public long currentSegmentBytes() {
    synchronized (appendLock) {
      return segmentBytes;
    }
  }

  /** Rolls to a new segment now (after flushes, so flushed edits can be deleted sooner). */
  public void rollNow() {
    synchronized (appendLock) {
      checkUsable();
      roll();
    }
  }

  @Override
  public void close() {
    if (asyncSyncTask != null) {
      asyncSyncTask.cancel(false);
    }
    synchronized (syncMonitor) {
      awaitLeader(Long.MAX_VALUE);
      syncing = true; // no fsync starts while the log closes; later ones find it closed
    }
    try {
      synchronized (appendLock) {
        if (closed) {
          return;
        }
        try {
          if (failure == null) {
            writeBuffer();
            channel.force(false);
          }
        } catch (IOException e) {
          failure = e;
        } finally {
          closed = true;
          try {
            channel.close();
          } catch (IOException ignored) {
            // closing anyway
          }
        }
      }
    } finally {
      synchronized (syncMonitor) {
        syncing = false;
        syncMonitor.notifyAll();
      }
    }
    if (failure != null) {
      throw StorageIOException.wrap("write-ahead log failed", failure);
    }
  }

  private static void writeFully(FileChannel ch, byte[] b, int len) throws IOException {
    ByteBuffer bb = ByteBuffer.wrap(b, 0, len);
    while (bb.hasRemaining()) {
      ch.write(bb);
    }
  }

}
