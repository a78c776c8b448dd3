package io.basaltdb.sql.ddl;

import io.basaltdb.sql.StorageSchema;
import io.basaltdb.sql.SqlStateException;
import io.basaltdb.sql.SqlStates;
import io.basaltdb.sql.catalog.SqlCatalog;
import io.basaltdb.sql.catalog.SqlColumn;
import io.basaltdb.sql.catalog.SqlTableDef;
import io.basaltdb.sql.parser.SqlCreateBasaltTable;
import io.basaltdb.sql.schema.BasaltSchema;
import io.basaltdb.storage.FamilyOptions;
import io.basaltdb.storage.InvalidArgumentException;
import io.basaltdb.storage.Storage;
import io.basaltdb.storage.TableName;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.calcite.jdbc.CalcitePrepare;
import org.apache.calcite.server.DdlExecutorImpl;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.ddl.SqlCreateSchema;

/**
 * Runs Basalt's DDL: a table becomes an engine table (its families, options and split points)
 * and a SQL definition in the catalog; a schema an engine namespace. Calcite finds the
 * {@code execute} method matching the statement's node class. Stateless.
 *
 * <p>Mapping: an unqualified table goes to the {@code default} namespace; a non-key column
 * without a family goes to family {@code 0} (as in Phoenix). Options apply to every family, or
 * to one when qualified ({@code f.TTL=...}): VERSIONS, MIN_VERSIONS, TTL, COMPRESSION,
 * BLOCKSIZE, BLOOMFILTER, DATA_BLOCK_ENCODING (NONE/PREFIX), IN_MEMORY; SALT_BUCKETS and
 * IMMUTABLE_STORAGE_SCHEME (ONE_CELL_PER_COLUMN, the default, or SINGLE_CELL_ARRAY_WITH_OFFSETS:
 * one cell per family) are the table's. SPLIT ON values are keys of the first primary-key
 * column.
 */
public final class BasaltDdlExecutor extends DdlExecutorImpl {
  public static final BasaltDdlExecutor INSTANCE = new BasaltDdlExecutor();
  public static final String DEFAULT_FAMILY = "0";
  /** Phoenix's name of the storage scheme with one cell per family. */
  public static final String PACKED_SCHEME = "SINGLE_CELL_ARRAY_WITH_OFFSETS";

  private BasaltDdlExecutor() {}

  private static Storage database(CalcitePrepare.Context context) {
    Storage db = StorageSchema.of(context.getMutableRootSchema());
    if (db == null) {
      throw new IllegalStateException("no Basalt database behind this connection");
    }
    return db;
  }

  /** Engine table name of a SQL name (schema DEFAULT or none = the default namespace). */
  static TableName tableName(SqlIdentifier id) {
    String table = id.names.get(id.names.size() - 1);
    String ns = id.names.size() > 1 ? id.names.get(id.names.size() - 2)
        : TableName.DEFAULT_NAMESPACE;
    if (ns.equals("DEFAULT")) {
      ns = TableName.DEFAULT_NAMESPACE;
    }
    return new TableName(ns, table);
  }

  /**
   * The definition of the table {@code name} an ALTER names: null when it does not exist and
   * the statement said IF EXISTS, else 42P01.
   */
  static SqlTableDef alteredTable(SqlCatalog catalog, SqlIdentifier name, boolean ifExists) {
    SqlTableDef def = catalog.get(tableName(name));
    if (def == null && !ifExists) {
      throw new io.basaltdb.storage.TableNotFoundException("table " + name + " does not exist");
    }
    return def;
  }

  /**
   * Every DDL statement commits its connection's open transaction first (as H2 and MySQL do), and
   * moves the catalog version (before and after), so no stale plan runs.
   */
  @Override
  public void executeDdl(CalcitePrepare.Context context, org.apache.calcite.sql.SqlNode node) {
    Storage db = StorageSchema.of(context.getRootSchema());
    if (context.getDataContext().getQueryProvider()
        instanceof org.apache.calcite.jdbc.CalciteConnection c) {
      io.basaltdb.sql.exec.context.ConnectionSettings.of(c).checkWritable("DDL");
      io.basaltdb.sql.exec.ConnectionTransaction.commit(c); // DDL commits the open transaction first
    }
    TableName scope = db == null ? null : indexedTable(db, node);
    if (db != null) {
      io.basaltdb.sql.catalog.CatalogVersion.bump(db, scope);
    }
    try {
      super.executeDdl(context, node);
    } finally {
      if (db != null) {
        io.basaltdb.sql.catalog.CatalogVersion.bump(db, scope);
      }
    }
  }

