package io.basaltdb.sql.rel;

import io.basaltdb.sql.catalog.SqlColumn;
import io.basaltdb.sql.exec.TableRuns;
import io.basaltdb.sql.pushdown.Operand;
import io.basaltdb.sql.pushdown.WriteSpec;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.DataContext;
import org.apache.calcite.avatica.remote.TypedValue;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Linq4j;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Calc;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.core.Values;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rex.RexDynamicParam;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.type.SqlTypeUtil;

/**
 * A prepared {@code INSERT} or {@code UPSERT ... VALUES (?, ...)} of one row of parameters and
 * literals (or of several rows of parameters, {@link #ofRows}: one statement, its rows written
 * as the statement's), run for a whole JDBC batch at once: every set of parameters becomes a
 * table row and all of them go through one {@link io.basaltdb.sql.exec.write.WriteExecutor} (puts grouped, one log
 * sync), instead of one Calcite execution per row (a data context, the generated code and a log
 * sync each). Found by {@link #of} when the statement is planned, stashed with the plan, used by
 * the connection's batch execution (the JDBC layer's {@code BasaltMeta.executeBatch}).
 *
 * <p>Only statements whose row is computed without Calcite are taken: each column's value is a
 * parameter of exactly the column's type (Calcite types a parameter in VALUES by its target
 * column, so there is no conversion to do) or a literal, so a batch row is the row Calcite's
 * generated code would have built. Anything else (casts, expressions, NEXT VALUE FOR) runs
 * row by row as before. Immutable.
 */
public final class BatchWrite {
  private final TableRuns table;
  private final WriteSpec spec;
  private final List<Operand> values;
  /** The rows one execution writes, each with {@link #rowParameters} parameters of its own. */
  private final int rows;
  private final int rowParameters;

  private BatchWrite(TableRuns table, WriteSpec spec, List<Operand> values, int rows,
      int rowParameters) {
    this.table = table;
    this.spec = spec;
    this.values = List.copyOf(values);
    this.rows = rows;
    this.rowParameters = rowParameters;
  }

  /** The batch form of an INSERT or UPSERT (its enumerable form), or null when it has none. */
  static BatchWrite of(BasaltTableModify modify, PlannedTable table) {
    WriteSpec spec = modify.spec();
    if (spec.kind() != WriteSpec.Kind.INSERT && spec.kind() != WriteSpec.Kind.UPSERT
        || !table.definition().checks().isEmpty() // checks run in the plan's input
        || spec.onDuplicate() != null) { // reads each row
      return null;
    }
    List<RexNode> exprs = singleRow(modify.getInput());
    List<SqlColumn> cols = table.definition().columns();
    RelDataType rowType = modify.getTable().getRowType();
    if (exprs == null || exprs.size() != cols.size() || rowType.getFieldCount() != cols.size()) {
      return null;
    }
    List<Operand> values = new ArrayList<>();
    for (int i = 0; i < exprs.size(); i++) {
      Operand o = operand(exprs.get(i), cols.get(i),
          rowType.getFieldList().get(i).getType(), modify.getCluster().getTypeFactory());
      if (o == null) {
        return null;
      }
      values.add(o);
    }
    return new BatchWrite(table.runs(), spec, values, 1, 0);
  }

  /**
   * The batch form of a write to {@code table} of {@code rows} rows (usually one) of
   * {@code rowParameters} parameters each ({@code VALUES (?, ?), (?, ?), ...}): {@code values}
   * holds, per table column, the operand its value comes from in the first row (parameters
   * {@code ?0} to {@code ?(rowParameters - 1)}); row {@code r}'s are the same read
   * {@code r * rowParameters} further on. One execution writes them all as one statement.
   */
  public static BatchWrite ofRows(PlannedTable table, WriteSpec spec, List<Operand> values,
      int rows, int rowParameters) {
    return new BatchWrite(table.runs(), spec, values, rows, rowParameters);
  }

  /** The rows one execution writes (more than one: a JDBC batch runs its executions each). */
  public int rowsPerExecution() {
    return rows;
  }

  /** The expressions of a one-row input computed from no input fields, or null. */
  private static List<RexNode> singleRow(RelNode input) {
    List<RexNode> exprs;
    RelNode below;
    if (input instanceof Calc calc) {
      var program = calc.getProgram();
      if (program.getCondition() != null) {
        return null;
      }
      exprs = new ArrayList<>();
      for (var ref : program.getProjectList()) {
        exprs.add(program.expandLocalRef(ref));
      }
      below = calc.getInput();
    } else if (input instanceof Project project) {
      exprs = project.getProjects();
      below = project.getInput();
    } else {
      return null;
    }
    return below instanceof Values v && v.getTuples().size() == 1 ? exprs : null;
  }

  private static Operand operand(RexNode e, SqlColumn c, RelDataType columnType,
      RelDataTypeFactory types) {
    if (e instanceof RexLiteral l && l.isNull()) {
      return Operand.constant(c.type(), null);
    }
    if (e instanceof RexDynamicParam p) {
      // a parameter typed exactly as its column: Calcite converts nothing
      return SqlTypeUtil.equalSansNullability(types, p.getType(), columnType)
          ? Operand.of(p, c.type()) : null;
    }
    return e instanceof RexLiteral ? Operand.of(e, c.type()) : null;
  }

  /**
   * Writes one row per parameter set, as the statement would row by row (rows before a failing
   * one stay written), with the data context of the connection; the rows written.
   */
  public long run(DataContext ctx, List<List<TypedValue>> batch) {
    if (rows != 1) {
      throw new IllegalStateException("a statement of " + rows + " rows runs its batch"
          + " execution by execution");
    }
    // rows are made as the writer takes them, so a bad value stops the batch where it is
    return table.modifyEach(ctx, spec, Linq4j.asEnumerable(batch).select(this::row)).first();
  }

  /** Writes the statement's one row, its parameters bound in {@code ctx}; the rows written. */
  public Enumerable<Long> runOnce(DataContext ctx) {
    if (rows == 1) {
      return table.modify(ctx, spec, Linq4j.singletonEnumerable(rowAt(ctx, 0)));
    }
    // made as the writer takes them, so a bad value stops the statement where it is
    return table.modify(ctx, spec, Linq4j.asEnumerable(new java.util.AbstractList<Object[]>() {
      @Override
      public Object[] get(int r) {
        return rowAt(ctx, r * rowParameters);
      }

      @Override
      public int size() {
        return rows;
      }
    }));
  }

  /** The row whose parameters begin at {@code offset}. */
  private Object[] rowAt(DataContext ctx, int offset) {
    Object[] row = new Object[values.size()];
    for (int i = 0; i < row.length; i++) {
      row[i] = values.get(i).bind(ctx, offset);
    }
    return row;
  }

  /**
   * A parameter's local form: a value already of its representation's class is its own (the
   * test {@code toLocal} makes, as a class comparison instead of an instance test).
   */
  private static Object local(TypedValue v) {
    if (v == null || v.value == null) {
      return null;
    }
    return v.value.getClass() == v.type.clazz ? v.value : v.toLocal();
  }

  private Object[] row(List<TypedValue> params) {
    List<Object> local = new ArrayList<>(params.size());
    for (TypedValue v : params) {
      local.add(local(v));
    }
    Object[] row = new Object[values.size()];
    for (int i = 0; i < row.length; i++) {
      row[i] = values.get(i).bindAll(local);
    }
    return row;
  }
}
