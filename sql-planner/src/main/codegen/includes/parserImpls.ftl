<#--
  Basalt's DDL, after Apache Phoenix's syntax for column families and table options:

  CREATE TABLE [IF NOT EXISTS] name (
      column type [NOT NULL | NULL | PRIMARY KEY [ASC|DESC] | UNIQUE | DEFAULT expr
          | CHECK (condition)]...,
      ...                                           -- a column may be f.col
      [[CONSTRAINT name] PRIMARY KEY (col [ASC|DESC] [ROW_TIMESTAMP], ...)]
      [[CONSTRAINT name] UNIQUE (col, ...)]...     -- a unique index, named name or T_COL_KEY
      [[CONSTRAINT name] CHECK (condition)]...     -- refused rows: 23514
      [[CONSTRAINT name] FOREIGN KEY (col, ...) REFERENCES parent [(col, ...)]
          [ON DELETE action] [ON UPDATE action] [[NOT] ENFORCED]]...  -- also col ... REFERENCES
  ) [option = value [, option = value]...] [SPLIT ON (literal, ...)] [AS query]
  CREATE TABLE [IF NOT EXISTS] name [option = value, ...] AS query  -- columns from the query

  CREATE SCHEMA [IF NOT EXISTS] name;  DROP TABLE [IF EXISTS] name;  DROP SCHEMA [IF EXISTS] name
  ALTER TABLE name ADD [COLUMN] [f.]col type [DEFAULT constant] [NOT NULL];  ALTER TABLE name DROP [COLUMN] col
  ALTER TABLE [IF EXISTS] name ADD [CONSTRAINT c] FOREIGN KEY ... | UNIQUE (col, ...)
  ALTER TABLE [IF EXISTS] name DROP CONSTRAINT [IF EXISTS] c
  ALTER TABLE [IF EXISTS] name ALTER [COLUMN] col SET DEFAULT expr | DROP DEFAULT
      | SET NOT NULL | DROP NOT NULL | [SET DATA] TYPE type
  COMMENT ON TABLE t | COLUMN t.col IS 'text' | NULL
  CREATE [OR REPLACE] VIEW name [(col, ...)] AS query;  DROP VIEW [IF EXISTS] name
  CREATE [UNIQUE] [LOCAL] INDEX [IF NOT EXISTS] name ON t (col [ASC|DESC], ...)
      [INCLUDE (col, ...)] [option = value, ...]
  DROP INDEX [IF EXISTS] name [ON t];  ALTER INDEX name ON t REBUILD
-->

/** CLOB, BLOB and DATETIME (keywords, so not read as type names by Calcite's grammar) as names
 * the DDL maps to VARCHAR, VARBINARY and TIMESTAMP. */
SqlTypeNameSpec BasaltKeywordTypeName() :
{
    final Span s = Span.of();
    final String name;
}
{
    (
        <CLOB> { name = "CLOB"; }
    |
        <BLOB> { name = "BLOB"; }
    |
        <DATETIME> { name = "DATETIME"; }
    |
        <MAP> { name = "MAP"; }
    )
    {
        return new SqlUserDefinedTypeNameSpec(name, s.end(this));
    }
}

/** A column's type: Calcite's (INTEGER ARRAY too), or Phoenix's INTEGER[] / VARCHAR ARRAY[5]
 * (the bound is not kept). */
SqlDataTypeSpec BasaltColumnType() :
{
    SqlDataTypeSpec type;
    final int precision;
    final Span s = Span.of();
}
{
    (
        LOOKAHEAD(2) <FLOAT> <LPAREN> precision = UnsignedIntLiteral() <RPAREN>
        {
            // FLOAT(p): p binary digits; REAL holds 24, DOUBLE 53
            type = new SqlDataTypeSpec(new SqlBasicTypeNameSpec(precision <= 24
                ? SqlTypeName.REAL : SqlTypeName.DOUBLE, s.end(this)), s.end(this));
        }
    |
        <BIT>
        {
            // H2's and SQL Server's BIT: a boolean
            type = new SqlDataTypeSpec(new SqlBasicTypeNameSpec(SqlTypeName.BOOLEAN,
                s.end(this)), s.end(this));
        }
    |
        type = DataType()
    )
    [
        <LBRACKET> [ <UNSIGNED_INTEGER_LITERAL> ] <RBRACKET>
        { type = SqlColumnDef.arrayOf(type); }
    ]
    { return type; }
}

