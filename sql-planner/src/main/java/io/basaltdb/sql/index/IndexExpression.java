package io.basaltdb.sql.index;

import io.basaltdb.sql.SqlStates;
import io.basaltdb.sql.SqlStateException;
import io.basaltdb.sql.catalog.SqlColumn;
import io.basaltdb.sql.catalog.SqlTableDef;
import io.basaltdb.sql.type.BasaltTypeSystem;
import io.basaltdb.sql.type.ColumnType;
import io.basaltdb.storage.InvalidArgumentException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TimeZone;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.calcite.DataContext;
import org.apache.calcite.DataContexts;
import org.apache.calcite.linq4j.function.Function1;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexExecutorImpl;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.schema.SchemaPlus;
import org.apache.calcite.schema.impl.AbstractTable;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.dialect.CalciteSqlDialect;
import org.apache.calcite.tools.FrameworkConfig;
import org.apache.calcite.tools.Frameworks;
import org.apache.calcite.tools.Planner;
import org.apache.calcite.util.ImmutableBitSet;

/**
 * A key part of a functional index ({@code CREATE INDEX i ON t (UPPER(name))}): an expression
 * of the table's columns, kept as SQL text (Calcite's dialect, identifiers quoted), planned by
 * Calcite against the table's row type (so its {@link #node} is the expression a query over the
 * table writes the same way, input {@code $i} = table column {@code i}, its arithmetic checked
 * as a statement's is) and compiled by
 * Calcite's expression compiler to compute the value an entry is keyed by from a row's
 * values. Refused: expressions that are not deterministic (CURRENT_TIMESTAMP, RAND), of no
 * column, with sub-queries or aggregates, or of a type an index key cannot hold. Compiled
 * once per table definition and text ({@link #of}). Immutable and thread-safe.
 */
public final class IndexExpression {
  private static final Map<List<Object>, IndexExpression> COMPILED = new ConcurrentHashMap<>();

  private final String text;
  private final RexNode node;
  private final SqlColumn column;
  private final ImmutableBitSet inputs;
  private final Function1<DataContext, Object[]> code;

  private IndexExpression(String text, RexNode node, SqlColumn column,
      Function1<DataContext, Object[]> code) {
    this.text = text;
    this.node = node;
    this.column = column;
    this.inputs = org.apache.calcite.plan.RelOptUtil.InputFinder.bits(node);
    this.code = code;
  }

  /** The SQL text to keep for {@code expression} as written in CREATE INDEX. */
  public static String textOf(SqlNode expression) {
    return expression.toSqlString(CalciteSqlDialect.DEFAULT).getSql();
  }

  /** {@code text} over {@code table}, compiled (cached per table definition and text). */
  public static IndexExpression of(SqlTableDef table, String text) {
    if (COMPILED.size() > 1_000) {
      COMPILED.clear(); // definitions of tables long altered or dropped: compiled again if used
    }
    return COMPILED.computeIfAbsent(List.of(table, text), k -> compile(table, text));
  }

