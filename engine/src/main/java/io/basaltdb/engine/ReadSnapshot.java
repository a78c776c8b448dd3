package io.basaltdb.engine;

import io.basaltdb.engine.region.ReadPins;

/**
 * A consistent cut of a whole database: every read given this snapshot ({@link
 * ReadRequest#setSnapshot}) sees exactly the writes whose sequence ids are at or below one
 * point, in every region and table, whenever it runs: a write spanning regions (a row and its
 * index entries) is seen whole or not at all, and a row moved between regions is seen once.
 * The point is the newest sequence id when the snapshot is taken; a read in a region where a
 * write at or below it is still in flight waits for that write (at most its log sync). The
 * point stays pinned, so compactions keep the versions it sees, until {@link #close}: close
 * it when the reads are done. A snapshot a {@link Transaction} gives for one statement also
 * names the transaction's own writes that statement sees (those made before it). Thread-safe.
 */
public final class ReadSnapshot implements AutoCloseable {
  private final ReadPins pins;
  private final long point;
  /** The transaction whose own writes reads through this snapshot see, or null. */
  private final StorageTransaction transaction;
  /** The newest of {@link #transaction}'s own writes these reads see. */
  private final long ownUpTo;
  private boolean closed;

  ReadSnapshot(ReadPins pins) {
    this.pins = pins;
    this.point = pins.pin();
    this.transaction = null;
    this.ownUpTo = -1;
  }

  /**
   * Another pin of {@code point} (already pinned), for {@code transaction}'s reads; without
   * pins (null, point -1), only the own writes a client-side transaction's statement sees.
   */
  ReadSnapshot(ReadPins pins, long point, StorageTransaction transaction, long ownUpTo) {
    if (pins != null) {
      pins.pinAgain(point);
    }
    this.pins = pins;
    this.point = point;
    this.transaction = transaction;
    this.ownUpTo = ownUpTo;
  }

  /** The sequence id reads see up to. */
  public long readPoint() {
    return point;
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
        pins.unpin(point);
      }
    }
  }
}