boolean BasaltIfNotExists() :
{
}
{
    <IF> <NOT> <EXISTS> { return true; }
|
    { return false; }
}

boolean BasaltIfExists() :
{
}
{
    <IF> <EXISTS> { return true; }
|
    { return false; }
}

/** REFERENCES parent [(col, ...)] [ON DELETE action] [ON UPDATE action] [[NOT] ENFORCED] */
SqlCreateBasaltTable.ForeignKeyDef BasaltReferences(SqlIdentifier constraint,
    List<SqlIdentifier> columns) :
{
    final SqlIdentifier parent;
    final List<SqlIdentifier> parentColumns = new ArrayList<SqlIdentifier>();
    SqlIdentifier c;
    String onDelete = "NO ACTION";
    String onUpdate = "NO ACTION";
    boolean enforced = true;
}
{
    <REFERENCES> parent = CompoundIdentifier()
    [
        <LPAREN> c = SimpleIdentifier() { parentColumns.add(c); }
        ( <COMMA> c = SimpleIdentifier() { parentColumns.add(c); } )*
        <RPAREN>
    ]
    (
        LOOKAHEAD(2) <ON> <DELETE> onDelete = BasaltReferentialAction()
    |
        LOOKAHEAD(2) <ON> <UPDATE> onUpdate = BasaltReferentialAction()
    )*
    [ LOOKAHEAD(2) <NOT> <ENFORCED> { enforced = false; } | <ENFORCED> ]
    {
        return new SqlCreateBasaltTable.ForeignKeyDef(constraint, columns, parent,
            parentColumns, onDelete, onUpdate, enforced);
    }
}

String BasaltReferentialAction() :
{
}
{
    <CASCADE> { return "CASCADE"; }
|
    <RESTRICT> { return "RESTRICT"; }
|
    <NO> <ACTION> { return "NO ACTION"; }
|
    LOOKAHEAD(2) <SET> <NULL> { return "SET NULL"; }
|
    <SET> <DEFAULT_> { return "SET DEFAULT"; }
}

/** FOREIGN KEY (col, ...) REFERENCES ... */
SqlCreateBasaltTable.ForeignKeyDef BasaltForeignKey(SqlIdentifier constraint) :
{
    final List<SqlIdentifier> cols = new ArrayList<SqlIdentifier>();
    SqlIdentifier c;
    final SqlCreateBasaltTable.ForeignKeyDef fk;
}
{
    <FOREIGN> <KEY> <LPAREN> c = SimpleIdentifier() { cols.add(c); }
    ( <COMMA> c = SimpleIdentifier() { cols.add(c); } )*
    <RPAREN>
    fk = BasaltReferences(constraint, cols) { return fk; }
}

