package io.basaltdb.sql.exec.write;

import io.basaltdb.sql.SqlStates;
import io.basaltdb.sql.catalog.ColumnValues;
import io.basaltdb.sql.catalog.SqlColumn;
import io.basaltdb.sql.catalog.SqlTableDef;
import io.basaltdb.sql.exec.context.DatetimeText;
import io.basaltdb.sql.type.ColumnType;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.sql.SqlBasicTypeNameSpec;
import org.apache.calcite.sql.SqlBinaryStringLiteral;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlCharStringLiteral;
import org.apache.calcite.sql.SqlDataTypeSpec;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlInsert;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlNumericLiteral;
import org.apache.calcite.sql.SqlUpdate;

/**
 * String, binary and exact numeric literals a statement assigns to columns ({@code INSERT/UPSERT ... VALUES}
 * or a SELECT list, {@code UPDATE ... SET c = literal}), checked against the columns' declared
 * lengths before the statement is converted: Calcite types an assigned literal by casting it
 * to the column's type, and folds the cast, which cuts a string that is too long, so the plan
 * would write a cut value without a word (and rounds, or cuts, a number's digits past a
 * DECIMAL's scale or an integer type's point). A literal that does not fit is refused here with
 * 22001 (too long) or 22003 (a number) naming the column, as a parameter or a computed value is when it is written
 * ({@link ColumnValues#fit}, once {@code rel.AssignmentCasts} has taken away the cutting
 * casts of computed values).
 */
public final class AssignedLiterals {
  private AssignedLiterals() {}

  /** Checks the literals of an INSERT or UPSERT's VALUES rows or SELECT list. */
  public static void check(SqlInsert insert, SqlTableDef def) {
    SqlNode source = insert.getSource();
    List<SqlColumn> targets = targets(def, insert.getTargetColumnList());
    if (source instanceof org.apache.calcite.sql.SqlSelect select) {
      List<SqlNode> items = select.getSelectList().getList();
      for (int i = 0; i < items.size() && i < targets.size(); i++) {
        SqlNode item = items.get(i);
        if (item.getKind() == SqlKind.AS) {
          item = ((SqlCall) item).operand(0);
        }
        check(item, targets.get(i), def);
      }
      return;
    }
    if (source.getKind() != SqlKind.VALUES) {
      return;
    }
    for (SqlNode row : ((SqlCall) source).getOperandList()) {
      if (row instanceof SqlCall r && r.getKind() == SqlKind.ROW) {
        List<SqlNode> values = r.getOperandList();
        for (int i = 0; i < values.size() && i < targets.size(); i++) {
          check(values.get(i), targets.get(i), def);
        }
      }
    }
  }

  /** Checks the literals of an UPDATE's SET clauses. */
  public static void check(SqlUpdate update, SqlTableDef def) {
    List<SqlNode> columns = update.getTargetColumnList().getList();
    List<SqlNode> values = update.getSourceExpressionList().getList();
    for (int i = 0; i < columns.size() && i < values.size(); i++) {
      SqlIdentifier id = (SqlIdentifier) columns.get(i);
      int col = def.columnIndex(id.names.get(id.names.size() - 1));
      if (col >= 0) {
        check(values.get(i), def.columns().get(col), def);
      }
    }
  }

  private static boolean datetime(SqlColumn c) {
    return c.type() == ColumnType.DATE || c.type() == ColumnType.TIME
        || c.type() == ColumnType.TIMESTAMP || c.type() == ColumnType.TIMESTAMP_TZ;
  }

  private static boolean numeric(SqlColumn c) {
    return switch (c.type()) {
      case TINYINT, SMALLINT, INTEGER, BIGINT, DECIMAL, REAL, DOUBLE -> true;
      default -> false;
    };
  }

  /** An exact numeric literal, signed or not, as a number; else null. */
  private static java.math.BigDecimal exactNumber(SqlNode v) {
    boolean negative = false;
    SqlNode n = v;
    if (n.getKind() == SqlKind.MINUS_PREFIX && n instanceof SqlCall c) {
      negative = true;
      n = c.operand(0);
    } else if (n.getKind() == SqlKind.PLUS_PREFIX && n instanceof SqlCall c) {
      n = c.operand(0);
    }
    if (n instanceof SqlNumericLiteral lit && lit.isExact()) {
      java.math.BigDecimal d = lit.getValueAs(java.math.BigDecimal.class);
      return negative ? d.negate() : d;
    }
    return null;
  }

