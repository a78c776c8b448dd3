package io.basaltdb.bench;

/** The few operations the engine benchmark needs, over Basalt or a reference store. */
public interface KvStore extends AutoCloseable {
  String name();

  void put(byte[] key, byte[] value);

  /** The value, or null when absent. */
  byte[] get(byte[] key);

  /** Seeks to the first key {@code >= key} and reads up to {@code n} entries; returns how many. */
  int seekAndNext(byte[] key, int n);

  /** Reads every entry in order; returns how many. */
  long scanAll();

  /** Flushes memory to files and compacts everything into the fewest files. */
  void compactAll();

  /**
   * An online backup into {@code dest} while writes go on: every file copied when {@code copy},
   * else the immutable ones hard-linked (Basalt's backup, RocksDB's checkpoint).
   */
  default void backup(java.nio.file.Path dest, boolean copy) {
    throw new UnsupportedOperationException(name() + " takes no backups here");
  }

  /** Makes a store directory {@code to} of a copied backup in {@code from}, and opens it once. */
  default void restore(java.nio.file.Path from, java.nio.file.Path to) {
    throw new UnsupportedOperationException(name() + " restores no backups here");
  }

  /** Bytes in the store's directory. */
  long diskBytes();

  @Override
  void close();
}
