package io.basaltdb.sql.index;

import io.basaltdb.storage.Admin;
import io.basaltdb.storage.ClientTransactions;
import io.basaltdb.storage.Durability;
import io.basaltdb.storage.ReadSnapshot;
import io.basaltdb.storage.Result;
import io.basaltdb.storage.RowChange;
import io.basaltdb.storage.Storage;
import io.basaltdb.storage.StorageTransaction;
import io.basaltdb.storage.Table;
import io.basaltdb.storage.TableName;
import java.util.List;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * A storage seen as HBase is seen through the seam: one row written atomically, no more, and
 * no snapshot; every table it hands out goes through a {@link ClientDeath}, so a test can kill
 * its client at any call or let another client's work cut in (but for the shared catalog
 * version's reads, made at most once a second whatever the statement: counted, they moved a
 * write's call numbers from one run to the next). Over the embedded engine it
 * makes the SQL layer keep indexes by the client-side protocol; over HBase it only adds the
 * cuts. Closing it closes the storage under it.
 */
public final class RowsAloneStorage implements Storage {
  private final Storage base;
  private final ClientDeath death;
  /** A process of its own: its own extensions, and not closing {@code base}; else null. */
  private final java.util.Map<Class<?>, Object> extensions;

  public RowsAloneStorage(Storage base, ClientDeath death) {
    this(base, death, null);
  }

  private RowsAloneStorage(Storage base, ClientDeath death,
      java.util.Map<Class<?>, Object> extensions) {
    this.base = base;
    this.death = death;
    this.extensions = extensions;
  }

  /**
   * {@code base} as one of several processes sharing it sees it (as HBase clients share a
   * cluster): its own registries and caches ({@link #extension}), other processes' DDL seen
   * through the shared catalog version ({@link #sharedByProcesses}). Closing it leaves {@code
   * base} open.
   */
  public static RowsAloneStorage process(Storage base, ClientDeath death) {
    return new RowsAloneStorage(base, death, new java.util.concurrent.ConcurrentHashMap<>());
  }

  @Override
  public String location() {
    return "rows-alone " + base.location();
  }

  @Override
  public Admin admin() {
    return base.admin();
  }

  @Override
  public Table table(TableName name) {
    if (name.equals(io.basaltdb.sql.catalog.CatalogVersion.SHARED_TABLE)) {
      return base.table(name); // read once a second, whenever: no fixed call of a write
    }
    return death.wrap(base.table(name));
  }

  @Override
  public ReadSnapshot snapshot() {
    return null;
  }

  @Override
  public void sync() {
    base.sync();
  }

  @Override
  public <T> T extension(Class<T> type, Supplier<? extends T> create) {
    if (extensions != null) {
      return type.cast(extensions.computeIfAbsent(type, k -> create.get()));
    }
    return base.extension(type, create);
  }

  @Override
  public boolean sharedByProcesses() {
    return extensions != null || base.sharedByProcesses();
  }

  @Override
  public StorageTransaction begin(StorageTransaction.Isolation isolation) {
    return ClientTransactions.begin(this);
  }

  @Override
  public boolean markersHideLaterPuts(TableName table) {
    return base.markersHideLaterPuts(table);
  }

  @Override
  public boolean atomicAcrossRows() {
    return false;
  }

  @Override
  public void mutateAtomically(List<RowChange> changes) {
    throw new UnsupportedOperationException("rows alone");
  }

  @Override
  public void mutateAfterRead(Table table, byte[] row, Durability durability,
      Function<Result, List<RowChange>> plan) {
    throw new UnsupportedOperationException("rows alone");
  }

  @Override
  public void close() {
    if (extensions == null) {
      base.close();
    }
  }
}
