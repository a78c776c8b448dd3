package io.basaltdb.storage;

/** An operation on a database, region, store or scanner that has been closed. */
public class ClosedException extends BasaltException {
  private static final long serialVersionUID = 1L;

  public ClosedException(String what) {
    super(what + " is closed");
  }
}
