package io.basaltdb.storage;

/**
 * A storage could not be reached or did not answer in time (an HBase cluster whose region is not
 * serving, whose retries ran out, or whose call timed out). Nothing is known to have been
 * written by the operation that failed this way unless it says so; retrying later may succeed.
 */
public class StorageUnavailableException extends BasaltException {
  public StorageUnavailableException(String message, Throwable cause) {
    super(message, cause);
  }
}
