package io.basaltdb.storage;

/**
 * A transaction's uncommitted writes passed its bound ({@link
 * StorageTransaction#MAX_PENDING_BYTES}); the write that passed it was not kept (SQLState
 * 53200).
 */
public final class TransactionTooLargeException extends BasaltException {
  private static final long serialVersionUID = 1L;

  public TransactionTooLargeException(String message) {
    super(message);
  }
}
