package io.basaltdb.sql.schema;

import io.basaltdb.sql.ConnectionRoot;
import io.basaltdb.sql.StorageSchema;
import io.basaltdb.sql.catalog.SqlCatalog;
import io.basaltdb.sql.catalog.SqlTableDef;
import io.basaltdb.sql.exec.ArrayFunctions;
import io.basaltdb.sql.exec.LazyScalarFunction;
import io.basaltdb.storage.Storage;
import io.basaltdb.storage.TableName;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.calcite.jdbc.CalciteSchema;
import org.apache.calcite.schema.SchemaPlus;
import org.apache.calcite.schema.Table;
import org.apache.calcite.schema.impl.AbstractSchema;

/**
 * One engine namespace as a SQL schema. Its tables are the SQL tables the catalog defines in
 * the namespace, each with its version history ({@code T$HISTORY}, {@link HistoryTable}), and,
 * for every other engine table there, a raw view of it ({@link RawEngineTable}), its views
 * and its sequences. The catalog is read again when its version moved (every DDL moves it;
 * {@code CatalogVersion}) or the engine's tables changed, so DDL made by another connection of
 * the process is visible at once (another process's over HBase within the version's second).
 * The engine's {@code default} namespace is the SQL schema {@code DEFAULT}; other namespaces
 * keep their names.
 */
public final class BasaltSchema extends AbstractSchema implements StorageSchema {
  private final Storage db;
  private final SqlCatalog catalog;
  private final String namespace;
  /** This schema as Calcite holds it (views expand against it); set when registered. */
  private volatile SchemaPlus self;

  BasaltSchema(Storage db, SqlCatalog catalog, String namespace) {
    this.db = db;
    this.catalog = catalog;
    this.namespace = namespace;
  }

  /** The SQL schema name of an engine namespace. */
  public static String schemaName(String namespace) {
    return namespace.equals(TableName.DEFAULT_NAMESPACE) ? "DEFAULT" : namespace;
  }

  /**
   * Adds a sub-schema per engine namespace (but the system one) under {@code root}, and the
   * {@link InformationSchema} (unless a namespace has its name).
   */
  public static SqlCatalog register(SchemaPlus root, Storage db) {
    SqlCatalog catalog = new SqlCatalog(db);
    io.basaltdb.sql.catalog.ForeignKeys.know(db); // its foreign keys are read as of now
    if (!db.admin().listNamespaces().contains(InformationSchema.NAME)) {
      root.add(InformationSchema.NAME, new InformationSchema(db));
    }
    // the type names users bring from other databases, for CAST as for CREATE TABLE
    io.basaltdb.sql.type.ColumnType.ALIASES.forEach((alias, type) -> root.add(alias,
        org.apache.calcite.rel.type.RelDataTypeImpl.proto(type.sqlType(), true)));
    root.add("ARRAY_LENGTH", LazyScalarFunction.of(ArrayFunctions.class, "arrayLength"));
    for (String ns : db.admin().listNamespaces()) {
      if (!ns.equals(SqlCatalog.SYSTEM_NAMESPACE)) {
        BasaltSchema schema = new BasaltSchema(db, catalog, ns);
        schema.self = root.add(schemaName(ns), schema);
      }
    }
    return catalog;
  }

  /** Adds the schema of a namespace created after the connection registered the others. */
  public static void addNamespace(CalciteSchema root, Storage db, String namespace) {
    BasaltSchema schema = new BasaltSchema(db, new SqlCatalog(db), namespace);
    schema.self = root.add(schemaName(namespace), schema).plus();
  }

  /**
   * A view (its query kept in the SQL catalog) as a table of type VIEW, so JDBC metadata lists
   * it with its columns like any table; its row type is derived, by validating the query,
   * only when asked for.
   */
  private Table view(SchemaPlus plus, String name, String sql) {
    String schema = schemaName(namespace);
    var macro = org.apache.calcite.schema.impl.ViewTable.viewMacro(plus, sql, List.of(schema),
        List.of(schema, name), false);
    return new org.apache.calcite.schema.impl.ViewTable(Object[].class,
        f -> macro.apply(List.of()).getRowType(f), sql, List.of(schema), List.of(schema, name));
  }

