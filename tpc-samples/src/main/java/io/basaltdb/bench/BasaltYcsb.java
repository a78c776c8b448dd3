package io.basaltdb.bench;

import io.basaltdb.engine.Database;
import io.basaltdb.storage.Durability;
import io.basaltdb.engine.EngineOptions;
import io.basaltdb.storage.FamilyOptions;
import io.basaltdb.storage.Get;
import io.basaltdb.storage.Increment;
import io.basaltdb.storage.Put;
import io.basaltdb.storage.Result;
import io.basaltdb.storage.ResultScanner;
import io.basaltdb.storage.Scan;
import io.basaltdb.storage.Splits;
import io.basaltdb.storage.Table;
import io.basaltdb.storage.TableDescriptor;
import io.basaltdb.storage.TableName;
import java.nio.file.Path;
import java.util.Map;

/**
 * Basalt through its client API for YCSB: one table pre-split over the hex-string key space,
 * family {@code f}, the record in {@code f:v} and the counter in {@code f:n}, ASYNC WAL.
 */
public final class BasaltYcsb implements YcsbStore {
  private static final byte[] F = {'f'};
  private static final byte[] V = {'v'};
  private static final byte[] N = {'n'};

  private final Database db;
  private final Table table;

  public BasaltYcsb(Path dir, long cacheBytes, int regions) {
    db = Database.open(dir, EngineOptions.defaults().withBlockCacheBytes(cacheBytes));
    TableName name = TableName.of("usertable");
    if (!db.admin().tableExists(name)) {
      db.admin().createTable(new TableDescriptor(name, Map.of("f", FamilyOptions.DEFAULT)),
          Splits.hexString(regions, 16));
    }
    table = db.table(name);
  }

  @Override
  public String name() {
    return "basalt";
  }

  @Override
  public void write(byte[] key, byte[] record) {
    table.put(new Put(key).addColumn(F, V, record).setDurability(Durability.ASYNC));
  }

  @Override
  public byte[] read(byte[] key) {
    return table.get(new Get(key).addColumn(F, V)).getValue(F, V);
  }

  @Override
  public int scan(byte[] start, int n) {
    int count = 0;
    try (ResultScanner s = table.getScanner(new Scan().withStartRow(start).addColumn(F, V)
        .setLimit(n))) {
      for (Result r = s.next(); r != null; r = s.next()) {
        count++;
      }
    }
    return count;
  }

  @Override
  public long increment(byte[] key, long delta) {
    Result r = table.increment(new Increment(key).addColumn(F, N, delta)
        .setDurability(Durability.ASYNC));
    return Increment.toLong(r.getValue(F, N));
  }

  @Override
  public void close() {
    db.close();
  }
}
