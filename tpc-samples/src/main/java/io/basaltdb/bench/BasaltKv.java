package io.basaltdb.bench;

import io.basaltdb.storage.BloomType;
import io.basaltdb.storage.Cell;
import io.basaltdb.storage.Compression;
import io.basaltdb.engine.Database;
import io.basaltdb.storage.Durability;
import io.basaltdb.engine.EngineOptions;
import io.basaltdb.storage.FamilyOptions;
import io.basaltdb.engine.read.ColumnQuery;
import io.basaltdb.engine.region.ReadSpec;
import io.basaltdb.engine.region.Region;
import io.basaltdb.storage.TableDescriptor;
import io.basaltdb.storage.TableName;
import io.basaltdb.engine.region.RegionScanner;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.NavigableSet;
import java.util.stream.Stream;

/**
 * Basalt as a key-value store for the benchmark: one region, one family {@code f}, one
 * qualifier {@code v}, VERSIONS=1, LZ4, 64 KiB blocks, row bloom filter, ASYNC WAL.
 */
public final class BasaltKv implements KvStore {
  private static final byte[] F = {'f'};
  private static final byte[] Q = {'v'};

  private final Path dir;
  private final Database db;
  private final Region region;
  private final ReadSpec spec;

  public BasaltKv(Path dir, long cacheBytes) {
    this.dir = dir;
    EngineOptions o = EngineOptions.defaults().withBlockCacheBytes(cacheBytes);
    FamilyOptions f = FamilyOptions.DEFAULT.withCompression(Compression.LZ4)
        .withBlockSize(64 * 1024).withBloomType(BloomType.ROW);
    db = Database.open(dir, o);
    TableName kv = TableName.of("kv");
    if (!db.admin().tableExists(kv)) {
      db.admin().createTable(new TableDescriptor(kv, Map.of("f", f)));
    }
    // one region: the benchmark drives it directly, as RocksDB's is driven, without the
    // per-call region lookup and Result wrapping of the Table API
    region = db.regions(kv).get(0);
    NavigableSet<byte[]> q = ColumnQuery.qualifierSet();
    q.add(Q);
    spec = new ReadSpec(Map.of(F, q), 0, Long.MAX_VALUE, 1);
  }

  @Override
  public String name() {
    return "basalt";
  }

  @Override
  public void put(byte[] key, byte[] value) {
    region.mutateRow(key, List.of(Cell.put(key, F, Q, Cell.LATEST_TIMESTAMP, value)),
        Durability.ASYNC);
  }

  @Override
  public byte[] get(byte[] key) {
    List<Cell> cells = region.get(key, spec);
    return cells.isEmpty() ? null : cells.get(0).value();
  }

  @Override
  public int seekAndNext(byte[] key, int n) {
    int count = 0;
    try (RegionScanner s = region.scan(spec, key, null)) {
      while (count < n && s.next() != null) {
        count++;
      }
    }
    return count;
  }

  @Override
  public long scanAll() {
    long count = 0;
    try (RegionScanner s = region.scan(spec, null, null)) {
      while (s.next() != null) {
        count++;
      }
    }
    return count;
  }

  @Override
  public void compactAll() {
    region.flush();
    region.compact(true);
  }

  @Override
  public void backup(Path dest, boolean copy) {
    db.backup(dest, null, copy);
  }

  @Override
  public void restore(Path from, Path to) {
    io.basaltdb.engine.backup.BackupRestore.restore(from, to, false,
        p -> Database.open(p, EngineOptions.defaults()).close());
  }

  @Override
  public long diskBytes() {
    return directorySize(dir);
  }

  static long directorySize(Path dir) {
    try (Stream<Path> s = Files.walk(dir)) {
      return s.filter(Files::isRegularFile).mapToLong(p -> p.toFile().length()).sum();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public void close() {
    db.close();
  }
}