  /**
   * The table whose indexes a CREATE or DROP INDEX changes, when no other table's plans can
   * depend on them: it has no foreign key, nor does any table reference it (a write of one
   * table of a key checks or cascades into the other). Null for any other DDL.
   */
  private static TableName indexedTable(Storage db, org.apache.calcite.sql.SqlNode node) {
    SqlIdentifier table = node instanceof io.basaltdb.sql.parser.SqlCreateBasaltIndex c ? c.table
        : node instanceof io.basaltdb.sql.parser.SqlDropBasaltIndex d ? d.table : null;
    if (table == null) {
      return null;
    }
    TableName t = tableName(table);
    SqlTableDef def = io.basaltdb.sql.catalog.ForeignKeys.definition(db, t);
    return def != null && def.foreignKeys().isEmpty()
        && io.basaltdb.sql.catalog.ForeignKeys.referencing(db, t).isEmpty() ? t : null;
  }

  public void execute(SqlCreateSchema create, CalcitePrepare.Context context) {
    Storage db = database(context);
    String ns = create.name.getSimple();
    if (db.admin().listNamespaces().contains(ns)) {
      if (create.ifNotExists) {
        return;
      }
      throw new SqlStateException(SqlStates.DUPLICATE_OBJECT, "schema " + ns + " already exists");
    }
    db.admin().createNamespace(ns);
    BasaltSchema.addNamespace(context.getMutableRootSchema(), db, ns);
  }

  /** {@code DROP TABLE ... [CASCADE | RESTRICT]} ({@link TableDrops}). */
  public void execute(io.basaltdb.sql.parser.SqlDropBasaltTable drop,
      CalcitePrepare.Context context) {
    TableDrops.dropTable(database(context), tableName(drop.name), drop.ifExists, drop.name,
        drop.cascade, drop.restrict);
  }

  /** {@code DROP SCHEMA s [CASCADE | RESTRICT]} ({@link TableDrops}). */
  public void execute(io.basaltdb.sql.parser.SqlDropBasaltTable.Schema drop,
      CalcitePrepare.Context context) {
    TableDrops.dropSchema(database(context), drop, context);
  }

  /** {@code TRUNCATE TABLE} ({@link TableDrops}). */
  public void execute(io.basaltdb.sql.parser.SqlDropBasaltTable.Truncate truncate,
      CalcitePrepare.Context context) {
    TableDrops.truncate(database(context), truncate);
  }

  /** CREATE INDEX: see {@link IndexDdl}. */
  public void execute(io.basaltdb.sql.parser.SqlCreateBasaltIndex create,
      CalcitePrepare.Context context) {
    IndexDdl.create(database(context), create);
  }

  public void execute(io.basaltdb.sql.parser.SqlDropBasaltIndex drop,
      CalcitePrepare.Context context) {
    IndexDdl.drop(database(context), drop);
  }

  public void execute(io.basaltdb.sql.parser.SqlAlterBasaltIndex alter,
      CalcitePrepare.Context context) {
    IndexDdl.rebuild(database(context), alter);
  }

  /** {@code ALTER TABLE ... ADD | DROP CONSTRAINT} ({@link ForeignKeyDdl}). */
  public void execute(io.basaltdb.sql.parser.SqlAlterBasaltTable.Constraint alter,
      CalcitePrepare.Context context) {
    ForeignKeyDdl.alter(database(context), alter);
  }

  /** {@code ALTER TABLE ... ALTER COLUMN} ({@link ColumnChanges}). */
  public void execute(io.basaltdb.sql.parser.SqlAlterBasaltTable.AlterColumn alter,
      CalcitePrepare.Context context) {
    ColumnChanges.alter(database(context), alter);
  }

  /** {@code COMMENT ON} ({@link ColumnChanges}). */
  public void execute(io.basaltdb.sql.parser.SqlAlterBasaltTable.Comment comment,
      CalcitePrepare.Context context) {
    ColumnChanges.comment(database(context), comment);
  }

