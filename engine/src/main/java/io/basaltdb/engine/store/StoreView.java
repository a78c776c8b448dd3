package io.basaltdb.engine.store;

import io.basaltdb.engine.memstore.MemStore;
import java.util.List;

/**
 * An immutable snapshot of what a store reads from: the active memstore, memstores being
 * flushed (newest first) and the live files. A view taken for a read holds a reference on each
 * file until {@link #close()}, so compactions cannot delete files under a scanner, and is
 * registered as a reader of the active memstore, so its pruning leaves what the read sees.
 */
public final class StoreView implements AutoCloseable {
  final MemStore active;
  final List<MemStore> flushing;
  final List<StoreFile> files;
  /** The view's registration as a reader of {@link #active}, or {@link #NOT_READING}. */
  private final int reader;
  private boolean closed;
  private static final int NOT_READING = Integer.MIN_VALUE;

  /** The store's own view (no read of its own). */
  StoreView(MemStore active, List<MemStore> flushing, List<StoreFile> files) {
    this.active = active;
    this.flushing = List.copyOf(flushing);
    this.files = List.copyOf(files);
    this.reader = NOT_READING;
  }

  /** A view for a read at {@code bound} or above, registered as a reader of {@code active}. */
  StoreView(MemStore active, List<MemStore> flushing, List<StoreFile> files, long bound) {
    this.active = active;
    this.flushing = List.copyOf(flushing);
    this.files = List.copyOf(files);
    this.reader = active.enterReader(bound);
  }

  public List<StoreFile> files() {
    return files;
  }

  @Override
  public synchronized void close() {
    if (!closed) {
      closed = true;
      if (reader != NOT_READING) {
        active.exitReader(reader);
      }
      for (StoreFile f : files) {
        f.release();
      }
    }
  }
}
