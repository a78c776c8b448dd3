package io.basaltdb.engine;

import java.io.IOException;

/** The filesystem failed (an {@link IOException} below the engine). */
public class StorageIOException extends BasaltException {
  private static final long serialVersionUID = 1L;

  public StorageIOException(String message, IOException cause) {
    super(message + ": " + cause, cause);
  }

  public static StorageIOException wrap(String what, IOException e) {
    return new StorageIOException(what, e);
  }

}