  /**
   * ALTER TABLE ADD: a nullable column (a new family is added to the engine table online).
   * ALTER TABLE DROP: the column leaves the definition; its cells stay on disk unread (as in
   * Phoenix) until the row is rewritten. Key columns cannot be added or dropped.
   */
  public void execute(io.basaltdb.sql.parser.SqlAlterBasaltTable alter,
      CalcitePrepare.Context context) {
    Storage db = database(context);
    TableName name = tableName(alter.name);
    SqlCatalog catalog = new SqlCatalog(db);
    SqlTableDef def = alteredTable(catalog, alter.name, alter.ifExists);
    if (def == null) {
      return;
    }
    String col = alter.column.names.get(alter.column.names.size() - 1);
    List<SqlColumn> cols = new ArrayList<>(def.columns());
    SqlColumn existing = cols.stream().filter(c -> c.name().equals(col)).findFirst().orElse(null);
    String defaultText = null;
    if (alter.isAdd()) {
      if (existing != null) {
        throw new InvalidArgumentException("table " + alter.name + " already has column " + col);
      }
      if (alter.notNull) {
        throw new InvalidArgumentException("an added column must be nullable: existing rows "
            + "have no value for " + col);
      }
      String family = alter.column.names.size() > 1 ? alter.column.names.get(0)
          : def.markerFamily();
      if (!db.admin().describe(name).families().containsKey(family)) {
        db.admin().addFamily(name, family, FamilyOptions.DEFAULT);
      }
      // before a hidden row key, which stays last
      SqlColumn added = DeclaredColumns.column(col, alter.type, true, -1, false, family);
      cols.add(def.visibleColumnCount(), added);
      DeclaredColumns.checkMaps(cols, def.packed(), alter.name.toString());
      defaultText = alter.defaultValue == null ? null
          : io.basaltdb.sql.constraint.ColumnDefaults.text(added, alter.defaultValue);
    } else {
      if (existing == null) {
        throw new InvalidArgumentException("table " + alter.name + " has no column " + col);
      }
      if (existing.isKey()) {
        throw new InvalidArgumentException("primary key column " + col + " cannot be dropped");
      }
      IndexDdl.checkNotIndexed(db, name, col);
      for (io.basaltdb.sql.catalog.ForeignKey fk : def.foreignKeys()) {
        if (fk.columns().contains(col)) {
          throw new SqlStateException(SqlStates.DEPENDENT_OBJECTS_STILL_EXIST, "column " + col
              + " of " + alter.name + " is in foreign key " + fk.name() + " (drop the "
              + "constraint first: ALTER TABLE ... DROP CONSTRAINT " + fk.name() + ")");
        }
      }
      if (def.packed()) {
        // its slot would be taken by the next column added, which would then read old values
        throw new UnsupportedOperationException("columns of " + alter.name + " cannot be "
            + "dropped: it stores each family in one cell (IMMUTABLE_STORAGE_SCHEME="
            + PACKED_SCHEME + ")");
      }
      cols.remove(existing);
    }
    Map<String, String> defaults = new LinkedHashMap<>(def.defaults());
    defaults.remove(col); // a dropped column's default goes with it
    if (defaultText != null) {
      defaults.put(col, defaultText);
    }
    List<SqlTableDef.Check> checks = new ArrayList<>(def.checks());
    if (!alter.isAdd()) { // an UNSIGNED column's own check goes with it; others must not read it
      String own = (name.name() + "_" + col + "_UNSIGNED").toUpperCase(Locale.ROOT);
      checks.removeIf(c -> c.name().equals(own));
      io.basaltdb.sql.constraint.CheckConstraints.checkNotUsed(def.withChecks(checks), col);
    } else if (DeclaredColumns.unsignedCheck(name.name(), col, alter.type) != null) {
      checks.add(DeclaredColumns.unsignedCheck(name.name(), col, alter.type));
    }
    catalog.put(new SqlTableDef(name, cols, def.saltBuckets(), def.markerFamily(),
        def.packed(), defaults, checks, def.rowTimestamp(), def.foreignKeys(),
        def.generatedAlways().stream().filter(c -> !c.equals(col) || alter.isAdd()).toList()));
    if (defaultText != null) { // the rows there are take the default, as in the standard
      io.basaltdb.sql.catalog.CatalogVersion.bump(db); // the update sees the new column
      CreateTableAsSelect.run(context, "UPDATE " + CreateTableAsSelect.quotedName(alter.name,
          context) + " SET " + CreateTableAsSelect.quotedName(new SqlIdentifier(col,
              alter.column.getParserPosition()), context) + " = " + defaultText);
    }
  }

