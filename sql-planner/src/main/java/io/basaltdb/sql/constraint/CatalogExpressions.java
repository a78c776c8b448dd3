package io.basaltdb.sql.constraint;

import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.avatica.util.Quoting;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlSyntax;
import org.apache.calcite.sql.dialect.CalciteSqlDialect;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParseException;
import org.apache.calcite.sql.parser.SqlParser;
import org.apache.calcite.sql.validate.SqlNameMatchers;

/**
 * Expressions the SQL catalog keeps as text (column defaults, check conditions): written in
 * Calcite's dialect (identifiers double-quoted, so their case survives), parsed back with
 * Basalt's parser. They are converted to row expressions without Calcite's validator, so the
 * names it would resolve (functions, {@code CURRENT_DATE} and its kind) are resolved here
 * against the standard operator table.
 */
final class CatalogExpressions {
  private CatalogExpressions() {}

  static String text(SqlNode node) {
    return node.toSqlString(CalciteSqlDialect.DEFAULT).getSql();
  }

  /** The expression of a catalog text; {@code what} names it in the error of a bad one. */
  static SqlNode parse(String text, String what) {
    try {
      return SqlParser.create(text, SqlParser.config()
          .withParserFactory(io.basaltdb.sql.parser.impl.LimitedParser.FACTORY)
          .withQuoting(Quoting.DOUBLE_QUOTE)).parseExpression();
    } catch (SqlParseException e) {
      throw new io.basaltdb.storage.CorruptionException(what + " in the SQL catalog does not "
          + "parse: " + text + " (" + e.getMessage() + ")");
    }
  }

  /** The standard operator {@code id} names with {@code syntax}, or null. */
  static SqlOperator standard(SqlIdentifier id, SqlSyntax syntax) {
    List<SqlOperator> found = new ArrayList<>();
    SqlStdOperatorTable.instance().lookupOperatorOverloads(id, null, syntax, found,
        SqlNameMatchers.withCaseSensitive(false));
    return found.isEmpty() ? null : found.get(0);
  }

  /** The function a bare word such as {@code CURRENT_TIMESTAMP} calls, or null. */
  static SqlOperator niladic(SqlIdentifier id) {
    return id.isSimple() ? standard(id, SqlSyntax.FUNCTION_ID) : null;
  }
}
