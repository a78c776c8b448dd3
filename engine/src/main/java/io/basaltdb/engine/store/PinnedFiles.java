package io.basaltdb.engine.store;

import io.basaltdb.engine.manifest.Manifest;
import java.util.List;

/**
 * A store's manifest and the block files it names, taken together under the store's monitor
 * ({@link Store#pinFiles}) for a copy of the store as it is: each file is retained, so a
 * compaction that replaces it meanwhile does not delete it until {@link #close}. The files are
 * immutable, so a copy made later is the file as pinned.
 */
public final class PinnedFiles implements AutoCloseable {
  private final Manifest manifest;
  private final List<StoreFile> files;
  private boolean closed;

  PinnedFiles(Manifest manifest, List<StoreFile> files) {
    this.manifest = manifest;
    this.files = List.copyOf(files);
  }

  public Manifest manifest() {
    return manifest;
  }

  public List<StoreFile> files() {
    return files;
  }

  /** Releases the files (once; again is a no-op). */
  @Override
  public synchronized void close() {
    if (!closed) {
      closed = true;
      files.forEach(StoreFile::release);
    }
  }
}
