package io.basaltdb.storage;

/** A table (or namespace) that does not exist. */
public class TableNotFoundException extends InvalidArgumentException {
  private static final long serialVersionUID = 1L;

  public TableNotFoundException(String message) {
    super(message);
  }
}