void BasaltColumnOrConstraint(List<SqlColumnDef> columns, List<SqlIdentifier> pkColumns,
    List<Boolean> pkDescending, List<SqlCreateBasaltTable.Unique> uniques,
    List<SqlCreateBasaltTable.Check> checks, List<SqlIdentifier> rowTimestamp,
    List<SqlCreateBasaltTable.ForeignKeyDef> foreignKeys) :
{
    SqlCreateBasaltTable.ForeignKeyDef fk;
    final SqlIdentifier name;
    final SqlDataTypeSpec type;
    boolean notNull = false;
    boolean pk = false;
    boolean desc = false;
    boolean unique = false;
    SqlNode defaultValue = null;
    SqlColumnDef.Identity identity = null;
    boolean always = false;
    long start = 1;
    long increment = 1;
    SqlIdentifier pkCol;
    SqlIdentifier constraint = null;
    List<SqlIdentifier> uniqueCols;
    SqlNode condition;
    final Span s = Span.of();
}
{
    (
        [ <CONSTRAINT> constraint = SimpleIdentifier() ]
        (
            <PRIMARY> <KEY> <LPAREN>
            pkCol = SimpleIdentifier() { desc = false; }
            [ <ASC> | <DESC> { desc = true; } ]
            [ <ROW_TIMESTAMP> { rowTimestamp.add(pkCol); } ]
            { pkColumns.add(pkCol); pkDescending.add(desc); }
            (
                <COMMA> pkCol = SimpleIdentifier() { desc = false; }
                [ <ASC> | <DESC> { desc = true; } ]
                [ <ROW_TIMESTAMP> { rowTimestamp.add(pkCol); } ]
                { pkColumns.add(pkCol); pkDescending.add(desc); }
            )*
            <RPAREN>
        |
            <UNIQUE> <LPAREN> { uniqueCols = new ArrayList<SqlIdentifier>(); }
            pkCol = SimpleIdentifier() { uniqueCols.add(pkCol); }
            ( <COMMA> pkCol = SimpleIdentifier() { uniqueCols.add(pkCol); } )*
            <RPAREN>
            { uniques.add(new SqlCreateBasaltTable.Unique(constraint, uniqueCols)); }
        |
            <CHECK> <LPAREN> condition = Expression(ExprContext.ACCEPT_NON_QUERY) <RPAREN>
            { checks.add(new SqlCreateBasaltTable.Check(constraint, condition)); }
        |
            fk = BasaltForeignKey(constraint) { foreignKeys.add(fk); }
        )
    |
        name = CompoundIdentifier()
        type = BasaltColumnType()
        (
            <NOT> <NULL> { notNull = true; }
        |
            <NULL>
        |
            <PRIMARY> <KEY> { pk = true; notNull = true; }
            [ <ASC> | <DESC> { desc = true; } ]
            [ <ROW_TIMESTAMP> { rowTimestamp.add(name); } ]
        |
            <UNIQUE> { unique = true; }
        |
            <DEFAULT_> defaultValue = Expression3(ExprContext.ACCEPT_NON_QUERY)
        |
            <GENERATED> ( <ALWAYS> { always = true; } | <BY> <DEFAULT_> ) <AS> <IDENTITY>
            [
                <LPAREN>
                (
                    <START> [ <WITH> ] start = BasaltSignedLong()
                |
                    <INCREMENT> [ <BY> ] increment = BasaltSignedLong()
                )*
                <RPAREN>
            ]
            { identity = new SqlColumnDef.Identity(start, increment, always); }
        |
            <AUTO_INCREMENT> { identity = new SqlColumnDef.Identity(1, 1, false); }
        |
            <CHECK> <LPAREN> condition = Expression(ExprContext.ACCEPT_NON_QUERY) <RPAREN>
            { checks.add(new SqlCreateBasaltTable.Check(null, condition)); }
        |
            fk = BasaltReferences(null, List.of(name.getComponent(name.names.size() - 1)))
            { foreignKeys.add(fk); }
        )*
        {
            columns.add(new SqlColumnDef(s.end(this), name, type, notNull, pk, desc,
                defaultValue, identity));
            if (unique) {
                uniques.add(new SqlCreateBasaltTable.Unique(null, List.of(name)));
            }
        }
    )
}

