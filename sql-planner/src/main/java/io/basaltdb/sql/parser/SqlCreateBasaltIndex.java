package io.basaltdb.sql.parser;

import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.sql.SqlCreate;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlSpecialOperator;
import org.apache.calcite.sql.SqlWriter;
import org.apache.calcite.sql.parser.SqlParserPos;

/**
 * {@code CREATE [UNIQUE] [LOCAL] INDEX [IF NOT EXISTS] name ON t (col|expr [ASC|DESC], ...)
 * [INCLUDE (col, ...)] [option = value, ...]} (Apache Phoenix's syntax).
 */
public final class SqlCreateBasaltIndex extends SqlCreate {
  private static final SqlOperator OPERATOR =
      new SqlSpecialOperator("CREATE INDEX", SqlKind.CREATE_INDEX);

  public final SqlIdentifier name;
  public final SqlIdentifier table;
  /** The key parts: a column (an identifier) or an expression of columns. */
  public final List<SqlNode> columns;
  public final List<Boolean> descending;
  public final List<SqlIdentifier> includes;
  public final boolean unique;
  public final List<SqlTableOption> options;

  public SqlCreateBasaltIndex(SqlParserPos pos, boolean ifNotExists, boolean unique,
      SqlIdentifier name, SqlIdentifier table, List<SqlNode> columns,
      List<Boolean> descending, List<SqlIdentifier> includes, List<SqlTableOption> options) {
    super(OPERATOR, pos, false, ifNotExists);
    this.name = name;
    this.table = table;
    this.columns = List.copyOf(columns);
    this.descending = List.copyOf(descending);
    this.includes = List.copyOf(includes);
    this.unique = unique;
    this.options = List.copyOf(options);
  }

  @Override
  public List<SqlNode> getOperandList() {
    List<SqlNode> ops = new ArrayList<>();
    ops.add(name);
    ops.add(table);
    ops.addAll(columns);
    ops.addAll(includes);
    return ops;
  }

  @Override
  public void unparse(SqlWriter writer, int leftPrec, int rightPrec) {
    writer.keyword(unique ? "CREATE UNIQUE INDEX" : "CREATE INDEX");
    if (ifNotExists) {
      writer.keyword("IF NOT EXISTS");
    }
    name.unparse(writer, 0, 0);
    writer.keyword("ON");
    table.unparse(writer, 0, 0);
    SqlWriter.Frame f = writer.startList("(", ")");
    for (int i = 0; i < columns.size(); i++) {
      writer.sep(",");
      columns.get(i).unparse(writer, 0, 0);
      if (descending.get(i)) {
        writer.keyword("DESC");
      }
    }
    writer.endList(f);
    if (!includes.isEmpty()) {
      writer.keyword("INCLUDE");
      SqlWriter.Frame g = writer.startList("(", ")");
      for (SqlIdentifier c : includes) {
        writer.sep(",");
        c.unparse(writer, 0, 0);
      }
      writer.endList(g);
    }
  }
}
