package io.basaltdb.storage;

/**
 * A consistent cut of a whole storage: every read given this snapshot ({@link
 * ReadRequest#setSnapshot}) sees exactly the writes the cut holds, in every region and table,
 * whenever it runs: a write spanning regions (a row and its index entries) is seen whole or
 * not at all, and a row moved between regions is seen once. It holds every write acknowledged
 * before it was taken, and none still in flight then (no read waits for a write syncing its
 * log). The storage keeps what the cut sees until {@link #close}: close it when the reads are
 * done. A storage that keeps no cuts gives none ({@link Storage#snapshot} returns null).
 * Implementations are thread-safe.
 */
public interface ReadSnapshot extends AutoCloseable {
  /** The newest sequence id reads see (less the writes in flight when taken); -1 if none. */
  long readPoint();

  /** Releases what the storage keeps for this snapshot; again is a no-op. */
  @Override
  void close();
}