SqlCreate SqlCreateBasaltTable(Span s, boolean replace) :
{
    final boolean ifNotExists;
    final SqlIdentifier id;
    final List<SqlColumnDef> columns = new ArrayList<SqlColumnDef>();
    final List<SqlIdentifier> pkColumns = new ArrayList<SqlIdentifier>();
    final List<Boolean> pkDescending = new ArrayList<Boolean>();
    final List<SqlTableOption> tableOptions = new ArrayList<SqlTableOption>();
    final List<SqlNode> splits = new ArrayList<SqlNode>();
    final List<SqlCreateBasaltTable.Unique> uniques = new ArrayList<SqlCreateBasaltTable.Unique>();
    final List<SqlCreateBasaltTable.Check> checks = new ArrayList<SqlCreateBasaltTable.Check>();
    final List<SqlIdentifier> rowTimestamp = new ArrayList<SqlIdentifier>();
    final List<SqlCreateBasaltTable.ForeignKeyDef> foreignKeys =
        new ArrayList<SqlCreateBasaltTable.ForeignKeyDef>();
    SqlIdentifier optName;
    SqlNode optValue;
    SqlNode split;
    SqlNode query = null;
}
{
    <TABLE> ifNotExists = BasaltIfNotExists() id = CompoundIdentifier()
    [
        <LPAREN>
        BasaltColumnOrConstraint(columns, pkColumns, pkDescending, uniques, checks, rowTimestamp,
            foreignKeys)
        ( <COMMA>
            BasaltColumnOrConstraint(columns, pkColumns, pkDescending, uniques, checks,
                rowTimestamp, foreignKeys) )*
        <RPAREN>
    ]
    [
        LOOKAHEAD(2)
        optName = CompoundIdentifier() <EQ> optValue = BasaltOptionValue()
        { tableOptions.add(new SqlTableOption(optName, optValue)); }
        (
            <COMMA> optName = CompoundIdentifier() <EQ> optValue = BasaltOptionValue()
            { tableOptions.add(new SqlTableOption(optName, optValue)); }
        )*
    ]
    [
        <SPLIT> <ON> <LPAREN> split = Literal() { splits.add(split); }
        ( <COMMA> split = Literal() { splits.add(split); } )*
        <RPAREN>
    ]
    [ <AS> query = OrderedQueryOrExpr(ExprContext.ACCEPT_QUERY) ]
    {
        if (columns.isEmpty() && query == null) {
            throw new ParseException("CREATE TABLE " + id + " needs its columns in parentheses, "
                + "or AS and a query");
        }
        return new SqlCreateBasaltTable(s.end(this), replace, ifNotExists, id, columns,
            pkColumns, pkDescending, uniques, checks, tableOptions, splits, query, rowTimestamp,
            foreignKeys);
    }
}

/** A table option's value: a literal, or a word (as Phoenix's
 * IMMUTABLE_STORAGE_SCHEME=SINGLE_CELL_ARRAY_WITH_OFFSETS), taken as its upper-cased text. */
SqlNode BasaltOptionValue() :
{
    final SqlNode value;
    final SqlIdentifier word;
}
{
    (
        value = Literal() { return value; }
    |
        word = SimpleIdentifier()
        {
            return SqlLiteral.createCharString(word.getSimple().toUpperCase(Locale.ROOT),
                word.getParserPosition());
        }
    )
}

SqlCreate SqlCreateBasaltSchema(Span s, boolean replace) :
{
    final boolean ifNotExists;
    final SqlIdentifier id;
}
{
    <SCHEMA> ifNotExists = BasaltIfNotExists() id = CompoundIdentifier()
    {
        return SqlDdlNodes.createSchema(s.end(this), replace, ifNotExists, id);
    }
}

SqlDrop SqlDropBasaltTable(Span s, boolean replace) :
{
    final boolean ifExists;
    final SqlIdentifier id;
    boolean cascade = false;
    boolean restrict = false;
}
{
    <TABLE> ifExists = BasaltIfExists() id = CompoundIdentifier()
    [ <CASCADE> { cascade = true; } | <RESTRICT> { restrict = true; } ]
    {
        return new SqlDropBasaltTable(s.end(this), ifExists, id, cascade, restrict);
    }
}

SqlDrop SqlDropBasaltSchema(Span s, boolean replace) :
{
    final boolean ifExists;
    final SqlIdentifier id;
    boolean cascade = false;
}
{
    <SCHEMA> ifExists = BasaltIfExists() id = CompoundIdentifier()
    [ <CASCADE> { cascade = true; } | <RESTRICT> ]
    {
        return new SqlDropBasaltTable.Schema(s.end(this), ifExists, id, cascade);
    }
}

