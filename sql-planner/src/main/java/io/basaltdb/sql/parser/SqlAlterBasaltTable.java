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

  /**
   * {@code ALTER TABLE [IF EXISTS] t ALTER [COLUMN] c SET DEFAULT e | DROP DEFAULT | SET NOT
   * NULL | DROP NOT NULL | [SET DATA] TYPE type}.
   */
  public static final class AlterColumn extends SqlDdl {
    private static final SqlOperator ALTER =
        new SqlSpecialOperator("ALTER TABLE", SqlKind.ALTER_TABLE);

    /** What changes. */
    public enum Action { SET_DEFAULT, DROP_DEFAULT, SET_NOT_NULL, DROP_NOT_NULL, TYPE }

    public final boolean ifExists;
    public final SqlIdentifier name;
    public final SqlIdentifier column;
    public final Action action;
    /** SET DEFAULT's expression, or null. */
    public final SqlNode defaultValue;
    /** TYPE's type, or null. */
    public final SqlDataTypeSpec type;

    public AlterColumn(SqlParserPos pos, boolean ifExists, SqlIdentifier name,
        SqlIdentifier column, Action action, SqlNode defaultValue, SqlDataTypeSpec type) {
      super(ALTER, pos);
      this.ifExists = ifExists;
      this.name = name;
      this.column = column;
      this.action = action;
      this.defaultValue = defaultValue;
      this.type = type;
    }

    @Override
    public List<SqlNode> getOperandList() {
      return List.of(name, column);
    }

    @Override
    public void unparse(SqlWriter writer, int leftPrec, int rightPrec) {
      writer.keyword("ALTER TABLE");
      name.unparse(writer, 0, 0);
      writer.keyword("ALTER COLUMN");
      column.unparse(writer, 0, 0);
      writer.keyword(action.name().replace('_', ' '));
    }
  }

  /** {@code COMMENT ON TABLE t | COLUMN t.c IS 'text' | NULL}. */
  public static final class Comment extends SqlDdl {
    private static final SqlOperator COMMENT =
        new SqlSpecialOperator("COMMENT", SqlKind.OTHER_DDL);

    /** The table, or for a column the table then the column. */
    public final SqlIdentifier name;
    public final boolean column;
    /** The comment, or null to remove it. */
    public final String text;

    public Comment(SqlParserPos pos, SqlIdentifier name, boolean column, String text) {
      super(COMMENT, pos);
      this.name = name;
      this.column = column;
      this.text = text;
    }

    @Override
    public List<SqlNode> getOperandList() {
      return List.of(name);
    }

    @Override
    public void unparse(SqlWriter writer, int leftPrec, int rightPrec) {
      writer.keyword("COMMENT ON");
      writer.keyword(column ? "COLUMN" : "TABLE");
      name.unparse(writer, 0, 0);
    }
  }
}