  /** How a sequence appears to the validator: a table of type SEQUENCE. */
  private static final Table SEQUENCE = new org.apache.calcite.schema.impl.AbstractTable() {
    @Override
    public org.apache.calcite.rel.type.RelDataType getRowType(
        org.apache.calcite.rel.type.RelDataTypeFactory f) {
      return f.builder().add("NEXT_VALUE", org.apache.calcite.sql.type.SqlTypeName.BIGINT)
          .build();
    }

    @Override
    public org.apache.calcite.schema.Schema.TableType getJdbcTableType() {
      return org.apache.calcite.schema.Schema.TableType.SEQUENCE;
    }
  };

  /**
   * Brings schemas (a connection's, and a statement's snapshot of them) up to date with the
   * engine's namespaces (another connection may have created or dropped one since this
   * connection opened); cheap when nothing changed.
   */
  public static void sync(Storage db, CalciteSchema... roots) {
    List<String> namespaces = db.admin().listNamespaces();
    for (CalciteSchema root : roots) {
      java.util.Set<String> wanted = new java.util.HashSet<>();
      for (String ns : namespaces) {
        if (!ns.equals(SqlCatalog.SYSTEM_NAMESPACE)) {
          wanted.add(schemaName(ns));
          if (root.getSubSchema(schemaName(ns), true) == null) {
            addNamespace(root, db, ns);
          }
        }
      }
      for (Map.Entry<String, CalciteSchema> e : Map.copyOf(root.getSubSchemaMap()).entrySet()) {
        if (e.getValue().schema instanceof BasaltSchema && !wanted.contains(e.getKey())) {
          root.removeSubSchema(e.getKey());
        }
      }
    }
  }

  /**
   * How far a connection's schemas are up to date, kept by the connection ({@link
   * ConnectionRoot#extension}): the catalog version they were read at (JDBC metadata) and the
   * namespaces they were last brought up to (statements).
   */
  private static final class Synced {
    volatile long readAt = -1;
    volatile List<String> namespaces;
  }

  /** The connection's {@link Synced}, or a fresh one for a connection without a root of Basalt's. */
  private static Synced synced(CalciteSchema connection) {
    ConnectionRoot root = ConnectionRoot.of(connection);
    return root == null ? new Synced() : root.extension(Synced.class, Synced::new);
  }

  /**
   * Reads a connection's schemas again when SQL DDL changed the catalog since they were read,
   * for JDBC metadata: Calcite lists a connection's tables from schemas it keeps (statements
   * plan against a fresh snapshot each), so a dropped table stayed listed and a table another
   * connection created never appeared.
   */
  public static void refresh(Storage db, CalciteSchema connection) {
    long version = io.basaltdb.sql.catalog.CatalogVersion.current(db);
    Synced synced = synced(connection);
    if (synced.readAt == version) {
      return;
    }
    sync(db, new CalciteSchema[] {connection});
    for (String ns : db.admin().listNamespaces()) {
      if (!ns.equals(SqlCatalog.SYSTEM_NAMESPACE)) {
        addNamespace(connection, db, ns); // replaces the schema read before
      }
    }
    synced.readAt = version;
  }

  /**
   * {@link #sync} of a connection's schemas and of a statement's snapshot of them, taken from
   * the connection's schemas when the statement began: when the connection's schemas already
   * had the engine's namespaces then, the snapshot has them too, and only the namespaces are
   * listed (a statement's cost, where a whole sync costs microseconds).
   */
  public static void syncStatement(Storage db, CalciteSchema connection,
      CalciteSchema statement) {
    List<String> namespaces = db.admin().listNamespaces();
    Synced synced = synced(connection);
    if (namespaces.equals(synced.namespaces)) {
      return;
    }
    sync(db, new CalciteSchema[] {connection, statement});
    synced.namespaces = namespaces;
  }

