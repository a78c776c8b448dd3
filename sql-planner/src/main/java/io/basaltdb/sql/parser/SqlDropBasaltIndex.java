package io.basaltdb.sql.parser;

import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.sql.SqlDrop;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlSpecialOperator;
import org.apache.calcite.sql.SqlWriter;
import org.apache.calcite.sql.parser.SqlParserPos;

/** {@code DROP INDEX [IF EXISTS] name [ON t]} (without ON: the one index of that name). */
public final class SqlDropBasaltIndex extends SqlDrop {
  private static final SqlOperator OPERATOR =
      new SqlSpecialOperator("DROP INDEX", SqlKind.DROP_INDEX);

  public final SqlIdentifier name;
  /** The table, or null when not given. */
  public final SqlIdentifier table;

  public SqlDropBasaltIndex(SqlParserPos pos, boolean ifExists, SqlIdentifier name,
      SqlIdentifier table) {
    super(OPERATOR, pos, ifExists);
    this.name = name;
    this.table = table;
  }

  @Override
  public List<SqlNode> getOperandList() {
    List<SqlNode> ops = new ArrayList<>();
    ops.add(name);
    if (table != null) {
      ops.add(table);
    }
    return ops;
  }

  @Override
  public void unparse(SqlWriter writer, int leftPrec, int rightPrec) {
    writer.keyword("DROP INDEX");
    if (ifExists) {
      writer.keyword("IF EXISTS");
    }
    name.unparse(writer, 0, 0);
    if (table != null) {
      writer.keyword("ON");
      table.unparse(writer, 0, 0);
    }
  }
}
