package io.basaltdb.storage;

/** Bad input from the caller; raised before anything stored is touched. */
public class InvalidArgumentException extends BasaltException {
  private static final long serialVersionUID = 1L;

  public InvalidArgumentException(String message) {
    super(message);
  }
}
