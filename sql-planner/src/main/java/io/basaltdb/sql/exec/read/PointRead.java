package io.basaltdb.sql.exec.read;

import io.basaltdb.sql.catalog.CellNames;
import io.basaltdb.sql.catalog.SqlColumn;
import io.basaltdb.sql.catalog.SqlTableDef;
import io.basaltdb.sql.exec.context.Analysis;
import io.basaltdb.sql.exec.context.StatementSnapshot;
import io.basaltdb.sql.pushdown.ScanSpec;
import io.basaltdb.sql.type.RowKeyCodec;
import io.basaltdb.storage.Get;
import io.basaltdb.storage.ReadRequest;
import io.basaltdb.storage.Result;
import io.basaltdb.storage.Storage;
import java.util.List;
import java.util.Set;
import org.apache.calcite.DataContext;
import org.apache.calcite.linq4j.AbstractEnumerable;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Enumerator;
import org.apache.calcite.linq4j.Linq4j;

/**
 * A statement that is one row read by its full key and nothing else (a plan that is only a
 * {@code BasaltScan} whose key conditions are one point: no filter, index, aggregate, AS OF,
 * row timestamp or offset), run as one get: what its {@link ScanExecutor} would do, without the
 * executor, the row enumerator and the statement snapshot each execution would make. A single
 * get reads its row atomically at one read point (in a transaction, at the transaction's cut
 * with its own writes, which a statement snapshot taken at this statement's start would give
 * as well: the statement writes nothing), so the statement needs no cut of its own; but it
 * reads at one it was given (an auto-commit UPDATE's, its transaction's). What does
 * not depend on the parameters (the columns to read, their decoding) is worked out once, when
 * the statement is planned. Immutable; shared by the executions of a cached plan.
 */
public final class PointRead {
  private final SqlTableDef def;
  private final ScanSpec spec;
  private final CellNames names;
  /** The columns each execution reads (the marker and the spec's), their map shared. */
  private final ScanColumns columns;

  private PointRead(SqlTableDef def, ScanSpec spec) {
    this.def = def;
    this.spec = spec;
    this.names = CellNames.of(def);
    this.columns = ScanColumns.of(def, spec); // the spec has no filters: its columns
  }

  /** The point read that runs {@code spec} over {@code def}, or null when it is not one. */
  public static PointRead of(SqlTableDef def, ScanSpec spec) {
    boolean one = spec.aggregate() == null && spec.index() == null && spec.asOf() == null
        && spec.filters().isEmpty() && spec.offset() == null && spec.fetch() == null
        && def.rowTimestamp() == null && spec.keys().intervals().isEmpty()
        && spec.keys().isPointLookup(def) && spec.keys().rangeCount() == 1;
    return one ? new PointRead(def, spec) : null;
  }

  /**
   * The row (none or one) of one execution over {@code db} (the execution's storage: its
   * connection's transaction, if any), as of {@code readTimestamp} (-1: the newest), read when
   * enumerated, anew each time (an auto-commit write run again after a conflict reads its
   * input again, after taking its statement lock).
   */
  public Enumerable<Object[]> run(Storage db, DataContext ctx, long readTimestamp) {
    return new AbstractEnumerable<>() {
      @Override
      public Enumerator<Object[]> enumerator() {
        Object[] row = read(db, ctx, readTimestamp);
        return row == null ? Linq4j.emptyEnumerator() : Linq4j.singletonEnumerator(row);
      }
    };
  }

  private Object[] read(Storage db, DataContext ctx, long readTimestamp) {
    byte[] key = spec.keys().pointKey(def, ctx);
    if (key == null) {
      return null; // a key column compared with NULL
    }
    Get get = new Get(key);
    get.setMetrics(Analysis.scanMetrics(ctx, spec));
    get.setSnapshot(StatementSnapshot.held(ctx, db)); // an auto-commit write's: its cut
    if (readTimestamp >= 0) {
      get.setTimeRange(0, readTimestamp == Long.MAX_VALUE ? readTimestamp : readTimestamp + 1);
    }
    columns.addTo(get);
    Result r = db.table(def.table()).get(get);
    // the key decoded from the bytes just encoded (equal to the row's, which is a cache miss)
    return r.isEmpty() ? null : toRow(def, names, spec.columns(), r, key);
  }

  /** Asks {@code read} for the row marker and {@code columns} (table column indexes). */
  static void addColumns(ReadRequest<?> read, SqlTableDef def, CellNames names,
      Set<Integer> columns) {
    read.addColumn(names.markerFamily(), CellNames.MARKER);
    List<SqlColumn> cols = def.columns();
    for (int i : columns) {
      if (cols.get(i).isMap()) {
        read.addFamily(names.family(i)); // its cells are the family's undeclared ones
      } else if (names.family(i) != null) {
        read.addColumn(names.family(i), names.qualifier(i));
      }
    }
  }

  /** The values of {@code out} (table column indexes, in output order) in row {@code r}. */
  static Object[] toRow(SqlTableDef def, CellNames names, List<Integer> out, Result r) {
    return toRow(def, names, out, r, r.row());
  }

  /** {@link #toRow(SqlTableDef, CellNames, List, Result)} given {@code r}'s key, {@code rowKey}. */
  private static Object[] toRow(SqlTableDef def, CellNames names, List<Integer> out, Result r,
      byte[] rowKey) {
    List<SqlColumn> cols = def.columns();
    RowKeyCodec codec = def.keyCodec();
    Object[] row = new Object[out.size()];
    Object[] key = null;
    for (int i = 0; i < row.length; i++) {
      int col = out.get(i);
      SqlColumn c = cols.get(col);
      if (c.isKey()) {
        if (key == null) {
          key = codec.decode(rowKey);
        }
        row[i] = c.type().fromKey(key[c.keyPosition()]);
      } else if (c.isMap()) {
        row[i] = names.mapValue(col, r);
      } else {
        byte[] v = names.value(col, r.getValue(names.family(col), names.qualifier(col)));
        row[i] = v == null ? null : c.fromCell(v);
      }
    }
    return row;
  }
}
