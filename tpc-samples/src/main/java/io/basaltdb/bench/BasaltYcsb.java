package io.basaltdb.bench;

import io.basaltdb.engine.Database;
import io.basaltdb.engine.Durability;
import io.basaltdb.engine.EngineOptions;
import io.basaltdb.engine.FamilyOptions;
import io.basaltdb.engine.Get;
import io.basaltdb.engine.Increment;
import io.basaltdb.engine.Put;
import io.basaltdb.engine.Result;
import io.basaltdb.engine.ResultScanner;
import io.basaltdb.engine.Scan;
import io.basaltdb.engine.Splits;
import io.basaltdb.engine.Table;
import io.basaltdb.engine.TableDescriptor;
import io.basaltdb.engine.TableName;
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
