package io.basaltdb.sql.parser;

import java.util.List;
import org.apache.calcite.sql.SqlDdl;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlSpecialOperator;
import org.apache.calcite.sql.SqlWriter;
import org.apache.calcite.sql.parser.SqlParserPos;

/** {@code ALTER INDEX name ON t REBUILD}: the index is built again from its table. */
public final class SqlAlterBasaltIndex extends SqlDdl {
  private static final SqlOperator OPERATOR =
      new SqlSpecialOperator("ALTER INDEX", SqlKind.ALTER_INDEX);

  public final SqlIdentifier name;
  public final SqlIdentifier table;

  public SqlAlterBasaltIndex(SqlParserPos pos, SqlIdentifier name, SqlIdentifier table) {
    super(OPERATOR, pos);
    this.name = name;
    this.table = table;
  }

  @Override
  public List<SqlNode> getOperandList() {
    return List.of(name, table);
  }

  @Override
  public void unparse(SqlWriter writer, int leftPrec, int rightPrec) {
    writer.keyword("ALTER INDEX");
    name.unparse(writer, 0, 0);
    writer.keyword("ON");
    table.unparse(writer, 0, 0);
    writer.keyword("REBUILD");
  }
}
