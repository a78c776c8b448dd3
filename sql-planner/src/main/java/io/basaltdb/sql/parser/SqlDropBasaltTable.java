package io.basaltdb.sql.parser;

import java.util.List;
import org.apache.calcite.sql.SqlDdl;
import org.apache.calcite.sql.SqlDrop;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlSpecialOperator;
import org.apache.calcite.sql.SqlWriter;
import org.apache.calcite.sql.parser.SqlParserPos;

/**
 * {@code DROP TABLE [IF EXISTS] t [CASCADE | RESTRICT]}: with CASCADE the views that read the
 * table go with it, with RESTRICT their existence refuses the drop (2BP01), with neither the
 * table goes alone (as before these words were taken). Also {@code DROP SCHEMA}
 * ({@link Schema}) and {@code TRUNCATE TABLE} ({@link Truncate}).
 */
public final class SqlDropBasaltTable extends SqlDrop {
  private static final SqlOperator OPERATOR =
      new SqlSpecialOperator("DROP TABLE", SqlKind.DROP_TABLE);

  public final SqlIdentifier name;
  public final boolean cascade;
  public final boolean restrict;

  public SqlDropBasaltTable(SqlParserPos pos, boolean ifExists, SqlIdentifier name,
      boolean cascade, boolean restrict) {
    super(OPERATOR, pos, ifExists);
    this.name = name;
    this.cascade = cascade;
    this.restrict = restrict;
  }

  @Override
  public List<SqlNode> getOperandList() {
    return List.of(name);
  }

  @Override
  public void unparse(SqlWriter writer, int leftPrec, int rightPrec) {
    writer.keyword("DROP TABLE");
    if (ifExists) {
      writer.keyword("IF EXISTS");
    }
    name.unparse(writer, 0, 0);
    if (cascade || restrict) {
      writer.keyword(cascade ? "CASCADE" : "RESTRICT");
    }
  }

  /**
   * {@code DROP SCHEMA [IF EXISTS] s [CASCADE | RESTRICT]}: CASCADE drops every object in it
   * too, else it must be empty.
   */
  public static final class Schema extends SqlDrop {
    private static final SqlOperator OPERATOR =
        new SqlSpecialOperator("DROP SCHEMA", SqlKind.DROP_SCHEMA);

    public final SqlIdentifier name;
    public final boolean cascade;

    public Schema(SqlParserPos pos, boolean ifExists, SqlIdentifier name, boolean cascade) {
      super(OPERATOR, pos, ifExists);
      this.name = name;
      this.cascade = cascade;
    }

    @Override
    public List<SqlNode> getOperandList() {
      return List.of(name);
    }

    @Override
    public void unparse(SqlWriter writer, int leftPrec, int rightPrec) {
      writer.keyword("DROP SCHEMA");
      if (ifExists) {
        writer.keyword("IF EXISTS");
      }
      name.unparse(writer, 0, 0);
      if (cascade) {
        writer.keyword("CASCADE");
      }
    }
  }

  /**
   * {@code TRUNCATE TABLE t [CONTINUE IDENTITY | RESTART IDENTITY]}: every row goes (and every
   * index entry), the table, its indexes and splits stay; RESTART IDENTITY starts the table's
   * own identity sequences again.
   */
  public static final class Truncate extends SqlDdl {
    private static final SqlOperator OPERATOR =
        new SqlSpecialOperator("TRUNCATE TABLE", SqlKind.TRUNCATE_TABLE);

    public final SqlIdentifier name;
    public final boolean restartIdentity;

    public Truncate(SqlParserPos pos, SqlIdentifier name, boolean restartIdentity) {
      super(OPERATOR, pos);
      this.name = name;
      this.restartIdentity = restartIdentity;
    }

    @Override
    public List<SqlNode> getOperandList() {
      return List.of(name);
    }

    @Override
    public void unparse(SqlWriter writer, int leftPrec, int rightPrec) {
      writer.keyword("TRUNCATE TABLE");
      name.unparse(writer, 0, 0);
      if (restartIdentity) {
        writer.keyword("RESTART IDENTITY");
      }
    }
  }
}
