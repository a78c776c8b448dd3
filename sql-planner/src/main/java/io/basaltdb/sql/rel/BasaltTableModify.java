package io.basaltdb.sql.rel;

import io.basaltdb.sql.exec.TableRuns;
import io.basaltdb.sql.catalog.SqlColumn;
import io.basaltdb.sql.catalog.SqlTableDef;
import io.basaltdb.sql.pushdown.KeyConditions;
import io.basaltdb.sql.pushdown.Operand;
import io.basaltdb.sql.pushdown.ScanSpec;
import io.basaltdb.sql.pushdown.WriteSpec;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.adapter.enumerable.EnumerableConvention;
import org.apache.calcite.adapter.enumerable.EnumerableRel;
import org.apache.calcite.adapter.enumerable.EnumerableRelImplementor;
import org.apache.calcite.adapter.enumerable.JavaRowFormat;
import org.apache.calcite.adapter.enumerable.PhysType;
import org.apache.calcite.adapter.enumerable.PhysTypeImpl;
import org.apache.calcite.linq4j.tree.BlockBuilder;
import org.apache.calcite.linq4j.tree.Expression;
import org.apache.calcite.linq4j.tree.Expressions;
import org.apache.calcite.plan.Convention;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.plan.RelOptRule;
import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.prepare.Prepare;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelWriter;
import org.apache.calcite.rel.convert.ConverterRule;
import org.apache.calcite.rel.core.TableModify;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlKind;

/**
 * INSERT, UPSERT, UPDATE and DELETE of a Basalt table: Basalt's own table-modify (Calcite's
 * {@code EnumerableTableModify} has no UPSERT and finds rows to update by equality). Created
 * logical by the table's {@code toModificationRel}, made enumerable by {@link #RULE}; its
 * generated code hands the input rows to {@link TableRuns#modify} with a {@link WriteSpec}.
 * UPSERT is an INSERT marked by the SQL-to-rel conversion, which knows the statement's keyword
 * and its column list. {@code SET c = c + n} is recognized here and runs as an atomic increment.
 */
public final class BasaltTableModify extends TableModify implements EnumerableRel {
  private final PlannedTable basaltTable;
  private final WriteSpec spec;

  public BasaltTableModify(RelOptCluster cluster, RelTraitSet traits, RelOptTable table,
      Prepare.CatalogReader catalogReader, RelNode input, Operation operation,
      List<String> updateColumns, List<RexNode> sourceExpressions, boolean flattened,
      PlannedTable basaltTable, WriteSpec spec) {
    super(cluster, traits, table, catalogReader, input, operation, updateColumns,
        sourceExpressions, flattened);
    this.basaltTable = basaltTable;
    this.spec = spec != null ? spec : plan(basaltTable.definition(), operation, updateColumns,
        resolve(input, sourceExpressions, basaltTable.definition().columns().size()));
  }

  /** The same statement as an UPSERT naming {@code listed} columns (null: all). */
  public BasaltTableModify asUpsert(boolean upsert, List<Integer> listed) {
    WriteSpec s = new WriteSpec(upsert ? WriteSpec.Kind.UPSERT : WriteSpec.Kind.INSERT,
        listed != null ? listed : spec.listed(), List.of(), List.of());
    return new BasaltTableModify(getCluster(), getTraitSet(), getTable(), getCatalogReader(),
        getInput(), getOperation(), getUpdateColumnList(), getSourceExpressionList(),
        isFlattened(), basaltTable, s);
  }

  /** The same UPSERT, giving a new row the defaults of {@code columns}, which it does not name. */
  public BasaltTableModify withNewRowDefaults(List<Integer> columns) {
    return new BasaltTableModify(getCluster(), getTraitSet(), getTable(), getCatalogReader(),
        getInput(), getOperation(), getUpdateColumnList(), getSourceExpressionList(),
        isFlattened(), basaltTable, spec.withNewRowDefaults(columns));
  }

  /** The same UPSERT with an {@code ON DUPLICATE KEY} clause. */
  public BasaltTableModify withOnDuplicate(WriteSpec.OnDuplicate clause) {
    return new BasaltTableModify(getCluster(), getTraitSet(), getTable(), getCatalogReader(),
        getInput(), getOperation(), getUpdateColumnList(), getSourceExpressionList(),
        isFlattened(), basaltTable, spec.withOnDuplicate(clause));
  }

  public WriteSpec spec() {
    return spec;
  }

  /**
   * The SET expressions over the table's columns: Calcite's UPDATE computes them in a
   * projection beneath the table-modify (whose first fields are the table's columns) and
   * refers to its fields.
   */
  private static List<RexNode> resolve(RelNode input, List<RexNode> sources, int columns) {
    if (sources == null) {
      return null;
    }
    List<RexNode> out = new ArrayList<>();
    for (RexNode s : sources) {
      if (s instanceof RexInputRef ref && input instanceof org.apache.calcite.rel.core.Project p
          && ref.getIndex() < p.getProjects().size()
          && p.getInput().getRowType().getFieldCount() == columns) {
        out.add(p.getProjects().get(ref.getIndex()));
      } else {
        out.add(s);
      }
    }
    return out;
  }

