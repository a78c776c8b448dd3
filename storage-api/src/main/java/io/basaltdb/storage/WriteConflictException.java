package io.basaltdb.storage;

/**
 * A transaction's commit refused because a row it writes was written by someone else after the
 * transaction's snapshot (first committer wins); nothing of the transaction was applied, and
 * running it again from the start may succeed (SQLState 40001).
 */
public final class WriteConflictException extends BasaltException {
  private static final long serialVersionUID = 1L;

  public WriteConflictException(String message) {
    super(message);
  }
}
