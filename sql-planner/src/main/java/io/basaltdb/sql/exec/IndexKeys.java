package io.basaltdb.sql.exec;

import io.basaltdb.engine.Database;
import io.basaltdb.engine.Result;
import io.basaltdb.engine.ResultScanner;
import io.basaltdb.engine.Scan;
import io.basaltdb.engine.Table;
import io.basaltdb.sql.catalog.SqlTableDef;
import io.basaltdb.sql.index.IndexLayout;
import io.basaltdb.sql.index.IndexRegistry;
import io.basaltdb.sql.index.SqlIndexDef;
import io.basaltdb.sql.pushdown.KeyRange;
import io.basaltdb.sql.pushdown.ScanSpec;
import java.util.List;
import org.apache.calcite.DataContext;

/**
 * The base row keys a secondary index gives for one execution of a scan: its key conditions
 * bound to ranges over the index's entries (read as of the scan's time, like the table), each
 * entry turned back into its row's key, in the index's order. Not thread-safe; closed by the
 * scan that reads it.
 */
final class IndexKeys implements AutoCloseable {
  private final Table index;
  private final IndexLayout layout;
  private final List<KeyRange> ranges;
  private final long asOf;
  private int next;
  private ResultScanner scanner;

  private IndexKeys(Table index, IndexLayout layout, List<KeyRange> ranges, long asOf) {
    this.index = index;
    this.layout = layout;
    this.ranges = ranges;
    this.asOf = asOf;
  }

  /**
   * The keys {@code access} gives, or null when its index is not ACTIVE now (dropped, or
   * being rebuilt): the caller scans the table instead.
   */
  static IndexKeys open(Database db, SqlTableDef def, ScanSpec.IndexAccess access,
      DataContext ctx, long asOf) {
    for (SqlIndexDef i : IndexRegistry.of(db).of(def.table()).list()) {
      if (i.name().equals(access.name()) && i.state() == SqlIndexDef.State.ACTIVE) {
        IndexLayout layout = new IndexLayout(def, i);
        return new IndexKeys(db.table(i.engineTable()), layout,
            access.keys().bind(layout.keyDefinition(), ctx), asOf);
      }
    }
    return null;
  }

  /** The next row key, or null after the last. */
  byte[] next() {
    while (true) {
      if (scanner == null) {
        if (next >= ranges.size()) {
          return null;
        }
        KeyRange r = ranges.get(next++);
        Scan scan = new Scan().withStartRow(r.start()).withStopRow(r.stop())
            .addColumn(IndexLayout.FAMILY, IndexLayout.QUALIFIER);
        if (asOf >= 0) {
          scan.setTimeRange(0, asOf == Long.MAX_VALUE ? asOf : asOf + 1);
        }
        scanner = index.getScanner(scan);
      }
      Result entry = scanner.next();
      if (entry != null) {
        return layout.baseKey(entry.row(), entry.getValue(IndexLayout.FAMILY,
            IndexLayout.QUALIFIER));
      }
      scanner.close();
      scanner = null;
    }
  }

  @Override
  public void close() {
    if (scanner != null) {
      scanner.close();
      scanner = null;
    }
  }
}
