package io.basaltdb.sql.parser;

import java.util.List;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlDataTypeSpec;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlSpecialOperator;
import org.apache.calcite.sql.SqlWriter;
import org.apache.calcite.sql.parser.SqlParserPos;

/**
 * A column in {@code CREATE TABLE}: its name (possibly {@code family.column}), type,
 * {@code NOT NULL}, an inline {@code PRIMARY KEY [ASC|DESC]}, and a {@code DEFAULT}
 * expression (null when none).
 */
public final class SqlColumnDef extends SqlCall {
  private static final SqlOperator OPERATOR =
      new SqlSpecialOperator("COLUMN_DEF", SqlKind.COLUMN_DECL);

  public final SqlIdentifier name;
  public final SqlDataTypeSpec type;
  public final boolean notNull;
  public final boolean primaryKey;
  public final boolean descending;
  public final SqlNode defaultValue;

  /** {@code type} as an ARRAY of it, or itself when it is one ({@code VARCHAR ARRAY[5]}). */
  public static SqlDataTypeSpec arrayOf(SqlDataTypeSpec type) {
    if (type.getTypeNameSpec() instanceof org.apache.calcite.sql.SqlCollectionTypeNameSpec) {
      return type;
    }
    return new SqlDataTypeSpec(new org.apache.calcite.sql.SqlCollectionTypeNameSpec(
        type.getTypeNameSpec(), org.apache.calcite.sql.type.SqlTypeName.ARRAY,
        type.getParserPosition()), type.getParserPosition());
  }

  public SqlColumnDef(SqlParserPos pos, SqlIdentifier name, SqlDataTypeSpec type, boolean notNull,
      boolean primaryKey, boolean descending, SqlNode defaultValue) {
    super(pos);
    this.name = name;
    this.type = type;
    this.notNull = notNull;
    this.primaryKey = primaryKey;
    this.descending = descending;
    this.defaultValue = defaultValue;
  }

  /** The family given as {@code family.column}, or null. */
  public String family() {
    return name.names.size() > 1 ? name.names.get(0) : null;
  }

  /** The column's own name (the last part of the identifier). */
  public String column() {
    return name.names.get(name.names.size() - 1);
  }

  @Override
  public SqlOperator getOperator() {
    return OPERATOR;
  }

  @Override
  public List<SqlNode> getOperandList() {
    return List.of(name, type);
  }

  @Override
  public void unparse(SqlWriter writer, int leftPrec, int rightPrec) {
    name.unparse(writer, 0, 0);
    type.unparse(writer, 0, 0);
    if (defaultValue != null) {
      writer.keyword("DEFAULT");
      defaultValue.unparse(writer, 0, 0);
    }
    if (notNull) {
      writer.keyword("NOT NULL");
    }
    if (primaryKey) {
      writer.keyword("PRIMARY KEY");
      if (descending) {
        writer.keyword("DESC");
      }
    }
  }
}
