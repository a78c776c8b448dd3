package io.basaltdb.storage;

/**
 * An increment whose sum does not fit a long; the row is left as it was. (HBase wraps such a
 * counter around silently; a counter that turns negative is a corruption no caller wants.)
 */
public final class CounterOverflowException extends InvalidArgumentException {
  private static final long serialVersionUID = 1L;

  public CounterOverflowException(String message) {
    super(message);
  }
}
