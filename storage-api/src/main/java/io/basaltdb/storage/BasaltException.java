package io.basaltdb.storage;

/**
 * Base of the engine's unchecked exceptions. The engine raises few kinds, each with a
 * message that names what was wrong: {@link InvalidArgumentException} (the caller's
 * fault, nothing was changed), {@link CorruptionException} (stored bytes are damaged;
 * never retried), {@link StorageIOException} (the filesystem failed) and
 * {@link ClosedException} (the object was closed).
 */
public class BasaltException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public BasaltException(String message) {
    super(message);
  }

  public BasaltException(String message, Throwable cause) {
    super(message, cause);
  }
}
