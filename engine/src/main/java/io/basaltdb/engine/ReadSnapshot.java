package io.basaltdb.engine;

import io.basaltdb.engine.region.ReadPins;
import io.basaltdb.engine.region.SnapshotCut;

/**
 * A consistent cut of a whole database: every read given this snapshot ({@link
 * ReadRequest#setSnapshot}) sees exactly the writes whose sequence ids are at or below one
 * point, in every region and table, whenever it runs: a write spanning regions (a row and its
 * index entries) is seen whole or not at all, and a row moved between regions is seen once.
 * It sees the writes complete when it is taken ({@link SnapshotCut}: the newest sequence id
 * then, without the writes still in flight, syncing the log say, which no read waits for), so
 * every write acknowledged before. The cut stays pinned, so compactions keep the versions it sees, until {@link #close}: close
 * it when the reads are done. A snapshot a {@link Transaction} gives for one statement also
 * names the transaction's own writes that statement sees (those made before it). Thread-safe.
 */
public final class ReadSnapshot implements AutoCloseable {
  private final ReadPins pins;
  private final SnapshotCut cut;
  /** The transaction whose own writes reads through this snapshot see, or null. */
  private final StorageTransaction transaction;
  /** The newest of {@link #transaction}'s own writes these reads see. */
  private final long ownUpTo;
  private boolean closed;

  ReadSnapshot(ReadPins pins) {
    this.pins = pins;
    this.cut = pins.pin();
    this.transaction = null;
    this.ownUpTo = -1;
  }

  /**
   * Another pin of {@code cut} (already pinned), for {@code transaction}'s reads; without
   * pins (null, cut null), only the own writes a client-side transaction's statement sees.
   */
  ReadSnapshot(ReadPins pins, SnapshotCut cut, StorageTransaction transaction, long ownUpTo) {
    if (pins != null) {
      pins.pinAgain(cut);
    }
    this.pins = pins;
    this.cut = cut;
    this.transaction = transaction;
    this.ownUpTo = ownUpTo;
  }

  /** The sequence id reads see up to (less the writes in flight when taken); -1 if none. */
  public long readPoint() {
    return cut == null ? -1 : cut.point();
  }

  /** What reads through this snapshot see, or null (a client-side transaction's). */
  SnapshotCut cut() {
    return cut;
  }

  StorageTransaction transaction() {
    return transaction;
  }

  long ownUpTo() {
    return ownUpTo;
  }

  @Override
  public synchronized void close() {
    if (!closed) {
      closed = true;
      if (pins != null) {
        pins.unpin(cut);
      }
    }
  }
}