  private static WriteSpec plan(SqlTableDef def, Operation op, List<String> updateColumns,
      List<RexNode> sources) {
    List<Integer> all = new ArrayList<>();
    for (int i = 0; i < def.columns().size(); i++) {
      all.add(i);
    }
    return switch (op) {
      case INSERT -> new WriteSpec(WriteSpec.Kind.INSERT, all, List.of(), List.of());
      case DELETE -> new WriteSpec(WriteSpec.Kind.DELETE, all, List.of(), List.of());
      case UPDATE -> {
        List<Integer> updated = new ArrayList<>();
        List<Operand> increments = new ArrayList<>();
        for (int u = 0; u < updateColumns.size(); u++) {
          int col = def.columnIndex(updateColumns.get(u));
          SqlColumn c = def.columns().get(col);
          if (c.isKey()) {
            throw new UnsupportedOperationException("cannot UPDATE primary key column "
                + c.name() + " of " + def.table() + "; DELETE the row and INSERT it instead");
          }
          updated.add(col);
          increments.add(increment(def, col, sources.get(u)));
        }
        yield new WriteSpec(WriteSpec.Kind.UPDATE, List.of(), updated, increments);
      }
      default -> throw new UnsupportedOperationException(op + " is not supported");
    };
  }

  /** For {@code col + n} or {@code col - literal} (possibly cast back), the amount; else null. */
  private static Operand increment(SqlTableDef def, int col, RexNode source) {
    RexNode e = source;
    if (e.getKind() == SqlKind.CAST) {
      e = ((RexCall) e).getOperands().get(0);
    }
    SqlKind kind = e.getKind() == SqlKind.CHECKED_PLUS ? SqlKind.PLUS
        : e.getKind() == SqlKind.CHECKED_MINUS ? SqlKind.MINUS : e.getKind();
    if (kind != SqlKind.PLUS && kind != SqlKind.MINUS) {
      return null;
    }
    List<RexNode> ops = ((RexCall) e).getOperands();
    boolean left = ops.get(0) instanceof RexInputRef r && r.getIndex() == col;
    boolean right = ops.get(1) instanceof RexInputRef r && r.getIndex() == col;
    var type = def.columns().get(col).type();
    if (!type.sqlType().getFamily().equals(org.apache.calcite.sql.type.SqlTypeFamily.NUMERIC)) {
      return null;
    }
    if (kind == SqlKind.PLUS && (left || right)) {
      return Operand.of(ops.get(left ? 1 : 0), type);
    }
    if (kind == SqlKind.MINUS && left) {
      Operand o = Operand.of(ops.get(1), type); // a literal or a parameter
      return o == null ? null : o.negate();
    }
    return null;
  }

  /**
   * For UPDATE and DELETE of a table without a primary key: the input with the hidden row key
   * added as its last field, so the writes can find their rows. The input must be the table's
   * scan under filters and a projection (a WHERE on the table's own columns).
   */
  public static RelNode exposeHiddenKey(RelNode input, SqlTableDef def) {
    if (input instanceof BasaltScan scan && scan.definition().table().equals(def.table())
        && scan.spec().aggregate() == null) {
      List<Integer> cols = new ArrayList<>(scan.spec().columns());
      cols.add(def.columns().size() - 1);
      return scan.with(scan.spec().withColumns(cols), scan.getTraitSet());
    }
    if (input instanceof org.apache.calcite.rel.core.Filter f) {
      return f.copy(f.getTraitSet(), exposeHiddenKey(f.getInput(), def), f.getCondition());
    }
    if (input instanceof org.apache.calcite.rel.core.Project p) {
      RelNode in = exposeHiddenKey(p.getInput(), def);
      List<RexNode> exprs = new ArrayList<>(p.getProjects());
      exprs.add(p.getCluster().getRexBuilder().makeInputRef(in,
          in.getRowType().getFieldCount() - 1));
      List<String> names = new ArrayList<>(p.getRowType().getFieldNames());
      names.add(SqlTableDef.HIDDEN_KEY);
      return org.apache.calcite.rel.logical.LogicalProject.create(in, p.getHints(), exprs, names,
          p.getVariablesSet());
    }
    throw new UnsupportedOperationException("UPDATE and DELETE of " + def.table() + ", a table "
        + "without a primary key, take only a WHERE on its own columns");
  }

