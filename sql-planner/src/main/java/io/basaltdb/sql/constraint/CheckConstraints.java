package io.basaltdb.sql.constraint;

import io.basaltdb.sql.SqlStates;
import io.basaltdb.sql.SqlStateException;
import io.basaltdb.sql.catalog.SqlColumn;
import io.basaltdb.sql.catalog.SqlTableDef;
import io.basaltdb.sql.exec.LazyScalarFunction;
import io.basaltdb.sql.parser.SqlCreateBasaltTable;
import io.basaltdb.storage.InvalidArgumentException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.logical.LogicalFilter;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlFunction;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlSyntax;
import org.apache.calcite.sql.SqlUnresolvedFunction;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.ReturnTypes;
import org.apache.calcite.sql.util.SqlShuttle;
import org.apache.calcite.sql.validate.SqlUserDefinedFunction;

/**
 * CHECK constraints ({@code c INT CHECK (c > 0)}, {@code [CONSTRAINT name] CHECK (a < b)}). In
 * the catalog a check is a name and the SQL text of its condition over the table's columns
 * (Calcite's dialect; functions resolved against the standard operator table when the table
 * is made, so a misspelled one is refused then). Every write plan of the table checks each
 * row it writes before the write: INSERT and UPSERT on the row they give, UPDATE on the row
 * after its assignments; a row whose condition is FALSE is refused with 23514 naming the
 * check and table (UNKNOWN passes, as the standard says). An UPSERT must name every column
 * its table's checks read (it writes only what it names, so the row's other values are not
 * known). The check is a filter that throws, placed on the plan's input, so each way of
 * running the plan (prepared, literal, batched) runs it; plans that write without that input
 * (direct plans, batched one-row writes, counter increments) step aside for such tables.
 */
public final class CheckConstraints {
  private CheckConstraints() {}

  /** True, or a refusal (23514) when {@code ok} is FALSE. Called by generated code. */
  public static boolean ok(Boolean ok, String table, String check) {
    if (Boolean.FALSE.equals(ok)) {
      throw new SqlStateException(SqlStates.CHECK_VIOLATION,
          "the row violates CHECK constraint " + check
          + " of table " + table);
    }
    return true;
  }

  /**
   * The operator of {@link #ok}: never folded at planning (it may throw); its code generator
   * made when a plan with a CHECK first compiles ({@link LazyScalarFunction}).
   */
  private static final SqlFunction OK = new SqlUserDefinedFunction(
      new SqlIdentifier("BASALT_CHECK", SqlParserPos.ZERO), SqlKind.OTHER_FUNCTION,
      ReturnTypes.BOOLEAN_NOT_NULL, null, null,
      LazyScalarFunction.of(CheckConstraints.class, "ok")) {
    @Override
    public boolean isDeterministic() {
      return false;
    }
  };

  /** The checks {@code create} declares, named and checked against its columns. */
  public static List<SqlTableDef.Check> of(SqlCreateBasaltTable create,
      List<SqlColumn> columns) {
    Set<String> names = new HashSet<>();
    Set<String> cols = new HashSet<>();
    columns.forEach(c -> cols.add(c.name()));
    String table = create.name.names.get(create.name.names.size() - 1);
    List<SqlTableDef.Check> out = new ArrayList<>();
    int n = 0;
    for (SqlCreateBasaltTable.Check c : create.checks) {
      n++;
      String name = c.name() != null ? c.name().getSimple()
          : (table + "_CHECK" + n).toUpperCase(Locale.ROOT);
      if (!names.add(name)) {
        throw new InvalidArgumentException("table " + create.name
            + " has two constraints named " + name);
      }
      SqlNode resolved = resolve(c.condition(), cols, name);
      out.add(new SqlTableDef.Check(name, CatalogExpressions.text(resolved)));
    }
    return out;
  }

  /** Refuses to drop a column a check reads. */
  public static void checkNotUsed(SqlTableDef def, String column) {
    Set<String> cols = new HashSet<>();
    def.columns().forEach(c -> cols.add(c.name()));
    for (SqlTableDef.Check c : def.checks()) {
      if (columnsOf(parse(c.condition(), cols), cols).contains(column)) {
        throw new InvalidArgumentException("column " + column + " of " + def.table()
            + " is read by CHECK " + c.name() + "; drop the table's check first");
      }
    }
  }