  /** A view: its query text kept in the SQL catalog, expanded by Calcite where it is used. */
  public void execute(org.apache.calcite.sql.ddl.SqlCreateView create,
      CalcitePrepare.Context context) {
    Storage db = database(context);
    TableName name = tableName(create.name);
    SqlCatalog catalog = new SqlCatalog(db);
    if (db.admin().tableExists(name)) {
      throw new SqlStateException(SqlStates.DUPLICATE_OBJECT,
          "a table named " + create.name + " exists");
    }
    if (catalog.getView(name) != null && !create.getReplace()) {
      throw new SqlStateException(SqlStates.DUPLICATE_OBJECT,
          "view " + create.name + " already exists");
    }
    String sql = create.query.toSqlString(c -> c.withDialect(
        org.apache.calcite.sql.dialect.CalciteSqlDialect.DEFAULT)).getSql();
    if (create.columnList != null) {
      StringBuilder cols = new StringBuilder();
      for (SqlNode c : create.columnList) {
        cols.append(cols.length() > 0 ? ", " : "").append('"')
            .append(((SqlIdentifier) c).getSimple()).append('"');
      }
      sql = "SELECT * FROM (" + sql + ") AS \"V\" (" + cols + ")";
    }
    catalog.putView(name, sql);
  }

  public void execute(org.apache.calcite.sql.ddl.SqlDropView drop,
      CalcitePrepare.Context context) {
    Storage db = database(context);
    TableName name = tableName(drop.name);
    SqlCatalog catalog = new SqlCatalog(db);
    if (catalog.getView(name) == null) {
      if (drop.ifExists) {
        return;
      }
      throw new io.basaltdb.storage.TableNotFoundException("view " + drop.name + " does not exist");
    }
    catalog.remove(name);
  }

  /** A sequence: an engine counter in the SQL catalog ({@link SqlCatalog#putSequence}). */
  public void execute(io.basaltdb.sql.parser.SqlBasaltSequence.Create create,
      CalcitePrepare.Context context) {
    Storage db = database(context);
    TableName name = tableName(create.name);
    SqlCatalog catalog = new SqlCatalog(db);
    if (create.increment == 0) {
      throw new InvalidArgumentException("sequence " + create.name + ": INCREMENT BY must not "
          + "be 0");
    }
    if (catalog.sequenceIncrement(name) != null) {
      if (create.ifNotExists) {
        return;
      }
      throw new SqlStateException(SqlStates.DUPLICATE_OBJECT,
          "sequence " + create.name + " already exists");
    }
    if (db.admin().tableExists(name) || catalog.getView(name) != null) {
      throw new SqlStateException(SqlStates.DUPLICATE_OBJECT,
          "a table or view named " + create.name + " exists");
    }
    if (!db.admin().listNamespaces().contains(name.namespace())) {
      throw new io.basaltdb.storage.TableNotFoundException("schema "
          + BasaltSchema.schemaName(name.namespace()) + " does not exist");
    }
    catalog.putSequence(name, create.start, create.increment);
  }

  public void execute(io.basaltdb.sql.parser.SqlBasaltSequence.Drop drop,
      CalcitePrepare.Context context) {
    Storage db = database(context);
    TableName name = tableName(drop.name);
    SqlCatalog catalog = new SqlCatalog(db);
    if (catalog.sequenceIncrement(name) == null) {
      if (drop.ifExists) {
        return;
      }
      throw new io.basaltdb.storage.TableNotFoundException("sequence " + drop.name
          + " does not exist");
    }
    catalog.remove(name);
  }

  public void execute(SqlCreateBasaltTable create, CalcitePrepare.Context context) {
    Storage db = database(context);
    TableName name = tableName(create.name);
    if (db.admin().tableExists(name)) {
      if (create.ifNotExists) {
        return;
      }
      throw new SqlStateException(SqlStates.DUPLICATE_OBJECT,
          "table " + create.name + " already exists");
    }
    if (create.query != null) { // CREATE TABLE ... AS query
      java.sql.Connection c = CreateTableAsSelect.connection(context);
      String query = CreateTableAsSelect.text(create.query, context);
      SqlCreateBasaltTable made = CreateTableAsSelect.withQueryColumns(create, c, query);
      CreateTable.run(made, db, name);
      io.basaltdb.sql.catalog.CatalogVersion.bump(db); // the fill sees the new table
      CreateTableAsSelect.fill(made, c, query, context);
      return;
    }
    CreateTable.run(create, db, name);
  }
}
