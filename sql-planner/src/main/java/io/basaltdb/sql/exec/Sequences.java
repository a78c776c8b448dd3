package io.basaltdb.sql.exec;

import io.basaltdb.sql.catalog.SqlCatalog;
import io.basaltdb.sql.StorageSchema;
import io.basaltdb.storage.Storage;
import io.basaltdb.storage.TableName;
import java.util.List;
import org.apache.calcite.DataContext;
import org.apache.calcite.adapter.enumerable.CallImplementor;
import org.apache.calcite.linq4j.tree.Expressions;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.schema.FunctionParameter;
import org.apache.calcite.schema.ImplementableFunction;
import org.apache.calcite.schema.ScalarFunction;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.OperandTypes;
import org.apache.calcite.sql.type.ReturnTypes;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.validate.SqlUserDefinedFunction;

/**
 * {@code NEXT VALUE FOR seq}: each evaluation draws one value from the sequence's engine
 * counter ({@link SqlCatalog#nextValue}), so values are unique across connections and
 * restarts. Calcite's own implementation keeps sequences in memory; Basalt's SQL-to-rel
 * conversion replaces the call with {@link #NEXT_VALUE}, never constant-folded.
 */
public final class Sequences {
  private Sequences() {}

  /** Draws the next value (called by the generated code). */
  public static long next(DataContext root, String schema, String name) {
    Storage db = StorageSchema.of(root.getRootSchema());
    String namespace = schema.equals("DEFAULT") ? TableName.DEFAULT_NAMESPACE : schema;
    return new SqlCatalog(db).nextValue(new TableName(namespace, name));
  }

  private static final class Function implements ScalarFunction, ImplementableFunction {
    @Override
    public RelDataType getReturnType(RelDataTypeFactory f) {
      return f.createSqlType(SqlTypeName.BIGINT);
    }

    @Override
    public List<FunctionParameter> getParameters() {
      return List.of();
    }

    @Override
    public CallImplementor getImplementor() {
      return (translator, call, nullAs) -> {
        List<org.apache.calcite.linq4j.tree.Expression> args = translator.translateList(
            call.getOperands(), List.of(String.class, String.class));
        return Expressions.call(Sequences.class, "next", translator.getRoot(), args.get(0),
            args.get(1));
      };
    }
  }

  /** {@code BASALT_NEXT_VALUE(schema, name)}: not deterministic, so never folded or reused. */
  public static final SqlUserDefinedFunction NEXT_VALUE = new SqlUserDefinedFunction(
      new SqlIdentifier("BASALT_NEXT_VALUE", SqlParserPos.ZERO), SqlKind.OTHER_FUNCTION,
      ReturnTypes.BIGINT, null, OperandTypes.operandMetadata(
          List.of(org.apache.calcite.sql.type.SqlTypeFamily.STRING,
              org.apache.calcite.sql.type.SqlTypeFamily.STRING),
          f -> List.of(f.createSqlType(SqlTypeName.VARCHAR), f.createSqlType(SqlTypeName.VARCHAR)),
          i -> "arg" + i, i -> false),
      new Function()) {
    @Override
    public boolean isDeterministic() {
      return false;
    }

    @Override
    public boolean isDynamicFunction() {
      return true;
    }
  };
}
