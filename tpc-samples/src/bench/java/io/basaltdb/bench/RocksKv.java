package io.basaltdb.bench;

import java.nio.file.Path;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.BloomFilter;
import org.rocksdb.CompressionType;
import org.rocksdb.FlushOptions;
import org.rocksdb.LRUCache;
import org.rocksdb.Options;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.WriteOptions;

/**
 * RocksDB, configured like Basalt for the comparison: LZ4, 64 KiB blocks, 10-bit bloom filter,
 * an LRU block cache of the same size as Basalt's (RocksJava's default is only 8 MiB), a
 * 64 MiB write buffer, WAL on without sync per write. Loaded reflectively by
 * {@link EngineBench} when the {@code bench} profile is active.
 */
public final class RocksKv implements KvStore {
  static {
    RocksDB.loadLibrary();
  }

  private final Path dir;
  private final Options options;
  private final LRUCache cache;
  private final RocksDB db;
  private final WriteOptions writeOptions = new WriteOptions().setSync(false);
  private final ReadOptions readOptions = new ReadOptions();

  public RocksKv(Path dir, long cacheBytes) throws RocksDBException {
    this.dir = dir;
    cache = new LRUCache(cacheBytes);
    BlockBasedTableConfig table = new BlockBasedTableConfig()
        .setBlockCache(cache)
        .setBlockSize(64 * 1024)
        .setFilterPolicy(new BloomFilter(10, false));
    options = new Options().setCreateIfMissing(true)
        .setCompressionType(CompressionType.LZ4_COMPRESSION)
        .setWriteBufferSize(64L << 20)
        .setMaxBackgroundJobs(2)
        .setTableFormatConfig(table);
    db = RocksDB.open(options, dir.toString());
  }

  @Override
  public String name() {
    return "rocksdb";
  }

  @Override
  public void put(byte[] key, byte[] value) {
    try {
      db.put(writeOptions, key, value);
    } catch (RocksDBException e) {
      throw new IllegalStateException(e);
    }
  }

  @Override
  public byte[] get(byte[] key) {
    try {
      return db.get(readOptions, key);
    } catch (RocksDBException e) {
      throw new IllegalStateException(e);
    }
  }

  @Override
  public int seekAndNext(byte[] key, int n) {
    int count = 0;
    try (RocksIterator it = db.newIterator(readOptions)) {
      for (it.seek(key); it.isValid() && count < n; it.next()) {
        it.value();
        count++;
      }
    }
    return count;
  }

  @Override
  public long scanAll() {
    long count = 0;
    try (RocksIterator it = db.newIterator(readOptions)) {
      for (it.seekToFirst(); it.isValid(); it.next()) {
        it.key();
        it.value();
        count++;
      }
    }
    return count;
  }

  @Override
  public void compactAll() {
    try (FlushOptions fo = new FlushOptions().setWaitForFlush(true)) {
      db.flush(fo);
      db.compactRange();
    } catch (RocksDBException e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * Linked: a checkpoint (hard links, its memtable flushed first, as RocksDB does by default).
   * Copied: the backup engine, copying the live WAL rather than flushing (as Basalt copies its
   * log).
   */
  @Override
  public void backup(Path dest, boolean copy) {
    try {
      if (!copy) {
        try (org.rocksdb.Checkpoint cp = org.rocksdb.Checkpoint.create(db)) {
          cp.createCheckpoint(dest.toString());
        }
        return;
      }
      java.nio.file.Files.createDirectories(dest); // the backup engine wants it there
      try (org.rocksdb.BackupEngineOptions o = new org.rocksdb.BackupEngineOptions(
          dest.toString());
          org.rocksdb.BackupEngine be = org.rocksdb.BackupEngine.open(org.rocksdb.Env.getDefault(),
              o)) {
        be.createNewBackup(db, false);
      }
    } catch (RocksDBException | java.io.IOException e) {
      throw new IllegalStateException(e);
    }
  }

  @Override
  public void restore(Path from, Path to) {
    try (org.rocksdb.BackupEngineOptions o = new org.rocksdb.BackupEngineOptions(from.toString());
        org.rocksdb.BackupEngine be = org.rocksdb.BackupEngine.open(org.rocksdb.Env.getDefault(),
            o);
        org.rocksdb.RestoreOptions ro = new org.rocksdb.RestoreOptions(false)) {
      be.restoreDbFromLatestBackup(to.toString(), to.toString(), ro);
      try (Options opts = new Options(); RocksDB opened = RocksDB.open(opts, to.toString())) {
        opened.getLatestSequenceNumber(); // opened: its log replayed, as Basalt's restore does
      }
    } catch (RocksDBException e) {
      throw new IllegalStateException(e);
    }
  }

  @Override
  public long diskBytes() {
    return BasaltKv.directorySize(dir);
  }

  @Override
  public void close() {
    db.close();
    options.close();
    cache.close();
    writeOptions.close();
    readOptions.close();
  }
}
