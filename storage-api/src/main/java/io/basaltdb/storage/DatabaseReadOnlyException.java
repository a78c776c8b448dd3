package io.basaltdb.storage;

import java.io.IOException;

/**
 * A write refused because the write-ahead log failed earlier (a write, an fsync or a flush
 * the disk refused): nothing written after such a failure could be acknowledged safely, so the
 * database takes reads only until it is reopened, when the log replays what it holds.
 */
public final class DatabaseReadOnlyException extends StorageIOException {
  private static final long serialVersionUID = 1L;

  public DatabaseReadOnlyException(String message, IOException cause) {
    super(message, cause);
  }
}
