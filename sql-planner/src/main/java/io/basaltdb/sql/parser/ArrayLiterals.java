package io.basaltdb.sql.parser;

import java.util.regex.Pattern;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlBasicTypeNameSpec;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlCharStringLiteral;
import org.apache.calcite.sql.SqlDataTypeSpec;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.util.SqlShuttle;

/**
 * String literals in an {@code ARRAY[...]} or {@code MAP[...]} constructor as VARCHAR (a map's
 * keys are the qualifiers of a hybrid family's cells: a padded key names another cell). The
 * standard types
 * {@code 'ab'} and {@code 'c'} as CHAR(2) and CHAR(1), so Calcite makes {@code ARRAY['ab', 'c']}
 * a CHAR(2) array and pads {@code 'c'} to {@code 'c '}; Phoenix, PostgreSQL and H2 keep
 * {@code 'c'}, as Basalt does by casting each such literal to VARCHAR of its length.
 */
public final class ArrayLiterals {
  private static final Pattern ARRAY = Pattern.compile("(?i)\\b(ARRAY|MAP)\\s*\\[");

  private ArrayLiterals() {}

  /** {@code stmt} (parsed from {@code sql}) with its array constructors' strings unpadded. */
  public static SqlNode unpadded(SqlNode stmt, String sql) {
    if (stmt == null || sql == null || !ARRAY.matcher(sql).find()) {
      return stmt;
    }
    stmt.accept(new SqlShuttle() {
      @Override
      public SqlNode visit(SqlCall call) {
        if ((call.getKind() == SqlKind.ARRAY_VALUE_CONSTRUCTOR
            || call.getKind() == SqlKind.MAP_VALUE_CONSTRUCTOR) && call instanceof SqlBasicCall b) {
          for (int i = 0; i < b.operandCount(); i++) {
            if (b.operand(i) instanceof SqlCharStringLiteral s) {
              int length = Math.max(1, s.getValueAs(String.class).length());
              b.setOperand(i, SqlStdOperatorTable.CAST.createCall(s.getParserPosition(), s,
                  new SqlDataTypeSpec(new SqlBasicTypeNameSpec(SqlTypeName.VARCHAR, length,
                      s.getParserPosition()), s.getParserPosition())));
            }
          }
        }
        for (SqlNode operand : call.getOperandList()) {
          if (operand != null) {
            operand.accept(this);
          }
        }
        return call;
      }
    });
    return stmt;
  }
}
