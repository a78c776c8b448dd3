package io.basaltdb.sql.prepare;

import io.basaltdb.sql.SqlStateException;
import io.basaltdb.sql.SqlStates;
import io.basaltdb.sql.catalog.SqlTableDef;
import io.basaltdb.sql.constraint.CheckConstraints;
import io.basaltdb.sql.parser.SqlInsertOnDuplicateKey;
import io.basaltdb.sql.pushdown.WriteSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;
import java.util.function.Function;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.core.TableModify;
import org.apache.calcite.rel.logical.LogicalFilter;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexExecutorImpl;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlUpdate;
import org.apache.calcite.sql.validate.SqlValidator;
import org.apache.calcite.sql2rel.ConvertToChecked;

/**
 * Plans the {@code ON DUPLICATE KEY} clause of an UPSERT or INSERT
 * ({@link SqlInsertOnDuplicateKey}). Its assignments are an UPDATE of the row that exists: they
 * are validated and converted as {@code UPDATE t SET c = e, ...} is (types, assignment casts,
 * parameters typed from their columns, checked arithmetic), and the new values, with the
 * table's CHECK constraints on the row after them, become expressions over the table's row,
 * compiled once per plan into a function of that row ({@link WriteSpec.OnDuplicate#compute}),
 * which the writer calls under the row's lock with the row as it is.
 */
final class OnDuplicateKeys {
  private OnDuplicateKeys() {}

  /**
   * The clause of {@code call} on table {@code def}; {@code convertUpdate} validates and
   * converts an UPDATE to Calcite's table-modify, {@code convert} turns a catalog expression
   * into a row expression (for the checks).
   */
  static WriteSpec.OnDuplicate plan(SqlInsertOnDuplicateKey call, SqlTableDef def,
      SqlValidator validator, Function<SqlUpdate, RelNode> convertUpdate,
      BiFunction<SqlNode, Map<String, RexNode>, RexNode> convert, RexBuilder rex) {
    if (def.hasHiddenKey()) {
      throw new SqlStateException(SqlStates.FEATURE_NOT_SUPPORTED,
          "ON DUPLICATE KEY needs a primary key, and "
          + def.table() + " has none: every row written to it is a new row");
    }
    WriteSpec.OnDuplicate.Action action =
        WriteSpec.OnDuplicate.Action.valueOf(call.action().name());
    if (action == WriteSpec.OnDuplicate.Action.IGNORE) {
      return new WriteSpec.OnDuplicate(action, List.of(), null, List.of(), "IGNORE");
    }
    if (def.packed()) {
      throw new SqlStateException(SqlStates.FEATURE_NOT_SUPPORTED,
          "ON DUPLICATE KEY " + action + " of " + def.table()
          + ": it stores each family in one cell (IMMUTABLE_STORAGE_SCHEME="
          + "SINGLE_CELL_ARRAY_WITH_OFFSETS), so rows are written whole");
    }
    if (!(call.getTargetTable() instanceof SqlIdentifier target)) {
      throw new SqlStateException(SqlStates.FEATURE_NOT_SUPPORTED,
          "ON DUPLICATE KEY takes a plain table name");
    }
    List<SqlNode> columns = new ArrayList<>();
    List<Integer> updated = new ArrayList<>();
    for (SqlNode n : call.targets()) {
      SqlIdentifier id = (SqlIdentifier) n;
      String name = id.names.get(id.names.size() - 1);
      columns.add(new SqlIdentifier(name, id.getParserPosition()));
    }
    SqlUpdate update = new SqlUpdate(call.getParserPosition(),
        new SqlIdentifier(target.names, target.getParserPosition()),
        new SqlNodeList(columns, call.targets().getParserPosition()),
        new SqlNodeList(call.expressions().getList(), call.expressions().getParserPosition()),
        null, null, null);
    validator.validate(update);
    io.basaltdb.sql.exec.write.AssignedLiterals.check(update, def); // before folding cuts them
    io.basaltdb.sql.exec.write.GeneratedAlways.check(update, def);
    for (SqlNode n : columns) {
      String name = ((SqlIdentifier) n).getSimple();
      if (def.columns().get(def.columnIndex(name)).isKey()) {
        throw new SqlStateException(SqlStates.FEATURE_NOT_SUPPORTED,
            "ON DUPLICATE KEY cannot update primary key column "
            + name + " of " + def.table() + ": the key is what makes the row a duplicate");
      }
    }
    TableModify modify = (TableModify) convertUpdate.apply(update);
    for (String name : modify.getUpdateColumnList()) {
      updated.add(def.columnIndex(name));
    }
    RelNode input = io.basaltdb.sql.rel.AssignmentCasts.forUpdate(modify.getInput(),
        modify.getUpdateColumnList(), def);
    List<RexNode> values = new ArrayList<>(
        io.basaltdb.sql.rel.AssignmentCasts.sources(modify.getSourceExpressionList(), input, rex));
    RelNode row = input;
    while (row instanceof Project p) { // the values as expressions of the table's row
      for (int i = 0; i < values.size(); i++) {
        values.set(i, RelOptUtil.pushPastProject(values.get(i), p));
      }
      row = p.getInput();
    }
    if (row.getRowType().getFieldCount() != def.columns().size()) {
      throw new IllegalStateException("ON DUPLICATE KEY of " + def.table()
          + ": the assignments did not convert to expressions of its row: " + input.explain());
    }
    RelNode scan = row;
    List<String> names = modify.getUpdateColumnList();
    List<RexNode> newValues = List.copyOf(values);
    RelNode checked = CheckConstraints.apply(def, scan, col -> names.contains(col)
        ? newValues.get(names.indexOf(col)) : rex.makeInputRef(scan, def.columnIndex(col)),
        null, convert);
    if (checked instanceof LogicalFilter f) {
      values.add(f.getCondition()); // evaluated for its refusal (23514), after the values
    }
    Project exprs = (Project) new ConvertToChecked(rex, true).visit(
        LogicalProject.create(scan, List.of(), values, (List<String>) null, java.util.Set.of()));
    var compute = RexExecutorImpl.getExecutable(rex, exprs.getProjects(), scan.getRowType())
        .getFunction();
    List<String> text = new ArrayList<>();
    for (int u = 0; u < names.size(); u++) {
      text.add(names.get(u) + " = " + exprs.getProjects().get(u));
    }
    List<Integer> reads = new ArrayList<>();
    for (int col : RelOptUtil.InputFinder.bits(exprs.getProjects(), null)) {
      if (!def.columns().get(col).isKey()) {
        reads.add(col);
      }
    }
    return new WriteSpec.OnDuplicate(action, updated, compute, reads,
        action + " " + String.join(", ", text));
  }
}
