package io.basaltdb.engine.store;

import io.basaltdb.storage.StorageIOException;
import io.basaltdb.engine.file.BlockFileReader;
import io.basaltdb.engine.file.FileInfo;
import java.io.IOException;
import io.basaltdb.engine.io.FileSystem;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A live block file of a store with a reference count. The store holds one reference while
 * the file is in its manifest; each {@link StoreView} holds one while a read uses it. When a
 * compaction replaces the file, the store drops its reference; the last release closes the
 * reader and deletes the file. Thread-safe.
 */
public final class StoreFile {
  private final FileSystem fs;
  private final long number;
  private final String name;
  private final BlockFileReader reader;
  private final AtomicInteger refs = new AtomicInteger(1);
  private volatile boolean deleteWhenReleased;

  StoreFile(FileSystem fs, long number, String name, BlockFileReader reader) {
    this.fs = fs;
    this.number = number;
    this.name = name;
    this.reader = reader;
  }

  public long number() {
    return number;
  }

  public String name() {
    return name;
  }

  public BlockFileReader reader() {
    return reader;
  }

  public FileInfo info() {
    return reader.info();
  }

  public long length() {
    return reader.length();
  }

  void retain() {
    refs.incrementAndGet();
  }

  /** Takes a reference unless the file is already released for good. */
  boolean tryRetain() {
    while (true) {
      int n = refs.get();
      if (n <= 0) {
        return false;
      }
      if (refs.compareAndSet(n, n + 1)) {
        return true;
      }
    }
  }

  void markCompactedAway() {
    deleteWhenReleased = true;
  }

  void release() {
    if (refs.decrementAndGet() == 0) {
      reader.close();
      if (deleteWhenReleased) {
        try {
          fs.deleteIfExists(reader.path());
        } catch (IOException e) {
          throw StorageIOException.wrap("cannot delete compacted file " + reader.path(), e);
        }
      }
    }
  }

  @Override
  public String toString() {
    return name + "(" + reader.length() + "B)";
  }
}
