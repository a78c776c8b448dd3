package io.basaltdb.storage;

import java.util.ServiceLoader;

/**
 * Makes transactions kept in the client, for a storage that keeps none of its own (HBase: one
 * row is atomic, several are not): the transaction holds its writes, merges them into every
 * read of the storage by the cell rules (versions, deletes, TTL, filters), and applies them row
 * by row at commit. Those rules are the embedded engine's, so the engine provides this at run
 * time (found with {@link ServiceLoader}, {@code META-INF/services}); a backend compiles
 * against the seam alone and asks {@link #begin}.
 */
public interface ClientTransactions {
  /** A transaction kept in the client over {@code base}. */
  StorageTransaction over(Storage base);

  /**
   * A transaction kept in the client over {@code base}, by the provider on the class path.
   *
   * @throws UnsupportedOperationException when no provider is (the engine's jar is missing)
   */
  static StorageTransaction begin(Storage base) {
    ClientTransactions p = Holder.PROVIDER;
    if (p == null) {
      throw new UnsupportedOperationException(base.location() + " keeps no transactions and no"
          + " provider of client transactions (the embedded engine's jar) is on the class path");
    }
    return p.over(base);
  }

  /** The provider, looked up once (immutable: what the class path offers does not change). */
  final class Holder {
    static final ClientTransactions PROVIDER = ServiceLoader.load(ClientTransactions.class,
        ClientTransactions.class.getClassLoader()).findFirst().orElse(null);

    private Holder() {}
  }
}
