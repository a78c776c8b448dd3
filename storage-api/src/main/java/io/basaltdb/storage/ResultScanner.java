package io.basaltdb.storage;

import java.util.Iterator;
import java.util.NoSuchElementException;

/** Rows of a {@link Scan}, in key order. Must be closed. Not thread-safe. */
public interface ResultScanner extends AutoCloseable, Iterable<Result> {
  /** The next row, or null at the end. */
  Result next();

  @Override
  void close();

  @Override
  default Iterator<Result> iterator() {
    return new Iterator<>() {
      private Result next = ResultScanner.this.next();

      @Override
      public boolean hasNext() {
        return next != null;
      }

      @Override
      public Result next() {
        if (next == null) {
          throw new NoSuchElementException();
        }
        Result r = next;
        next = ResultScanner.this.next();
        return r;
      }
    };
  }
}