  @Override
  public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
    return new BasaltTableModify(getCluster(), traitSet, getTable(), getCatalogReader(),
        sole(inputs), getOperation(), getUpdateColumnList(), getSourceExpressionList(),
        isFlattened(), basaltTable, spec);
  }

  @Override
  public RelWriter explainTerms(RelWriter pw) {
    RelWriter w = super.explainTerms(pw);
    if (spec.kind() == WriteSpec.Kind.UPSERT) {
      w = w.item("upsert", true);
    }
    if (spec.onDuplicate() != null) {
      w = w.item("onDuplicateKey", spec.onDuplicate().text());
    }
    List<String> incs = new ArrayList<>();
    for (int u = 0; u < spec.updated().size(); u++) {
      if (spec.increments().get(u) != null) {
        incs.add(basaltTable.definition().columns().get(spec.updated().get(u)).name() + " += "
            + spec.increments().get(u));
      }
    }
    return w.itemIf("atomicIncrement", String.join(", ", incs), !incs.isEmpty());
  }

  @Override
  public void register(RelOptPlanner planner) {
    planner.addRule(RULE);
    basaltTable.rules().forEach(planner::addRule);
  }

  @Override
  public Result implement(EnumerableRelImplementor implementor, Prefer pref) {
    BlockBuilder builder = new BlockBuilder();
    Result child = implementor.visitChild(this, 0, (EnumerableRel) getInput(), Prefer.ARRAY);
    Expression rows = builder.append("rows", child.block);
    if (child.physType.getFormat() != JavaRowFormat.ARRAY) {
      rows = builder.append("arrays", child.physType.convertTo(rows, JavaRowFormat.ARRAY));
    }
    Expression table = implementor.stash(basaltTable.runs(), TableRuns.class);
    Expression s = implementor.stash(spec.withCounterKey(counterKey(getInput())),
        WriteSpec.class);
    BatchWrite batch = BatchWrite.of(this, basaltTable);
    if (batch != null) {
      implementor.stash(batch, BatchWrite.class); // found with the plan by batch executions
    }
    java.lang.reflect.Method modify = org.apache.calcite.linq4j.tree.Types.lookupMethod(
        TableRuns.class, "modify", org.apache.calcite.DataContext.class, WriteSpec.class,
        org.apache.calcite.linq4j.Enumerable.class);
    builder.add(Expressions.return_(null, Expressions.call(table, modify,
        implementor.getRootExpression(), s,
        Expressions.convert_(rows, org.apache.calcite.linq4j.Enumerable.class))));
    PhysType physType = PhysTypeImpl.of(implementor.getTypeFactory(), getRowType(),
        JavaRowFormat.SCALAR);
    return implementor.result(physType, builder.toBlock());
  }

  /**
   * For {@code UPDATE t SET c = c + n WHERE <every key column = value>} of a BIGINT {@code c}
   * (one column added to, nothing else set, no other condition): the key conditions of the
   * scan beneath, which name the one row; else null. The writer then adds to the row's counter
   * in one engine operation without reading the row ({@link WriteSpec#counterKey}).
   */
  private KeyConditions counterKey(RelNode input) {
    SqlTableDef def = basaltTable.definition();
    if (spec.kind() != WriteSpec.Kind.UPDATE || spec.updated().size() != 1
        || spec.increments().get(0) == null || def.packed() || def.hasHiddenKey()
        || !def.checks().isEmpty() // the row must be read for them
        || def.columns().get(spec.updated().get(0)).type()
            != io.basaltdb.sql.type.ColumnType.BIGINT) {
      return null;
    }
    RelNode n = input;
    while (!(n instanceof BasaltScan)) {
      if (n instanceof org.apache.calcite.rel.core.Calc c
          && c.getProgram().getCondition() == null) {
        n = c.getInput();
      } else if (n instanceof org.apache.calcite.rel.core.Project
          || n instanceof BasaltToEnumerableConverter) {
        n = n.getInput(0);
      } else {
        return null;
      }
    }
    ScanSpec scan = ((BasaltScan) n).spec();
    KeyConditions keys = scan.keys();
    boolean oneRow = keys.isPointLookup(def) && keys.rangeCount() == 1
        && keys.intervals().isEmpty();
    return oneRow && scan.filters().isEmpty() && !scan.isLimited() && scan.asOf() == null
        && ((BasaltScan) n).definition().table().equals(def.table()) ? keys : null;
  }

  /** This (logical) table-modify made enumerable over {@code input}, already enumerable. */
  BasaltTableModify enumerable(RelNode input) {
    return new BasaltTableModify(getCluster(), getTraitSet().replace(EnumerableConvention.INSTANCE),
        getTable(), getCatalogReader(), input, getOperation(), getUpdateColumnList(),
        getSourceExpressionList(), isFlattened(), basaltTable, spec);
  }

  /** The logical table-modify becomes the enumerable one, over an enumerable input. */
  public static final RelOptRule RULE = ConverterRule.Config.INSTANCE
      .withConversion(BasaltTableModify.class, Convention.NONE, EnumerableConvention.INSTANCE,
          "BasaltTableModifyRule")
      .withRuleFactory(ToEnumerable::new)
      .toRule(ToEnumerable.class);

  static final class ToEnumerable extends ConverterRule {
    ToEnumerable(Config config) {
      super(config);
    }

    @Override
    public RelNode convert(RelNode rel) {
      BasaltTableModify m = (BasaltTableModify) rel;
      RelNode input = convert(m.getInput(),
          m.getInput().getTraitSet().replace(EnumerableConvention.INSTANCE));
      return new BasaltTableModify(m.getCluster(),
          m.getTraitSet().replace(EnumerableConvention.INSTANCE), m.getTable(),
          m.getCatalogReader(), input, m.getOperation(), m.getUpdateColumnList(),
          m.getSourceExpressionList(), m.isFlattened(), m.basaltTable, m.spec);
    }
  }
}