  private static List<SqlColumn> targets(SqlTableDef def, SqlNodeList named) {
    List<SqlColumn> out = new ArrayList<>();
    if (named == null) {
      out.addAll(def.columns().subList(0, def.visibleColumnCount()));
      return out;
    }
    for (SqlNode n : named) {
      SqlIdentifier id = (SqlIdentifier) n;
      int col = def.columnIndex(id.names.get(id.names.size() - 1));
      out.add(col >= 0 ? def.columns().get(col) : null);
    }
    return out;
  }

  private static void check(SqlNode value, SqlColumn column, SqlTableDef def) {
    SqlNode v = value;
    while (v.getKind() == SqlKind.CAST && v instanceof SqlCall c
        && c.getParserPosition().equals(c.operand(0).getParserPosition())) {
      v = c.operand(0); // the validator's cast to the column's type: at its operand's place
    }
    if (v.getKind() == SqlKind.CAST && exactNumber(((SqlCall) v).operand(0)) != null) {
      return; // the statement's own CAST of a number: it rounds as asked; its result is checked
    }
    int cut = Integer.MAX_VALUE;
    if (v.getKind() == SqlKind.CAST && v instanceof SqlCall c
        && c.operand(1) instanceof SqlDataTypeSpec spec
        && spec.getTypeNameSpec() instanceof SqlBasicTypeNameSpec basic
        && basic.getPrecision() >= 0) {
      cut = basic.getPrecision(); // the statement's own CAST(literal AS VARCHAR(n)): n kept
      v = c.operand(0);
    }
    if (column == null) {
      return;
    }
    java.math.BigDecimal number = exactNumber(v);
    if (number != null) {
      ColumnValues.checkAssignedNumber(column, number);
    } else if (v instanceof SqlCharStringLiteral s && numeric(column)) {
      String text = s.getNlsString().getValue();
      try {
        if (column.type() == ColumnType.REAL || column.type() == ColumnType.DOUBLE) {
          Double.parseDouble(text.trim());
        } else {
          new java.math.BigDecimal(text.trim());
        }
      } catch (NumberFormatException e) {
        throw new io.basaltdb.sql.SqlStateException(SqlStates.INVALID_CHARACTER_VALUE_FOR_CAST,
            "'" + text + "' is not a number,"
            + " for column " + column.name() + " (" + column.type() + ") of " + def.table());
      }
    } else if (v instanceof org.apache.calcite.sql.SqlUnknownLiteral typed
        && typed.tag.equalsIgnoreCase(column.type().name())
        && (column.type() == ColumnType.TIMESTAMP || column.type() == ColumnType.TIME)) {
      // TIMESTAMP '...' or TIME '...' (typed when validated): digits of a second past the
      // column's precision would be cut as well
      DatetimeText.check(column, typed.getValue(), String.valueOf(def.table()));
    } else if (v instanceof org.apache.calcite.sql.SqlTimestampLiteral
        && column.type() == ColumnType.TIMESTAMP
        || v instanceof org.apache.calcite.sql.SqlTimeLiteral && column.type() == ColumnType.TIME) {
      DatetimeText.check(column,
          ((org.apache.calcite.sql.SqlAbstractDateTimeLiteral) v).toFormattedString(),
          String.valueOf(def.table())); // the same, typed already (an UPDATE's SET)
    } else if (v instanceof SqlCharStringLiteral s && datetime(column)) {
      DatetimeText.check(column, s.getNlsString().getValue(), String.valueOf(def.table()));
    } else if (v instanceof SqlCharStringLiteral s) {
      String text = s.getNlsString().getValue();
      ColumnValues.fit(column, text.length() > cut ? text.substring(0, cut) : text);
    } else if (v instanceof SqlBinaryStringLiteral b) {
      byte[] bytes = b.getBitString().getAsByteArray();
      ColumnValues.fit(column, bytes.length > cut ? java.util.Arrays.copyOf(bytes, cut) : bytes);
    }
  }
}