SqlNode SqlAlterBasaltTable() :
{
    final SqlIdentifier id;
    final SqlIdentifier column;
    SqlDataTypeSpec type = null;
    boolean notNull = false;
    SqlNode defaultValue = null;
    final boolean ifExists;
    final Span s;
    SqlIdentifier constraint = null;
    SqlCreateBasaltTable.ForeignKeyDef fk;
    final List<SqlIdentifier> uniqueCols = new ArrayList<SqlIdentifier>();
    SqlIdentifier c;
    boolean constraintIfExists;
}
{
    <ALTER> { s = span(); } <TABLE> ifExists = BasaltIfExists() id = CompoundIdentifier()
    (
        LOOKAHEAD(2) <ADD> [ <CONSTRAINT> constraint = SimpleIdentifier() ]
        (
            fk = BasaltForeignKey(constraint)
            { return new SqlAlterBasaltTable.Constraint(s.end(this), ifExists, id, fk, null); }
        |
            <UNIQUE> <LPAREN> c = SimpleIdentifier() { uniqueCols.add(c); }
            ( <COMMA> c = SimpleIdentifier() { uniqueCols.add(c); } )* <RPAREN>
            {
                return new SqlAlterBasaltTable.Constraint(s.end(this), ifExists, id,
                    new SqlCreateBasaltTable.Unique(constraint, uniqueCols), null);
            }
        )
    |
        <ALTER> [ <COLUMN> ] c = SimpleIdentifier()
        (
            LOOKAHEAD(2) <SET> <DEFAULT_> defaultValue = Expression3(ExprContext.ACCEPT_NON_QUERY)
            {
                return new SqlAlterBasaltTable.AlterColumn(s.end(this), ifExists, id, c,
                    SqlAlterBasaltTable.AlterColumn.Action.SET_DEFAULT, defaultValue, null);
            }
        |
            LOOKAHEAD(2) <SET> <NOT> <NULL>
            {
                return new SqlAlterBasaltTable.AlterColumn(s.end(this), ifExists, id, c,
                    SqlAlterBasaltTable.AlterColumn.Action.SET_NOT_NULL, null, null);
            }
        |
            LOOKAHEAD(2) <DROP> <DEFAULT_>
            {
                return new SqlAlterBasaltTable.AlterColumn(s.end(this), ifExists, id, c,
                    SqlAlterBasaltTable.AlterColumn.Action.DROP_DEFAULT, null, null);
            }
        |
            <DROP> <NOT> <NULL>
            {
                return new SqlAlterBasaltTable.AlterColumn(s.end(this), ifExists, id, c,
                    SqlAlterBasaltTable.AlterColumn.Action.DROP_NOT_NULL, null, null);
            }
        |
            [ <SET> <DATA> ] <TYPE> type = BasaltColumnType()
            {
                return new SqlAlterBasaltTable.AlterColumn(s.end(this), ifExists, id, c,
                    SqlAlterBasaltTable.AlterColumn.Action.TYPE, null, type);
            }
        )
    |
        LOOKAHEAD(2) <DROP> <CONSTRAINT> constraintIfExists = BasaltIfExists()
        constraint = SimpleIdentifier()
        {
            return new SqlAlterBasaltTable.Constraint(s.end(this), ifExists, id, null,
                new SqlAlterBasaltTable.DropConstraint(constraint, constraintIfExists));
        }
    |
        <ADD> [ <COLUMN> ] column = CompoundIdentifier() type = BasaltColumnType()
        [ <DEFAULT_> defaultValue = Expression3(ExprContext.ACCEPT_NON_QUERY) ]
        [ <NOT> <NULL> { notNull = true; } | <NULL> ]
    |
        <DROP> [ <COLUMN> ] column = CompoundIdentifier()
    )
    {
        return new SqlAlterBasaltTable(s.end(this), ifExists, id, column, type, notNull,
            defaultValue);
    }
}

/** COMMENT ON TABLE t IS 'text' | COMMENT ON COLUMN t.col IS 'text' (NULL: none) */
SqlNode SqlCommentOn() :
{
    final Span s;
    final SqlIdentifier id;
    boolean column = false;
    SqlNode text = null;
}
{
    <COMMENT> { s = span(); } <ON>
    ( <TABLE> | <COLUMN> { column = true; } )
    id = CompoundIdentifier()
    <IS> ( text = StringLiteral() | <NULL> )
    {
        return new SqlAlterBasaltTable.Comment(s.end(this), id, column,
            text == null ? null : ((SqlLiteral) text).getValueAs(String.class));
    }
}

/** TRUNCATE TABLE t [CONTINUE IDENTITY | RESTART IDENTITY] */
SqlNode SqlTruncateBasaltTable() :
{
    final SqlIdentifier id;
    boolean restart = false;
    final Span s;
}
{
    <TRUNCATE> { s = span(); } <TABLE> id = CompoundIdentifier()
    [ <CONTINUE> <IDENTITY> | <RESTART> <IDENTITY> { restart = true; } ]
    {
        return new SqlDropBasaltTable.Truncate(s.end(this), id, restart);
    }
}

