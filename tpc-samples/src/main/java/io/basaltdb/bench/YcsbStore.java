package io.basaltdb.bench;

/** The operations of the YCSB core workloads, over Basalt or a reference store. */
public interface YcsbStore extends AutoCloseable {
  String name();

  /** Inserts or overwrites a record. */
  void write(byte[] key, byte[] record);

  /** The record, or null. */
  byte[] read(byte[] key);

  /** Reads up to {@code n} records from {@code start} on; returns how many. */
  int scan(byte[] start, int n);

  /** Adds to the record's 8-byte counter atomically; returns the new value. */
  long increment(byte[] key, long delta);

  @Override
  void close();
}
