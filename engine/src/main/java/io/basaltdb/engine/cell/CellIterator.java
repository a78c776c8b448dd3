package io.basaltdb.engine.cell;

/**
 * A forward cursor over cells in {@link CellComparator} order: memstores, files and merges
 * all implement it. After {@link #seek} or {@link #seekToFirst}, {@link #current()} is the
 * cell under the cursor or null past the end. Not thread-safe.
 */
public interface CellIterator extends AutoCloseable {
  void seekToFirst();

  /** Positions at the first cell {@code >= target}. May move backwards. */
  void seek(io.basaltdb.storage.Cell target);

  io.basaltdb.storage.Cell current();

  void next();

  /** Adds what this iterator stepped over (cells, blocks) to {@code m}. */
  default void addTo(io.basaltdb.storage.ScanMetrics m) {}

  @Override
  default void close() {}
}