  private static IndexExpression compile(SqlTableDef def, String text) {
    SchemaPlus root = Frameworks.createRootSchema(false);
    root.add("T", new AbstractTable() {
      @Override
      public RelDataType getRowType(RelDataTypeFactory f) {
        RelDataTypeFactory.Builder b = f.builder();
        for (int i = 0; i < def.visibleColumnCount(); i++) {
          SqlColumn c = def.columns().get(i);
          b.add(c.name(), c.sqlType(f));
        }
        return b.build();
      }
    });
    FrameworkConfig config = Frameworks.newConfigBuilder().defaultSchema(root)
        .typeSystem(BasaltTypeSystem.INSTANCE).build();
    RexNode node;
    RelDataType rowType;
    RexBuilder rexBuilder;
    Planner planner = Frameworks.getPlanner(config);
    try {
      SqlNode parsed = planner.parse("SELECT " + text + " FROM \"T\"");
      RelNode rel = planner.rel(planner.validate(parsed)).project();
      // as a statement's arithmetic is (BasaltPrepare): checked, so the query's expression
      // and the index's are the same
      rel = new org.apache.calcite.sql2rel.ConvertToChecked(rel.getCluster().getRexBuilder(),
          true).visit(rel);
      if (!(rel instanceof Project p) || p.getProjects().size() != 1) {
        throw new IllegalArgumentException("not a single expression");
      }
      node = p.getProjects().get(0);
      rowType = p.getInput().getRowType();
      rexBuilder = p.getCluster().getRexBuilder();
    } catch (Exception e) {
      throw new SqlStateException(SqlStates.SYNTAX_ERROR,
          "index expression " + text + " on " + def.table()
          + " is not valid: " + rootMessage(e), e);
    } finally {
      planner.close();
    }
    if (!RexUtil.isDeterministic(node) || RexUtil.isConstant(node) || dynamic(node)) {
      throw new SqlStateException(SqlStates.SYNTAX_ERROR,
          "index expression " + text + " on " + def.table()
          + " must be a deterministic expression of the table's columns", null);
    }
    ColumnType type = null;
    for (ColumnType t : ColumnType.values()) {
      if (t.sqlType() == node.getType().getSqlTypeName() && t != ColumnType.ARRAY
          && t != ColumnType.MAP) {
        type = t;
      }
    }
    if (type == null) {
      throw new SqlStateException(SqlStates.SYNTAX_ERROR,
          "index expression " + text + " on " + def.table()
          + " is of type " + node.getType() + ", which an index key cannot hold", null);
    }
    RelDataType t = node.getType();
    int precision = t.getPrecision() == RelDataType.PRECISION_NOT_SPECIFIED ? 0
        : t.getPrecision();
    int scale = t.getScale() == RelDataType.SCALE_NOT_SPECIFIED ? 0 : t.getScale();
    SqlColumn column = new SqlColumn(text, type, precision, scale, true, -1, false, null);
    Function1<DataContext, Object[]> code =
        RexExecutorImpl.getExecutable(rexBuilder, List.of(node), rowType).getFunction();
    return new IndexExpression(text, node, column, code);
  }

  /** True when {@code node} calls a function whose value depends on when it runs. */
  private static boolean dynamic(RexNode node) {
    boolean[] found = {false};
    node.accept(new org.apache.calcite.rex.RexVisitorImpl<Void>(true) {
      @Override
      public Void visitCall(org.apache.calcite.rex.RexCall call) {
        found[0] |= call.getOperator().isDynamicFunction();
        return super.visitCall(call);
      }
    });
    return found[0];
  }

  private static String rootMessage(Throwable e) {
    Throwable t = e;
    while (t.getCause() != null && t.getCause() != t) {
      t = t.getCause();
    }
    return t.getMessage() == null ? t.toString() : t.getMessage();
  }

  /** The expression as written in the catalog. */
  public String text() {
    return text;
  }

  /** The planned expression over the table's row type. */
  public RexNode node() {
    return node;
  }

  /** Its value as a column (name: the text; type, precision and scale of the expression). */
  public SqlColumn column() {
    return column;
  }

  /** The table columns it reads. */
  public ImmutableBitSet inputs() {
    return inputs;
  }

  /** Its value for a row ({@code row}: every table column, in internal form). */
  public Object evaluate(Object[] row) {
    Map<String, Object> vars = new HashMap<>(4);
    vars.put("inputRecord", row);
    vars.put(DataContext.Variable.TIME_ZONE.camelName, TimeZone.getTimeZone("UTC"));
    Object[] out;
    try {
      out = code.apply(DataContexts.of(vars));
    } catch (ArithmeticException e) {
      throw new SqlStateException(SqlStates.NUMERIC_OUT_OF_RANGE,
          "index expression " + text + " is out of range"
          + " for a row: " + rootMessage(e));
    } catch (RuntimeException e) {
      throw new InvalidArgumentException("index expression " + text + " failed on a row: "
          + rootMessage(e));
    }
    return out == null ? null : out[0];
  }
}
