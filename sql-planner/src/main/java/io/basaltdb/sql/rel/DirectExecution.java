package io.basaltdb.sql.rel;

import io.basaltdb.sql.pushdown.ScanSpec;
import java.lang.reflect.Type;
import java.util.function.Function;
import org.apache.calcite.DataContext;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelRoot;
import org.apache.calcite.runtime.Bindable;
import org.apache.calcite.runtime.Typed;

/**
 * Plans run without generated code (issue 11): a plan that is only a Basalt scan (filters,
 * projection, limit and order all pushed into it), or a write of one row of literals and
 * parameters ({@link BatchWrite}), is run by calling what its generated code would call, so
 * preparing it compiles nothing (Janino's compilation is most of a new statement's cost, and
 * most of a cold JVM's first statements). Anything else is compiled as before.
 */
public final class DirectExecution implements Bindable<Object>, Typed {
  private final Type elementType;
  private final Function<DataContext, Enumerable<?>> run;
  private final BatchWrite batch;

  private DirectExecution(Type elementType, Function<DataContext, Enumerable<?>> run,
      BatchWrite batch) {
    this.elementType = elementType;
    this.run = run;
    this.batch = batch;
  }

  /** The direct execution of {@code root}, or null when it needs generated code. */
  public static DirectExecution of(RelRoot root) {
    if (!root.isRefTrivial()) {
      return null;
    }
    RelNode rel = root.rel;
    if (rel instanceof BasaltToEnumerableConverter c && c.getInput() instanceof BasaltScan scan) {
      return scan(scan.basaltTable(), scan.spec(), rel.getRowType().getFieldCount() == 1);
    }
    if (rel instanceof BasaltTableModify m) {
      PlannedTable table = m.getTable().unwrap(PlannedTable.class);
      BatchWrite b = table == null ? null : BatchWrite.of(m, table);
      if (b != null) {
        return write(b);
      }
    }
    return null;
  }

  /** The direct execution of a scan of {@code table} (one column: its values themselves). */
  public static DirectExecution scan(PlannedTable basalt, ScanSpec spec, boolean oneColumn) {
    io.basaltdb.sql.exec.TableRuns.SoleScan scan = basalt.runs().soleScan(spec);
    return oneColumn ? new DirectExecution(Object.class, scan::values, null)
        : new DirectExecution(Object[].class, scan::rows, null);
  }

  /** The direct execution of a write of one row. */
  public static DirectExecution write(BatchWrite b) {
    return new DirectExecution(Long.class, ctx -> b.runOnce(ctx), b);
  }

  /** The statement's batch plan, if it is a write of one row. */
  public BatchWrite batchWrite() {
    return batch;
  }

  @Override
  @SuppressWarnings("unchecked")
  public Enumerable<Object> bind(DataContext dataContext) {
    return (Enumerable<Object>) run.apply(dataContext);
  }

  @Override
  public Type getElementType() {
    return elementType;
  }
}