  /**
   * {@code input} (rows of the table's columns as a write gives them) with every check of
   * {@code def} applied to each row; {@code column} gives a column's value in {@code input}'s
   * terms and {@code convert} turns a condition into a row expression. {@code named}: the
   * columns an UPSERT names (null for other writes).
   */
  public static RelNode apply(SqlTableDef def, RelNode input, Function<String, RexNode> column,
      Set<String> named, java.util.function.BiFunction<SqlNode, Map<String, RexNode>, RexNode>
          convert) {
    if (def.checks().isEmpty()) {
      return input;
    }
    Set<String> cols = new HashSet<>();
    def.columns().forEach(c -> cols.add(c.name()));
    RexBuilder rex = input.getCluster().getRexBuilder();
    List<RexNode> conditions = new ArrayList<>();
    for (SqlTableDef.Check c : def.checks()) {
      SqlNode condition = parse(c.condition(), cols);
      Set<String> reads = columnsOf(condition, cols);
      if (named != null && reads.stream().noneMatch(named::contains)) {
        continue; // the UPSERT leaves all it reads as they are
      }
      Map<String, RexNode> values = new LinkedHashMap<>();
      for (String col : reads) {
        if (named != null && !named.contains(col)) {
          throw new SqlStateException(SqlStates.FEATURE_NOT_SUPPORTED,
              "UPSERT INTO " + def.table() + " must name "
              + "column " + col + ", which CHECK " + c.name() + " reads: an UPSERT writes "
              + "only the columns it names");
        }
        values.put(col, column.apply(col));
      }
      RexNode value = convert.apply(condition, values);
      conditions.add(rex.makeCall(OK, value, rex.makeLiteral(def.table().toString()),
          rex.makeLiteral(c.name())));
    }
    return conditions.isEmpty() ? input : LogicalFilter.create(input,
        org.apache.calcite.rex.RexUtil.composeConjunction(rex, conditions));
  }

  private static Set<String> columnsOf(SqlNode condition, Set<String> cols) {
    Set<String> used = new java.util.TreeSet<>();
    condition.accept(new SqlShuttle() {
      @Override
      public SqlNode visit(SqlIdentifier id) {
        if (id.isSimple() && cols.contains(id.getSimple())) {
          used.add(id.getSimple());
        }
        return id;
      }
    });
    return used;
  }

  /**
   * {@code condition} with its function names resolved to the standard operators and bare
   * words such as CURRENT_DATE made calls; a name that is neither a column nor a function is
   * refused (22023).
   */
  private static SqlNode resolve(SqlNode condition, Set<String> cols, String check) {
    return condition.accept(new SqlShuttle() {
      @Override
      public SqlNode visit(SqlIdentifier id) {
        if (id.isSimple() && cols.contains(id.getSimple())) {
          return id;
        }
        SqlOperator f = CatalogExpressions.niladic(id);
        if (f == null) {
          throw new InvalidArgumentException("CHECK " + check + " names " + id
              + ", which is not a column of the table");
        }
        return f.createCall(id.getParserPosition());
      }

      @Override
      public SqlNode visit(SqlCall call) {
        SqlCall c = (SqlCall) super.visit(call);
        if (c instanceof SqlBasicCall b && b.getOperator() instanceof SqlUnresolvedFunction u) {
          SqlOperator f = CatalogExpressions.standard(u.getNameAsId(), SqlSyntax.FUNCTION);
          if (f == null) {
            throw new SqlStateException(SqlStates.FEATURE_NOT_SUPPORTED, "CHECK " + check
                + " calls " + u.getName() + ", which is not a standard function");
          }
          b.setOperator(f);
        }
        return c;
      }
    });
  }

  /** A check's condition from its catalog text, functions resolved. */
  private static SqlNode parse(String text, Set<String> cols) {
    return resolve(CatalogExpressions.parse(text, "a CHECK"), cols, text);
  }
}
