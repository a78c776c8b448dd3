package io.basaltdb.engine;

import io.basaltdb.storage.ReadSnapshot;
import io.basaltdb.storage.StorageTransaction;
import io.basaltdb.engine.region.ReadPins;
import io.basaltdb.engine.region.SnapshotCut;

/**
 * The embedded engine's {@link ReadSnapshot}: a {@link SnapshotCut} of the whole database
 * (the newest sequence id when taken, without the writes then in flight), pinned in the
 * database's {@link ReadPins} until {@link #close}, so compactions keep the versions it sees.
 * A snapshot a {@link Transaction} gives for one statement also names the transaction's own
 * writes that statement sees (those made before it); a client-side transaction's (over a
 * storage without cuts) names only those, with no cut. Thread-safe.
 */
final class PinnedSnapshot implements ReadSnapshot {
  private final ReadPins pins;
  private final SnapshotCut cut;
  /** The transaction whose own writes reads through this snapshot see, or null. */
  private final StorageTransaction transaction;
  /** The newest of {@link #transaction}'s own writes these reads see. */
  private final long ownUpTo;
  private boolean closed;

  PinnedSnapshot(ReadPins pins) {
    this.pins = pins;
    this.cut = pins.pin();
    this.transaction = null;
    this.ownUpTo = -1;
  }

  /**
   * Another pin of {@code cut} (already pinned), for {@code transaction}'s reads; without
   * pins (null, cut null), only the own writes a client-side transaction's statement sees.
   */
  PinnedSnapshot(ReadPins pins, SnapshotCut cut, StorageTransaction transaction,
      long ownUpTo) {
    if (pins != null) {
      pins.pinAgain(cut);
    }
    this.pins = pins;
    this.cut = cut;
    this.transaction = transaction;
    this.ownUpTo = ownUpTo;
  }

  @Override
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

  /** The cut of {@code s} if the engine made it, else null (none, or another storage's). */
  static SnapshotCut cutOf(ReadSnapshot s) {
    return s instanceof PinnedSnapshot p ? p.cut : null;
  }

  /** {@code s} if the engine made it for {@code transaction}'s statements, else null. */
  static PinnedSnapshot ofTransaction(ReadSnapshot s, StorageTransaction transaction) {
    return s instanceof PinnedSnapshot p && p.transaction == transaction ? p : null;
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
