package io.basaltdb.engine;

import io.basaltdb.storage.ClientTransactions;
import io.basaltdb.storage.Storage;
import io.basaltdb.storage.StorageTransaction;

/** The engine's {@link ClientTransactions}: a {@link ClientTransaction} over the storage. */
public final class ClientTransactionProvider implements ClientTransactions {
  @Override
  public StorageTransaction over(Storage base) {
    return new ClientTransaction(base);
  }
}
