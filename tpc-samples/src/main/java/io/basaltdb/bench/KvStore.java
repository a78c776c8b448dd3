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

  /** Bytes in the store's directory. */
  long diskBytes();

  @Override
  void close();
}
