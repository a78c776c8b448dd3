package io.basaltdb.sql.parser;

import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.sql.SqlDataTypeSpec;
import org.apache.calcite.sql.SqlDdl;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlSpecialOperator;
import org.apache.calcite.sql.SqlWriter;
import org.apache.calcite.sql.parser.SqlParserPos;

/**
 * {@code ALTER TABLE t ADD [COLUMN] [f.]col type [DEFAULT c] [NOT NULL]} (a null type means
 * {@code DROP [COLUMN] col}).
 */
public final class SqlAlterBasaltTable extends SqlDdl {
  private static final SqlOperator OPERATOR =
      new SqlSpecialOperator("ALTER TABLE", SqlKind.ALTER_TABLE);

  public final SqlIdentifier name;
  public final SqlIdentifier column;
  public final SqlDataTypeSpec type;
  public final boolean notNull;
  /** An added column's {@code DEFAULT}, or null. */
  public final SqlNode defaultValue;
  /** {@code ALTER TABLE IF EXISTS}: a missing table is no error. */
  public final boolean ifExists;

  public SqlAlterBasaltTable(SqlParserPos pos, SqlIdentifier name, SqlIdentifier column,
      SqlDataTypeSpec type, boolean notNull, SqlNode defaultValue) {
    this(pos, false, name, column, type, notNull, defaultValue);
  }

  public SqlAlterBasaltTable(SqlParserPos pos, boolean ifExists, SqlIdentifier name,
      SqlIdentifier column, SqlDataTypeSpec type, boolean notNull, SqlNode defaultValue) {
    super(OPERATOR, pos);
    this.ifExists = ifExists;
    this.name = name;
    this.column = column;
    this.type = type;
    this.notNull = notNull;
    this.defaultValue = defaultValue;
  }

  public boolean isAdd() {
    return type != null;
  }

  @Override
  public List<SqlNode> getOperandList() {
    List<SqlNode> ops = new ArrayList<>();
    ops.add(name);
    ops.add(column);
    if (type != null) {
      ops.add(type);
    }
    return ops;
  }

  @Override
  public void unparse(SqlWriter writer, int leftPrec, int rightPrec) {
    writer.keyword("ALTER TABLE");
    name.unparse(writer, 0, 0);
    writer.keyword(isAdd() ? "ADD COLUMN" : "DROP COLUMN");
    column.unparse(writer, 0, 0);
    if (type != null) {
      type.unparse(writer, 0, 0);
      if (defaultValue != null) {
        writer.keyword("DEFAULT");
        defaultValue.unparse(writer, 0, 0);
      }
      if (notNull) {
        writer.keyword("NOT NULL");
      }
    }
  }

  /** {@code DROP CONSTRAINT [IF EXISTS] name}. */
  public record DropConstraint(SqlIdentifier name, boolean ifExists) {}

  /**
   * {@code ALTER TABLE [IF EXISTS] t ADD [CONSTRAINT c] FOREIGN KEY ... | UNIQUE (...)} (the
   * constraint: a {@link SqlCreateBasaltTable.ForeignKeyDef} or a
   * {@link SqlCreateBasaltTable.Unique}) or {@code ... DROP CONSTRAINT [IF EXISTS] c}.
   */
  public static final class Constraint extends SqlDdl {
    private static final SqlOperator ALTER =
        new SqlSpecialOperator("ALTER TABLE", SqlKind.ALTER_TABLE);

    public final boolean ifExists;
    public final SqlIdentifier name;
    /** The constraint added, or null for a drop. */
    public final Object added;
    /** The constraint dropped, or null for an add. */
    public final DropConstraint dropped;

    public Constraint(SqlParserPos pos, boolean ifExists, SqlIdentifier name, Object added,
        DropConstraint dropped) {
      super(ALTER, pos);
      this.ifExists = ifExists;
      this.name = name;
      this.added = added;
      this.dropped = dropped;
    }

    @Override
    public List<SqlNode> getOperandList() {
      return List.of(name);
    }

    @Override
    public void unparse(SqlWriter writer, int leftPrec, int rightPrec) {
      writer.keyword("ALTER TABLE");
      name.unparse(writer, 0, 0);
      if (dropped != null) {
        writer.keyword("DROP CONSTRAINT");
        dropped.name().unparse(writer, 0, 0);
      } else {
        writer.keyword("ADD CONSTRAINT");
      }
    }
  }
}
