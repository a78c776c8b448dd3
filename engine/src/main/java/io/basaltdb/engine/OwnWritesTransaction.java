package io.basaltdb.engine;

import io.basaltdb.storage.ClosedException;
import io.basaltdb.storage.StorageTransaction;

/**
 * What both kinds of transaction share ({@link Transaction}, {@link ClientTransaction}): their
 * {@link OwnWrites}, marks over them, and the end state (a transaction ended by commit or
 * rollback refuses everything with {@link ClosedException}). The monitor of the transaction
 * guards {@link #own} and {@link #ended}.
 */
abstract class OwnWritesTransaction implements StorageTransaction {
  final OwnWrites own = new OwnWrites();
  private boolean ended;

  @Override
  public synchronized int mark() {
    checkOpen();
    return own.mark();
  }

  @Override
  public synchronized void rollbackTo(int mark) {
    checkOpen();
    own.rollbackTo(mark);
  }

  @Override
  public synchronized boolean hasWrites() {
    return !own.isEmpty();
  }

  /** Drops every own write and ends the transaction (again: nothing). */
  @Override
  public synchronized void rollback() {
    if (!ended) {
      end();
    }
  }

  /** Rolls back. */
  @Override
  public void close() {
    rollback();
  }

  /** Ends the transaction, its own writes dropped; a subclass releases what else it holds. */
  void end() {
    ended = true;
    own.clear();
  }

  void checkOpen() {
    if (ended) {
      throw new ClosedException("transaction");
    }
  }
}
