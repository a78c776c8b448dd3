package io.basaltdb.sql.parser;

import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlInsert;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlSpecialOperator;
import org.apache.calcite.sql.SqlWriter;
import org.apache.calcite.sql.parser.SqlParserPos;

/**
 * {@code UPSERT|INSERT INTO t [(cols)] VALUES ... ON DUPLICATE KEY IGNORE | UPDATE c = e, ...
 * | UPDATE_ONLY c = e, ...} (Phoenix's atomic upsert; MySQL's clause on INSERT). A row whose key
 * is new is written from VALUES (UPDATE_ONLY: not at all); a row that exists is left alone
 * (IGNORE) or has the assignments applied, whose expressions read the row as it is, under its
 * lock. An {@link SqlInsert} to Calcite's validator and converter, which see only the VALUES
 * part; the assignments follow as two more operands.
 */
public final class SqlInsertOnDuplicateKey extends SqlInsert {
  /** What happens to a row whose key exists (and whether a new one is written). */
  public enum Action { IGNORE, UPDATE, UPDATE_ONLY }

  private static final SqlOperator OPERATOR =
      new SqlSpecialOperator("INSERT ON DUPLICATE KEY", SqlKind.INSERT) {
        @Override
        public SqlCall createCall(SqlLiteral functionQualifier, SqlParserPos pos,
            SqlNode... operands) {
          return new SqlInsertOnDuplicateKey(pos, (SqlNodeList) operands[0], operands[1],
              operands[2], (SqlNodeList) operands[3], (SqlLiteral) operands[4],
              (SqlNodeList) operands[5], (SqlNodeList) operands[6]);
        }
      };

  private final SqlLiteral action;
  private SqlNodeList targets;
  private SqlNodeList expressions;

  public SqlInsertOnDuplicateKey(SqlParserPos pos, SqlNodeList keywords, SqlNode targetTable,
      SqlNode source, SqlNodeList columnList, SqlLiteral action, SqlNodeList targets,
      SqlNodeList expressions) {
    super(pos, keywords, targetTable, source, columnList);
    this.action = action;
    this.targets = targets;
    this.expressions = expressions;
  }

  /** Made by the parser from the statement before the clause. */
  public static SqlInsertOnDuplicateKey of(SqlNode insert, Action action, SqlParserPos pos,
      List<SqlNode> targets, List<SqlNode> expressions) {
    SqlInsert i = (SqlInsert) insert;
    return new SqlInsertOnDuplicateKey(i.getParserPosition().plus(pos),
        (SqlNodeList) i.getOperandList().get(0), i.getTargetTable(), i.getSource(),
        i.getTargetColumnList(), SqlLiteral.createSymbol(action, pos),
        new SqlNodeList(targets, pos), new SqlNodeList(expressions, pos));
  }

  public Action action() {
    return action.getValueAs(Action.class);
  }

  /** The columns assigned (identifiers), in the clause's order; empty for IGNORE. */
  public SqlNodeList targets() {
    return targets;
  }

  /** The expression assigned to each of {@link #targets}. */
  public SqlNodeList expressions() {
    return expressions;
  }

  @Override
  public SqlOperator getOperator() {
    return OPERATOR;
  }

  @Override
  public List<SqlNode> getOperandList() {
    List<SqlNode> ops = new ArrayList<>(super.getOperandList()); // may hold nulls
    ops.add(action);
    ops.add(targets);
    ops.add(expressions);
    return java.util.Collections.unmodifiableList(ops);
  }

  @Override
  public void setOperand(int i, SqlNode operand) {
    switch (i) {
      case 4 -> throw new IllegalArgumentException("the action of ON DUPLICATE KEY is fixed");
      case 5 -> targets = (SqlNodeList) operand;
      case 6 -> expressions = (SqlNodeList) operand;
      default -> super.setOperand(i, operand);
    }
  }

  @Override
  public void unparse(SqlWriter writer, int leftPrec, int rightPrec) {
    super.unparse(writer, leftPrec, rightPrec);
    writer.keyword("ON DUPLICATE KEY");
    writer.keyword(action().name());
    if (action() == Action.IGNORE) {
      return;
    }
    SqlWriter.Frame frame = writer.startList(SqlWriter.FrameTypeEnum.UPDATE_SET_LIST, "", "");
    for (int i = 0; i < targets.size(); i++) {
      writer.sep(",");
      targets.get(i).unparse(writer, 0, 0);
      writer.keyword("=");
      expressions.get(i).unparse(writer, 0, 0);
    }
    writer.endList(frame);
  }
}
