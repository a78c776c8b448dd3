package io.basaltdb.storage;

import java.io.IOException;

/** The filesystem failed (an {@link IOException} below the engine). */
public class StorageIOException extends BasaltException {
  private static final long serialVersionUID = 1L;

  public StorageIOException(String message, IOException cause) {
    super(message + ": " + cause, cause);
  }

  private StorageIOException(String message, StorageIOException cause) {
    super(message + ": " + cause.getMessage(), cause);
  }

  public static StorageIOException wrap(String what, IOException e) {
    return new StorageIOException(what, e);
  }

  /** {@code e} with what it interrupted said first. */
  public static StorageIOException wrap(String what, StorageIOException e) {
    return new StorageIOException(what, e);
  }

}
