package io.basaltdb.engine.region;

import io.basaltdb.engine.cell.CellIterator;

/**
 * Cells a read merges with what the region holds: a transaction's own uncommitted writes
 * ({@code io.basaltdb.engine.Transaction}), with sequence ids at or above {@link
 * io.basaltdb.engine.read.CellResolver#OWN_WRITES}, so they are newer than every committed cell
 * and the region's usual rules (versions, deletes, TTL, filters, the query's columns and time
 * range) resolve the two together. Each region scanner asks for the overlay's cells of one
 * family; the overlay gives only the cells this read may see (those written before the
 * statement that reads began). Implementations are safe to read from several threads while
 * nothing writes.
 */
public interface ReadOverlay {
  /** The overlay's cells of {@code family}, in cell order, or null when it holds none. */
  CellIterator source(byte[] family);

  /** Whether the overlay may hold a cell of {@code row} (any family): false only when it does not. */
  default boolean mayHoldRow(byte[] row) {
    return true;
  }

  /** The last row before {@code row} (empty: the end) holding a cell of {@code family}, or null. */
  byte[] lastRowBefore(byte[] family, byte[] row);
}
