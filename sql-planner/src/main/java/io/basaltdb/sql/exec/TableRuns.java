package io.basaltdb.sql.exec;

import io.basaltdb.sql.catalog.SqlTableDef;
import io.basaltdb.sql.exec.context.ConnectionSettings;
import io.basaltdb.sql.exec.read.LookupJoins;
import io.basaltdb.sql.exec.read.PointRead;
import io.basaltdb.sql.exec.read.ScanColumns;
import io.basaltdb.sql.exec.read.ScanExecutor;
import io.basaltdb.sql.exec.write.WriteExecutor;
import io.basaltdb.sql.pushdown.ScanSpec;
import io.basaltdb.sql.pushdown.WriteSpec;
import io.basaltdb.storage.Storage;
import org.apache.calcite.DataContext;
import org.apache.calcite.linq4j.Enumerable;

/**
 * What a planned statement calls at run time on one table (the code the Basalt rel nodes
 * generate, and their direct executions): its scans, lookup joins and writes, run by the
 * executors against the storage. Holds only the storage and the table definition the plan was
 * made for (and what its scan reads, worked out at its first execution), so plans (rel nodes)
 * point to the executors, and the executors to the storage seam, never back. An execution on
 * a connection with auto-commit off runs against its transaction ({@link
 * ConnectionTransaction}); an auto-commit write of several rows, in one of its own ({@link
 * StatementTransaction}: all or nothing). Shared by the executions of a cached plan, on any
 * thread.
 */
public final class TableRuns {
  private final Storage db;
  private final SqlTableDef def;

  public TableRuns(Storage db, SqlTableDef def) {
    this.db = db;
    this.def = def;
  }

  /** Runs a planned scan for one execution. */
  public Enumerable<Object[]> query(DataContext root, ScanSpec spec) {
    ScanColumns columns = lastColumns;
    if (columns == null || !columns.isFor(def, spec)) {
      columns = ScanColumns.of(def, spec);
      lastColumns = columns;
    }
    return new ScanExecutor(ConnectionTransaction.storage(root, db), def, spec, root,
        ConnectionSettings.of(root).readTimestamp(), columns).enumerable();
  }

  /**
   * The columns of the last spec {@link #query} ran, kept for its next executions: each planned
   * scan has runs of its own ({@code BasaltSqlTable.runs}), so one spec; were one to serve two,
   * they would take turns here, each run with its own.
   */
  private volatile ScanColumns lastColumns;

  /**
   * How a planned scan of this table that is its statement's only read runs: as one get when
   * it is a point read ({@link PointRead}: no statement snapshot needed), else by a
   * {@link ScanExecutor} per execution as {@link #query}.
   */
  public SoleScan soleScan(ScanSpec spec) {
    PointRead point = PointRead.of(def, spec);
    return point == null ? ctx -> query(ctx, spec)
        : ctx -> point.run(ConnectionTransaction.storage(ctx, db), ctx,
            ConnectionSettings.of(ctx).readTimestamp());
  }

  /** A scan that is its statement's only read, as the plan's code calls it. */
  @FunctionalInterface
  public interface SoleScan {
    /** The rows of one execution. */
    Enumerable<Object[]> rows(DataContext ctx);

    /** {@link #rows} of one column: the values themselves. */
    default Enumerable<Object> values(DataContext ctx) {
      return rows(ctx).select(row -> row[0]);
    }
  }

  /** {@link #query} for one-column rows: the values themselves. */
  public Enumerable<Object> queryScalar(DataContext root, ScanSpec spec) {
    return query(root, spec).select(row -> row[0]);
  }

  /** Runs a lookup join with this table on the right. */
  public Enumerable<Object[]> lookupJoin(Enumerable<Object[]> left, DataContext root,
      ScanSpec spec, LookupJoins.Plan plan) {
    return LookupJoins.join(left, root, ConnectionTransaction.storage(root, db), def, spec, plan);
  }

  /** Writes the rows of one execution, all or none: the update count. */
  public Enumerable<Long> modify(DataContext root, WriteSpec spec, Enumerable<?> rows) {
    return modify(root, spec, rows, true);
  }

  /**
   * Writes the rows of a JDBC batch as its statements would one by one: in auto-commit, the
   * rows before a failing one stay written (its update counts say which), as in H2.
   */
  public Enumerable<Long> modifyEach(DataContext root, WriteSpec spec, Enumerable<?> rows) {
    return modify(root, spec, rows, false);
  }

  private Enumerable<Long> modify(DataContext root, WriteSpec spec, Enumerable<?> rows,
      boolean whole) {
    Storage s = ConnectionTransaction.storage(root, db);
    long count = s instanceof io.basaltdb.storage.StorageTransaction tx
        ? ConnectionTransaction.statement(tx, root, def.table(),
            () -> new WriteExecutor(tx, def, spec, root).run(rows))
        : whole ? StatementTransaction.run(s, def, spec, root, rows)
        : io.basaltdb.sql.catalog.ForeignKeys.enforcedAt(s, def) ? eachAtomically(s, spec, root,
            rows)
        : new WriteExecutor(s, def, spec, root).run(rows);
    return org.apache.calcite.linq4j.Linq4j.singletonEnumerable(count);
  }

  /**
   * A batch's rows on a table with enforced foreign keys: each row atomic with its checks and
   * actions (its own transaction), the rows before a failing one written.
   */
  private long eachAtomically(Storage s, WriteSpec spec, DataContext root, Enumerable<?> rows) {
    long count = 0;
    for (Object row : rows) {
      try {
        count += StatementTransaction.run(s, def, spec, root,
            org.apache.calcite.linq4j.Linq4j.singletonEnumerable(row));
      } catch (RuntimeException e) {
        e.addSuppressed(new io.basaltdb.sql.exec.write.RowsWritten(count));
        throw e;
      }
    }
    return count;
  }

  /** Every row of the table as of {@code readTimestamp} (or the newest: -1), outside a plan. */
  public Enumerable<Object[]> all(long readTimestamp) {
    return new ScanExecutor(db, def, ScanSpec.all(def), null, readTimestamp).enumerable();
  }
}
