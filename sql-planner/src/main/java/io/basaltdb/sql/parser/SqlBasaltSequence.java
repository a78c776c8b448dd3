package io.basaltdb.sql.parser;

import java.util.List;
import org.apache.calcite.sql.SqlCreate;
import org.apache.calcite.sql.SqlDrop;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlSpecialOperator;
import org.apache.calcite.sql.SqlWriter;
import org.apache.calcite.sql.parser.SqlParserPos;

/** {@code CREATE SEQUENCE} and {@code DROP SEQUENCE} (Phoenix's and the SQL standard's form). */
public final class SqlBasaltSequence {
  private SqlBasaltSequence() {}

  /** {@code CREATE SEQUENCE [IF NOT EXISTS] name [START [WITH] n] [INCREMENT [BY] n]}. */
  public static final class Create extends SqlCreate {
    private static final SqlOperator OPERATOR =
        new SqlSpecialOperator("CREATE SEQUENCE", SqlKind.CREATE_SEQUENCE);

    public final SqlIdentifier name;
    public final long start;
    public final long increment;

    public Create(SqlParserPos pos, boolean ifNotExists, SqlIdentifier name, long start,
        long increment) {
      super(OPERATOR, pos, false, ifNotExists);
      this.name = name;
      this.start = start;
      this.increment = increment;
    }

    @Override
    public List<SqlNode> getOperandList() {
      return List.of(name);
    }

    @Override
    public void unparse(SqlWriter writer, int leftPrec, int rightPrec) {
      writer.keyword("CREATE SEQUENCE");
      if (ifNotExists) {
        writer.keyword("IF NOT EXISTS");
      }
      name.unparse(writer, 0, 0);
      writer.keyword("START WITH " + start + " INCREMENT BY " + increment);
    }
  }

  /** {@code DROP SEQUENCE [IF EXISTS] name}. */
  public static final class Drop extends SqlDrop {
    private static final SqlOperator OPERATOR =
        new SqlSpecialOperator("DROP SEQUENCE", SqlKind.DROP_SEQUENCE);

    public final SqlIdentifier name;

    public Drop(SqlParserPos pos, boolean ifExists, SqlIdentifier name) {
      super(OPERATOR, pos, ifExists);
      this.name = name;
    }

    @Override
    public List<SqlNode> getOperandList() {
      return List.of(name);
    }

    @Override
    public void unparse(SqlWriter writer, int leftPrec, int rightPrec) {
      writer.keyword("DROP SEQUENCE");
      if (ifExists) {
        writer.keyword("IF EXISTS");
      }
      name.unparse(writer, 0, 0);
    }
  }
}
