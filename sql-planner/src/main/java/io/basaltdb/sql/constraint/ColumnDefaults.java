package io.basaltdb.sql.constraint;

import io.basaltdb.sql.SqlStateException;
import io.basaltdb.sql.SqlStates;
import io.basaltdb.sql.catalog.ColumnValues;
import io.basaltdb.sql.catalog.SqlColumn;
import io.basaltdb.sql.catalog.SqlTableDef;
import io.basaltdb.storage.InvalidArgumentException;
import java.math.BigDecimal;
import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.schema.ColumnStrategy;
import org.apache.calcite.sql.SqlCharStringLiteral;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNumericLiteral;
import org.apache.calcite.sql.util.SqlBasicVisitor;
import org.apache.calcite.sql.util.SqlShuttle;
import org.apache.calcite.sql2rel.InitializerContext;
import org.apache.calcite.sql2rel.NullInitializerExpressionFactory;

/**
 * Column {@code DEFAULT}s. In the catalog a default is the SQL text of a constant expression
 * (a literal, {@code CURRENT_TIMESTAMP}, a function of constants; never a column) or a draw
 * from a sequence ({@code NEXT VALUE FOR seq}: an identity column), written by
 * {@link #text} when the table is made. An INSERT that leaves the column out, or writes
 * {@code DEFAULT} in its VALUES, gets the expression, evaluated per row by the statement's
 * own plan (Calcite fills omitted INSERT columns from this table's initializer factory); an
 * UPSERT leaves the columns it does not name as they are, as it always does. A literal that
 * cannot be the column's value is refused when the table is made, with the SQLState its
 * INSERT would have had.
 */
public final class ColumnDefaults extends NullInitializerExpressionFactory {
  private final SqlTableDef def;

  public ColumnDefaults(SqlTableDef def) {
    this.def = def;
  }

  @Override
  public ColumnStrategy generationStrategy(RelOptTable table, int iColumn) {
    return def.defaults().containsKey(name(table, iColumn)) ? ColumnStrategy.DEFAULT
        : super.generationStrategy(table, iColumn);
  }

  @Override
  public RexNode newColumnDefaultValue(RelOptTable table, int iColumn,
      InitializerContext context) {
    String text = def.defaults().get(name(table, iColumn));
    if (text == null) {
      return super.newColumnDefaultValue(table, iColumn, context);
    }
    RelDataType type = table.getRowType().getFieldList().get(iColumn).getType();
    RexNode value = context.convertExpression(parse(text));
    return context.getRexBuilder().ensureType(type, value, true);
  }

  private static String name(RelOptTable table, int iColumn) {
    return table.getRowType().getFieldList().get(iColumn).getName();
  }

  /** The catalog text of column {@code c}'s {@code DEFAULT value}, checked. */
  public static String text(SqlColumn c, SqlNode value) {
    value.accept(new SqlBasicVisitor<Void>() {
      @Override
      public Void visit(org.apache.calcite.sql.SqlCall call) {
        if (call.getOperator().getKind() == org.apache.calcite.sql.SqlKind.NEXT_VALUE) {
          return null; // DEFAULT NEXT VALUE FOR seq: an identity drawn per row
        }
        return super.visit(call);
      }

      @Override
      public Void visit(SqlIdentifier id) {
        if (CatalogExpressions.niladic(id) != null) {
          return null; // CURRENT_TIMESTAMP and its kind
        }
        throw new InvalidArgumentException("the DEFAULT of column " + c.name()
            + " names " + id + "; a default is a constant (a literal, CURRENT_TIMESTAMP, ...)");
      }
    });
    if (value instanceof SqlLiteral l) {
      check(c, l);
    }
    return CatalogExpressions.text(value);
  }

  /** Refuses a literal default the column cannot hold, as an INSERT of it would. */
  private static void check(SqlColumn c, SqlLiteral l) {
    if (l.getValue() == null) {
      if (!c.nullable()) {
        throw new SqlStateException(SqlStates.NOT_NULL_VIOLATION,
            "the DEFAULT of NOT NULL column " + c.name()
            + " is NULL");
      }
      return;
    }
    boolean numeric = switch (c.type()) {
      case TINYINT, SMALLINT, INTEGER, BIGINT, REAL, DOUBLE, DECIMAL -> true;
      default -> false;
    };
    Object v = null;
    if (numeric && l instanceof SqlNumericLiteral n) {
      v = n.bigDecimalValue();
    } else if (numeric && l instanceof SqlCharStringLiteral s) {
      try {
        v = new BigDecimal(s.getValueAs(String.class).trim());
      } catch (NumberFormatException e) {
        throw new SqlStateException(SqlStates.INVALID_CHARACTER_VALUE_FOR_CAST,
            "the DEFAULT of column " + c.name() + " ("
            + c.type() + ") is " + l + ", not a number");
      }
    } else if (!numeric && l instanceof SqlCharStringLiteral s) {
      ColumnValues.fit(c, s.getValueAs(String.class)); // too long: 22001
      return;
    }
    if (v instanceof BigDecimal d) {
      long[] range = switch (c.type()) {
        case TINYINT -> new long[] {Byte.MIN_VALUE, Byte.MAX_VALUE};
        case SMALLINT -> new long[] {Short.MIN_VALUE, Short.MAX_VALUE};
        case INTEGER -> new long[] {Integer.MIN_VALUE, Integer.MAX_VALUE};
        case BIGINT -> new long[] {Long.MIN_VALUE, Long.MAX_VALUE};
        default -> null;
      };
      if (range != null && (d.compareTo(BigDecimal.valueOf(range[0])) < 0
          || d.compareTo(BigDecimal.valueOf(range[1])) > 0)) {
        throw new SqlStateException(SqlStates.NUMERIC_OUT_OF_RANGE,
            "the DEFAULT of column " + c.name() + " ("
            + c.type() + ") is " + d + ", out of its range");
      }
      if (c.type() == io.basaltdb.sql.type.ColumnType.DECIMAL) {
        ColumnValues.fit(c, d); // digits beyond precision or scale: 22003
      }
    }
  }

  /** The expression of a catalog text (written by {@link #text}), bare words made calls. */
  static SqlNode parse(String text) {
    return CatalogExpressions.parse(text, "a column DEFAULT").accept(new SqlShuttle() {
      @Override
      public SqlNode visit(SqlIdentifier id) {
        org.apache.calcite.sql.SqlOperator f = CatalogExpressions.niladic(id);
        return f == null ? id : f.createCall(id.getParserPosition());
      }
    });
  }
}
