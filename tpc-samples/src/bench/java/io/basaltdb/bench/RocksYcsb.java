package io.basaltdb.bench;

import java.nio.file.Path;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReentrantLock;
import org.rocksdb.RocksDBException;

/**
 * RocksDB for YCSB, configured as {@link RocksKv}: the record under its key, the counter under
 * the key with a {@code #n} suffix; an increment is a get and a put under a striped lock (what
 * an application without a merge operator does).
 */
public final class RocksYcsb implements YcsbStore {
  private final RocksKv kv;
  private final Lock[] stripes = new Lock[256];

  public RocksYcsb(Path dir, long cacheBytes) throws RocksDBException {
    kv = new RocksKv(dir, cacheBytes);
    for (int i = 0; i < stripes.length; i++) {
      stripes[i] = new ReentrantLock();
    }
  }

  @Override
  public String name() {
    return "rocksdb";
  }

  @Override
  public void write(byte[] key, byte[] record) {
    kv.put(key, record);
  }

  @Override
  public byte[] read(byte[] key) {
    return kv.get(key);
  }

  @Override
  public int scan(byte[] start, int n) {
    return kv.seekAndNext(start, n);
  }

  @Override
  public long increment(byte[] key, long delta) {
    byte[] k = java.util.Arrays.copyOf(key, key.length + 2);
    k[key.length] = '#';
    k[key.length + 1] = 'n';
    Lock l = stripes[java.util.Arrays.hashCode(key) & 255];
    l.lock();
    try {
      byte[] old = kv.get(k);
      long v = (old == null ? 0 : java.nio.ByteBuffer.wrap(old).getLong()) + delta;
      kv.put(k, java.nio.ByteBuffer.allocate(8).putLong(v).array());
      return v;
    } finally {
      l.unlock();
    }
  }

  @Override
  public void close() {
    kv.close();
  }
}
