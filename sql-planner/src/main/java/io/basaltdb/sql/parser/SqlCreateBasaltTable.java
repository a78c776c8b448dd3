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
 * {@code CREATE TABLE} in Basalt's dialect: columns (family-qualified or not), the primary key
 * (inline or as a constraint, with directions), UNIQUE constraints (each kept by a unique
 * index), table and family options, split points.
 */
public final class SqlCreateBasaltTable extends SqlCreate {
  private static final SqlOperator OPERATOR =
      new SqlSpecialOperator("CREATE TABLE", SqlKind.CREATE_TABLE);

  public final SqlIdentifier name;
  public final List<SqlColumnDef> columns;
  public final List<SqlIdentifier> primaryKey;
  public final List<Boolean> primaryKeyDescending;
  public final List<Unique> uniques;
  public final List<Check> checks;
  public final List<SqlTableOption> options;
  public final List<SqlNode> splitPoints;
  /** {@code AS query}: the rows the table starts with (and without columns, its columns). */
  public final SqlNode query;
  /** The key columns marked ROW_TIMESTAMP (Phoenix's; one at most is valid). */
  public final List<SqlIdentifier> rowTimestamp;
  /** The FOREIGN KEY constraints (table-level, and a column's REFERENCES). */
  public final List<ForeignKeyDef> foreignKeys;

  /** A CHECK constraint: its name (null when not named) and condition. */
  public record Check(SqlIdentifier name, SqlNode condition) {}

  /** A UNIQUE constraint: its name (null when not named) and columns. */
  public record Unique(SqlIdentifier name, List<SqlIdentifier> columns) {
    public Unique {
      columns = List.copyOf(columns);
    }
  }

  /**
   * A FOREIGN KEY constraint as written: its name (null when not named), columns, the parent
   * table and its columns (empty: the parent's primary key), the ON DELETE and ON UPDATE
   * actions ({@code NO ACTION}, {@code RESTRICT}, {@code CASCADE}, {@code SET NULL}, {@code SET
   * DEFAULT}) and whether it is enforced ({@code NOT ENFORCED}: declared only).
   */
  public record ForeignKeyDef(SqlIdentifier name, List<SqlIdentifier> columns,
      SqlIdentifier parent, List<SqlIdentifier> parentColumns, String onDelete,
      String onUpdate, boolean enforced) {
    public ForeignKeyDef {
      columns = List.copyOf(columns);
      parentColumns = List.copyOf(parentColumns);
    }
  }

  public SqlCreateBasaltTable(SqlParserPos pos, boolean replace, boolean ifNotExists,
      SqlIdentifier name, List<SqlColumnDef> columns, List<SqlIdentifier> primaryKey,
      List<Boolean> primaryKeyDescending, List<Unique> uniques, List<Check> checks,
      List<SqlTableOption> options, List<SqlNode> splitPoints, SqlNode query,
      List<SqlIdentifier> rowTimestamp) {
    this(pos, replace, ifNotExists, name, columns, primaryKey, primaryKeyDescending, uniques,
        checks, options, splitPoints, query, rowTimestamp, List.of());
  }

  public SqlCreateBasaltTable(SqlParserPos pos, boolean replace, boolean ifNotExists,
      SqlIdentifier name, List<SqlColumnDef> columns, List<SqlIdentifier> primaryKey,
      List<Boolean> primaryKeyDescending, List<Unique> uniques, List<Check> checks,
      List<SqlTableOption> options, List<SqlNode> splitPoints, SqlNode query,
      List<SqlIdentifier> rowTimestamp, List<ForeignKeyDef> foreignKeys) {
    super(OPERATOR, pos, replace, ifNotExists);
    this.foreignKeys = List.copyOf(foreignKeys);
    this.name = name;
    this.columns = List.copyOf(columns);
    this.primaryKey = List.copyOf(primaryKey);
    this.primaryKeyDescending = List.copyOf(primaryKeyDescending);
    this.uniques = List.copyOf(uniques);
    this.checks = List.copyOf(checks);
    this.options = List.copyOf(options);
    this.splitPoints = List.copyOf(splitPoints);
    this.query = query;
    this.rowTimestamp = List.copyOf(rowTimestamp);
  }

  @Override
  public List<SqlNode> getOperandList() {
    List<SqlNode> ops = new ArrayList<>();
    ops.add(name);
    ops.addAll(columns);
    return ops;
  }

  @Override
  public void unparse(SqlWriter writer, int leftPrec, int rightPrec) {
    writer.keyword("CREATE TABLE");
    if (ifNotExists) {
      writer.keyword("IF NOT EXISTS");
    }
    name.unparse(writer, 0, 0);
    if (!columns.isEmpty()) {
      unparseElements(writer);
    }
    for (int i = 0; i < options.size(); i++) {
      if (i > 0) {
        writer.sep(",");
      }
      options.get(i).unparse(writer, 0, 0);
    }
    if (!splitPoints.isEmpty()) {
      writer.keyword("SPLIT ON");
      SqlWriter.Frame sp = writer.startList("(", ")");
      for (SqlNode n : splitPoints) {
        writer.sep(",");
        n.unparse(writer, 0, 0);
      }
      writer.endList(sp);
    }
    if (query != null) {
      writer.keyword("AS");
      query.unparse(writer, 0, 0);
    }
  }

  private void unparseElements(SqlWriter writer) {
    SqlWriter.Frame frame = writer.startList("(", ")");
    for (SqlColumnDef c : columns) {
      writer.sep(",");
      c.unparse(writer, 0, 0);
    }
    if (!primaryKey.isEmpty()) {
      writer.sep(",");
      writer.keyword("PRIMARY KEY");
      SqlWriter.Frame pk = writer.startList("(", ")");
      for (int i = 0; i < primaryKey.size(); i++) {
        writer.sep(",");
        primaryKey.get(i).unparse(writer, 0, 0);
        if (primaryKeyDescending.get(i)) {
          writer.keyword("DESC");
        }
      }
      writer.endList(pk);
    }
    for (Unique u : uniques) {
      writer.sep(",");
      if (u.name() != null) {
        writer.keyword("CONSTRAINT");
        u.name().unparse(writer, 0, 0);
      }
      writer.keyword("UNIQUE");
      SqlWriter.Frame uf = writer.startList("(", ")");
      for (SqlIdentifier c : u.columns()) {
        writer.sep(",");
        c.unparse(writer, 0, 0);
      }
      writer.endList(uf);
    }
    for (Check ck : checks) {
      writer.sep(",");
      if (ck.name() != null) {
        writer.keyword("CONSTRAINT");
        ck.name().unparse(writer, 0, 0);
      }
      writer.keyword("CHECK");
      SqlWriter.Frame cf = writer.startList("(", ")");
      ck.condition().unparse(writer, 0, 0);
      writer.endList(cf);
    }
    writer.endList(frame);
  }
}
