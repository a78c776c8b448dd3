package io.basaltdb.sql;

import io.basaltdb.engine.Database;
import io.basaltdb.engine.TableName;
import io.basaltdb.sql.catalog.SqlCatalog;
import io.basaltdb.sql.catalog.SqlTableDef;
import java.util.HashMap;
import java.util.Map;
import org.apache.calcite.jdbc.CalciteSchema;
import org.apache.calcite.schema.SchemaPlus;
import org.apache.calcite.schema.Table;
import org.apache.calcite.schema.impl.AbstractSchema;

/**
 * One engine namespace as a SQL schema. Its tables are the SQL tables the catalog defines in
 * the namespace, each with its version history ({@code T$HISTORY}, {@link HistoryTable}), and,
 * for every other engine table there, a raw view of it ({@link RawEngineTable}). Table lists are read from the catalog on each lookup, so DDL made
 * by another connection is visible at once. The engine's {@code default} namespace is the SQL
 * schema {@code DEFAULT}; other namespaces keep their names.
 */
public final class BasaltSchema extends AbstractSchema {
  private final Database db;
  private final SqlCatalog catalog;
  private final String namespace;

  BasaltSchema(Database db, SqlCatalog catalog, String namespace) {
    this.db = db;
    this.catalog = catalog;
    this.namespace = namespace;
  }

  /** The SQL schema name of an engine namespace. */
  public static String schemaName(String namespace) {
    return namespace.equals(TableName.DEFAULT_NAMESPACE) ? "DEFAULT" : namespace;
  }

  /** Adds a sub-schema per engine namespace (but the system one) under {@code root}. */
  public static SqlCatalog register(SchemaPlus root, Database db) {
    SqlCatalog catalog = new SqlCatalog(db);
    for (String ns : db.admin().listNamespaces()) {
      if (!ns.equals(SqlCatalog.SYSTEM_NAMESPACE)) {
        root.add(schemaName(ns), new BasaltSchema(db, catalog, ns));
      }
    }
    return catalog;
  }

  /** Adds the schema of a namespace created after the connection registered the others. */
  public static void addNamespace(CalciteSchema root, Database db, String namespace) {
    root.add(schemaName(namespace), new BasaltSchema(db, new SqlCatalog(db), namespace));
  }

  /** The database behind a connection's root schema, or null. */
  public static Database database(CalciteSchema root) {
    for (CalciteSchema sub : root.getSubSchemaMap().values()) {
      if (sub.schema instanceof BasaltSchema b) {
        return b.db;
      }
    }
    return null;
  }

  @Override
  protected Map<String, Table> getTableMap() {
    Map<String, Table> tables = new HashMap<>();
    for (TableName t : db.admin().listTables(namespace)) {
      tables.put(t.name(), new RawEngineTable(db, t));
    }
    for (SqlTableDef def : catalog.list(namespace)) {
      tables.put(def.table().name(), new BasaltSqlTable(db, def));
      tables.put(def.table().name() + HistoryTable.SUFFIX, new HistoryTable(db, def));
    }
    return tables;
  }
}
