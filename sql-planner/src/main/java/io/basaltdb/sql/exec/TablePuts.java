package io.basaltdb.sql.exec;

import io.basaltdb.engine.Put;
import io.basaltdb.engine.Table;
import io.basaltdb.sql.index.IndexRegistry;
import java.util.List;

/**
 * Committed puts of one table, applied as one list while the table has no index (with one,
 * each row goes alone, to write its entries). Equal for the same table's index registry.
 */
final class TablePuts implements PendingWrites.PutGroup {
  private final IndexRegistry.Indexes indexes;
  private final Table table;

  TablePuts(IndexRegistry.Indexes indexes, Table table) {
    this.indexes = indexes;
    this.table = table;
  }

  @Override
  public boolean putAll(List<Put> puts) {
    java.util.concurrent.locks.Lock writing = indexes.writing();
    writing.lock();
    try {
      if (!indexes.list().isEmpty()) {
        return false;
      }
      table.put(puts);
      return true;
    } finally {
      writing.unlock();
    }
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof TablePuts t && t.indexes == indexes;
  }

  @Override
  public int hashCode() {
    return System.identityHashCode(indexes);
  }
}
