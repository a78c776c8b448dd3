package io.basaltdb.sql.rel;

import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.adapter.enumerable.AggAddContext;
import org.apache.calcite.adapter.enumerable.AggContext;
import org.apache.calcite.adapter.enumerable.AggImplementor;
import org.apache.calcite.adapter.enumerable.EnumUtils;
import org.apache.calcite.adapter.enumerable.EnumerableAggregateBase;
import org.apache.calcite.adapter.enumerable.StrictAggImplementor;
import org.apache.calcite.linq4j.tree.Expression;
import org.apache.calcite.linq4j.tree.Expressions;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.schema.FunctionParameter;
import org.apache.calcite.schema.ImplementableAggFunction;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.ReturnTypes;
import org.apache.calcite.sql.type.SqlReturnTypeInference;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.validate.SqlUserDefinedAggFunction;
import org.apache.calcite.util.Optionality;

/**
 * {@code SUM} of BIGINT values that fails with 22003 past the range of BIGINT instead of
 * wrapping, as Calcite's generated code does ({@code acc + x}). Applied to a finished
 * enumerable plan: each {@code SUM} or {@code $SUM0} of an aggregate computed in generated code
 * whose result is a BIGINT (SUMs of smaller integers are BIGINTs too, {@link
 * io.basaltdb.sql.type.BasaltTypeSystem}) becomes a function of the same name, type and
 * empty-group result whose accumulator adds with {@link Math#addExact}. SUMs pushed into a scan
 * are checked there ({@code Aggregation}); a SUM in a window ({@code OVER}) is not rewritten.
 */
public final class CheckedSums {
  private CheckedSums() {}

  private static final SqlUserDefinedAggFunction SUM = function("SUM", ReturnTypes.AGG_SUM);
  private static final SqlUserDefinedAggFunction SUM0 =
      function("$SUM0", ReturnTypes.AGG_SUM_EMPTY_IS_ZERO);

  private static SqlUserDefinedAggFunction function(String name, SqlReturnTypeInference type) {
    return new SqlUserDefinedAggFunction(new SqlIdentifier(name, SqlParserPos.ZERO),
        SqlKind.OTHER_FUNCTION, type, null, null, new Implementation(), false, false,
        Optionality.FORBIDDEN);
  }

  /** {@code root} with every BIGINT sum of its aggregates checked. */
  public static RelNode apply(RelNode root) {
    List<RelNode> inputs = root.getInputs();
    List<RelNode> next = new ArrayList<>(inputs.size());
    boolean changed = false;
    for (RelNode in : inputs) {
      RelNode c = apply(in);
      changed |= c != in;
      next.add(c);
    }
    RelNode node = changed ? root.copy(root.getTraitSet(), next) : root;
    if (node instanceof EnumerableAggregateBase && node instanceof Aggregate agg) {
      List<AggregateCall> calls = new ArrayList<>();
      boolean any = false;
      for (AggregateCall c : agg.getAggCallList()) {
        AggregateCall checked = checked(c);
        any |= checked != c;
        calls.add(checked);
      }
      if (any) {
        return agg.copy(agg.getTraitSet(), agg.getInput(), agg.getGroupSet(),
            agg.getGroupSets(), calls);
      }
    }
    return node;
  }

  private static AggregateCall checked(AggregateCall c) {
    SqlKind kind = c.getAggregation().getKind();
    if (c.getType().getSqlTypeName() != SqlTypeName.BIGINT
        || (kind != SqlKind.SUM && kind != SqlKind.SUM0)) {
      return c;
    }
    return AggregateCall.create(c.getParserPosition(), kind == SqlKind.SUM ? SUM : SUM0,
        c.isDistinct(), c.isApproximate(), c.ignoreNulls(), c.rexList, c.getArgList(),
        c.filterArg, c.distinctKeys, c.getCollation(), c.getType(), c.getName());
  }

  /** The function behind both: a checked running sum in a {@code long}. */
  private static final class Implementation implements ImplementableAggFunction {
    @Override
    public AggImplementor getImplementor(boolean windowContext) {
      return new StrictAggImplementor() {
        @Override
        protected void implementNotNullAdd(AggContext info, AggAddContext add) {
          Expression acc = add.accumulator().get(0);
          Expression x = EnumUtils.convert(add.arguments().get(0), long.class);
          accAdvance(add, acc, Expressions.call(Math.class, "addExact",
              EnumUtils.convert(acc, long.class), x));
        }
      };
    }

    @Override
    public RelDataType getReturnType(RelDataTypeFactory typeFactory) {
      return typeFactory.createSqlType(SqlTypeName.BIGINT);
    }

    @Override
    public List<FunctionParameter> getParameters() {
      return List.of();
    }
  }
}