SqlCreate SqlCreateBasaltView(Span s, boolean replace) :
{
    final SqlIdentifier id;
    SqlNodeList columnList = null;
    final SqlNode query;
}
{
    <VIEW> id = CompoundIdentifier()
    [ columnList = ParenthesizedSimpleIdentifierList() ]
    <AS> query = OrderedQueryOrExpr(ExprContext.ACCEPT_QUERY)
    {
        return SqlDdlNodes.createView(s.end(this), replace, id, columnList, query);
    }
}

SqlDrop SqlDropBasaltView(Span s, boolean replace) :
{
    final boolean ifExists;
    final SqlIdentifier id;
}
{
    <VIEW> ifExists = BasaltIfExists() id = CompoundIdentifier()
    {
        return SqlDdlNodes.dropView(s.end(this), ifExists, id);
    }
}

long BasaltSignedLong() :
{
    boolean negative = false;
    final SqlLiteral n;
}
{
    [ <MINUS> { negative = true; } | <PLUS> ] n = UnsignedNumericLiteral()
    {
        long v = n.bigDecimalValue().longValueExact();
        return negative ? -v : v;
    }
}

SqlCreate SqlCreateBasaltSequence(Span s, boolean replace) :
{
    final boolean ifNotExists;
    final SqlIdentifier id;
    long start = 1;
    long increment = 1;
}
{
    <SEQUENCE> ifNotExists = BasaltIfNotExists() id = CompoundIdentifier()
    (
        <START> [ <WITH> ] start = BasaltSignedLong()
    |
        <INCREMENT> [ <BY> ] increment = BasaltSignedLong()
    )*
    {
        return new SqlBasaltSequence.Create(s.end(this), ifNotExists, id, start, increment);
    }
}

SqlDrop SqlDropBasaltSequence(Span s, boolean replace) :
{
    final boolean ifExists;
    final SqlIdentifier id;
}
{
    <SEQUENCE> ifExists = BasaltIfExists() id = CompoundIdentifier()
    {
        return new SqlBasaltSequence.Drop(s.end(this), ifExists, id);
    }
}

SqlCreate SqlCreateBasaltIndex(Span s, boolean replace) :
{
    boolean unique = false;
    final boolean ifNotExists;
    final SqlIdentifier name;
    final SqlIdentifier table;
    final List<SqlNode> columns = new ArrayList<SqlNode>();
    final List<Boolean> descending = new ArrayList<Boolean>();
    final List<SqlIdentifier> includes = new ArrayList<SqlIdentifier>();
    final List<SqlTableOption> indexOptions = new ArrayList<SqlTableOption>();
    SqlIdentifier col;
    SqlNode part;
    boolean desc;
    SqlIdentifier optName;
    SqlNode optValue;
}
{
    [ <UNIQUE> { unique = true; } ] [ <LOCAL> ]
    <INDEX> ifNotExists = BasaltIfNotExists() name = SimpleIdentifier()
    <ON> table = CompoundIdentifier()
    <LPAREN>
    part = Expression(ExprContext.ACCEPT_NON_QUERY) { desc = false; }
    [ <ASC> | <DESC> { desc = true; } ]
    { columns.add(part); descending.add(desc); }
    (
        <COMMA> part = Expression(ExprContext.ACCEPT_NON_QUERY) { desc = false; }
        [ <ASC> | <DESC> { desc = true; } ]
        { columns.add(part); descending.add(desc); }
    )*
    <RPAREN>
    [
        <INCLUDE> <LPAREN> col = SimpleIdentifier() { includes.add(col); }
        ( <COMMA> col = SimpleIdentifier() { includes.add(col); } )*
        <RPAREN>
    ]
    [
        LOOKAHEAD(2)
        optName = CompoundIdentifier() <EQ> optValue = BasaltOptionValue()
        { indexOptions.add(new SqlTableOption(optName, optValue)); }
        (
            <COMMA> optName = CompoundIdentifier() <EQ> optValue = BasaltOptionValue()
            { indexOptions.add(new SqlTableOption(optName, optValue)); }
        )*
    ]
    {
        return new SqlCreateBasaltIndex(s.end(this), ifNotExists, unique, name, table, columns,
            descending, includes, indexOptions);
    }
}