  @Override
  public Storage storage() {
    return db;
  }

  /**
   * What the catalog held for the namespace at a catalog version, with the engine's tables then
   * (index tables left out): read again only when either moved (the catalog's rows decoded once
   * per DDL, not per statement). Tables are made of it anew per look-up: a table object lives one
   * statement (its statistics are computed once per object).
   */
  private record Listing(long version, List<TableName> engineTables, Map<String, TableName> raw,
      java.util.Set<String> sequences, Map<String, String> views, Map<String, SqlTableDef> defs) {}

  private volatile Listing listing;

  /** The namespace's listing as of now (the catalog version is read before the catalog). */
  private Listing listing() {
    long version = io.basaltdb.sql.catalog.CatalogVersion.current(db);
    List<TableName> engineTables = db.admin().listTables(namespace);
    Listing l = listing;
    if (l != null && l.version == version && l.engineTables.equals(engineTables)) {
      return l;
    }
    Map<String, TableName> raw = new HashMap<>();
    for (TableName t : engineTables) {
      raw.put(t.name(), t);
    }
    for (io.basaltdb.sql.catalog.SqlIndexDef i : catalog.indexes(namespace)) {
      raw.remove(i.engineTable().name()); // an index is not a table of its own
    }
    Map<String, SqlTableDef> defs = new HashMap<>();
    for (SqlTableDef def : catalog.list(namespace)) {
      defs.put(def.table().name(), def);
    }
    l = new Listing(version, List.copyOf(engineTables), Map.copyOf(raw),
        java.util.Set.copyOf(catalog.sequences(namespace)), Map.copyOf(catalog.views(namespace)),
        Map.copyOf(defs));
    listing = l;
    return l;
  }

  /**
   * The table named {@code name}, made from the listing, or null. Where names meet, a SQL table
   * (or its history) hides a view, a view a sequence, a sequence a raw engine table.
   */
  private Table table(String name) {
    Listing l = listing();
    SqlTableDef def = l.defs.get(name);
    if (def != null) {
      return new BasaltSqlTable(db, def);
    }
    if (name.endsWith(HistoryTable.SUFFIX)) {
      def = l.defs.get(name.substring(0, name.length() - HistoryTable.SUFFIX.length()));
      if (def != null) {
        return new HistoryTable(db, def);
      }
    }
    String view = l.views.get(name);
    SchemaPlus plus = self;
    if (view != null && plus != null) {
      return view(plus, name, view);
    }
    if (l.sequences.contains(name)) {
      return SEQUENCE;
    }
    TableName raw = l.raw.get(name);
    return raw == null ? null : new RawEngineTable(db, raw);
  }

  /** The names {@link #table} answers. */
  private java.util.Set<String> tableNames() {
    Listing l = listing();
    java.util.Set<String> names = new java.util.HashSet<>(l.raw.keySet());
    names.addAll(l.sequences);
    if (self != null) {
      names.addAll(l.views.keySet());
    }
    for (String t : l.defs.keySet()) {
      names.add(t);
      names.add(t + HistoryTable.SUFFIX);
    }
    return names;
  }

  /**
   * A statement looks its tables up by name: one table made per look-up (Calcite's default
   * made every table of the namespace for each).
   */
  private final org.apache.calcite.schema.lookup.Lookup<Table> byName =
      new org.apache.calcite.schema.lookup.CompatibilityLookup<>(this::table, this::tableNames);

  @Override
  public org.apache.calcite.schema.lookup.Lookup<Table> tables() {
    return byName;
  }

  @Override
  protected Map<String, Table> getTableMap() {
    Map<String, Table> tables = new HashMap<>();
    for (String name : tableNames()) {
      tables.put(name, table(name));
    }
    return tables;
  }
}
