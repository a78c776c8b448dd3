package io.basaltdb.sql.parser;

import java.util.List;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlSpecialOperator;
import org.apache.calcite.sql.SqlWriter;

/**
 * A table or family option after {@code CREATE TABLE (...)}, as in Phoenix: {@code VERSIONS=3},
 * {@code f.TTL=86400} (for one family), {@code COMPRESSION='LZ4'}, {@code SALT_BUCKETS=4}.
 */
public final class SqlTableOption extends SqlCall {
  private static final SqlOperator OPERATOR =
      new SqlSpecialOperator("TABLE_OPTION", SqlKind.OTHER);

  public final SqlIdentifier name;
  public final SqlNode value;

  public SqlTableOption(SqlIdentifier name, SqlNode value) {
    super(name.getParserPosition());
    this.name = name;
    this.value = value;
  }

  /** The family an option is scoped to ({@code f.TTL}), or null for every family / the table. */
  public String family() {
    return name.names.size() > 1 ? name.names.get(0) : null;
  }

  /** The option's name, upper-cased. */
  public String option() {
    return name.names.get(name.names.size() - 1).toUpperCase(java.util.Locale.ROOT);
  }

  /** The literal's value as text (strings unquoted). */
  public String valueText() {
    return value instanceof SqlLiteral l ? l.toValue() : value.toString();
  }

  @Override
  public SqlOperator getOperator() {
    return OPERATOR;
  }

  @Override
  public List<SqlNode> getOperandList() {
    return List.of(name, value);
  }

  @Override
  public void unparse(SqlWriter writer, int leftPrec, int rightPrec) {
    name.unparse(writer, 0, 0);
    writer.sep("=");
    value.unparse(writer, 0, 0);
  }
}
