package io.basaltdb.engine.store;

import io.basaltdb.engine.memstore.MemStore;
import java.util.List;

/**
 * An immutable snapshot of what a store reads from: the active memstore, memstores being
 * flushed (newest first) and the live files. A view taken for a read holds a reference on each
 * file until {@link #close()}, so compactions cannot delete files under a scanner.
 */
public final class StoreView implements AutoCloseable {
  final MemStore active;
  final List<MemStore> flushing;
  final List<StoreFile> files;
  private boolean closed;

  StoreView(MemStore active, List<MemStore> flushing, List<StoreFile> files) {
    this.active = active;
    this.flushing = List.copyOf(flushing);
    this.files = List.copyOf(files);
  }

  public List<StoreFile> files() {
    return files;
  }

  @Override
  public synchronized void close() {
    if (!closed) {
      closed = true;
      for (StoreFile f : files) {
        f.release();
      }
    }
  }
}