SqlDrop SqlDropBasaltIndex(Span s, boolean replace) :
{
    final boolean ifExists;
    final SqlIdentifier name;
    SqlIdentifier table = null;
}
{
    <INDEX> ifExists = BasaltIfExists() name = SimpleIdentifier()
    [ <ON> table = CompoundIdentifier() ]
    {
        return new SqlDropBasaltIndex(s.end(this), ifExists, name, table);
    }
}

SqlNode SqlAlterBasaltIndex() :
{
    final SqlIdentifier name;
    final SqlIdentifier table;
    final Span s;
}
{
    <ALTER> { s = span(); } <INDEX> name = SimpleIdentifier() <ON> table = CompoundIdentifier()
    <REBUILD>
    {
        return new SqlAlterBasaltIndex(s.end(this), name, table);
    }
}

/**
 * An INSERT or UPSERT, with Phoenix's (and MySQL's) trailing
 * ON DUPLICATE KEY IGNORE | UPDATE c = e, ... | UPDATE_ONLY c = e, ...
 */
SqlNode BasaltInsertOrUpsert() :
{
    final SqlNode insert;
    final Span s;
    final List<SqlNode> targets = new ArrayList<SqlNode>();
    final List<SqlNode> expressions = new ArrayList<SqlNode>();
    SqlInsertOnDuplicateKey.Action action;
}
{
    insert = SqlInsert()
    (
        <ON> { s = span(); } <DUPLICATE> <KEY>
        (
            <IGNORE> { action = SqlInsertOnDuplicateKey.Action.IGNORE; }
        |
            (
                <UPDATE> { action = SqlInsertOnDuplicateKey.Action.UPDATE; }
            |
                <UPDATE_ONLY> { action = SqlInsertOnDuplicateKey.Action.UPDATE_ONLY; }
            )
            BasaltAssignment(targets, expressions)
            ( <COMMA> BasaltAssignment(targets, expressions) )*
        )
        {
            return SqlInsertOnDuplicateKey.of(insert, action, s.end(this), targets,
                expressions);
        }
    |
        { return insert; }
    )
}

void BasaltAssignment(List<SqlNode> targets, List<SqlNode> expressions) :
{
    final SqlNode target;
    final SqlNode e;
}
{
    target = CompoundIdentifier() <EQ> e = Expression(ExprContext.ACCEPT_NON_QUERY)
    {
        targets.add(target);
        expressions.add(e);
    }
}

/**
 * EXPLAIN PLAN as Calcite's grammar has it, but of any statement Basalt parses (an UPSERT with
 * ON DUPLICATE KEY too).
 */
SqlNode BasaltExplain() :
{
    final SqlNode explained;
    SqlExplainLevel level = SqlExplainLevel.EXPPLAN_ATTRIBUTES;
    final SqlExplain.Depth depth;
    SqlExplainFormat format = SqlExplainFormat.TEXT;
}
{
    <EXPLAIN> <PLAN>
    [ level = ExplainDetailLevel() ]
    depth = ExplainDepth()
    [
        LOOKAHEAD(2) <AS> <XML> { format = SqlExplainFormat.XML; }
    |
        LOOKAHEAD(2) <AS> <JSON> { format = SqlExplainFormat.JSON; }
    |
        <AS> <DOT_FORMAT> { format = SqlExplainFormat.DOT; }
    ]
    <FOR>
    (
        explained = OrderedQueryOrExpr(ExprContext.ACCEPT_QUERY)
    |
        explained = BasaltInsertOrUpsert()
    |
        explained = SqlDelete()
    |
        explained = SqlUpdate()
    |
        explained = SqlMerge()
    )
    {
        return new SqlExplain(getPos(), explained, level.symbol(SqlParserPos.ZERO),
            depth.symbol(SqlParserPos.ZERO), format.symbol(SqlParserPos.ZERO), nDynamicParams);
    }
}
