package io.basaltdb.sql.schema;

import io.basaltdb.sql.PlannerStats;
import io.basaltdb.sql.catalog.SqlCatalog;
import io.basaltdb.sql.catalog.SqlColumn;
import io.basaltdb.sql.catalog.SqlTableDef;
import io.basaltdb.storage.Storage;
import io.basaltdb.storage.TableName;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import org.apache.calcite.DataContext;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Linq4j;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.schema.ScannableTable;
import org.apache.calcite.schema.Schema;
import org.apache.calcite.schema.Table;
import org.apache.calcite.schema.impl.AbstractSchema;
import org.apache.calcite.schema.impl.AbstractTable;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * The SQL standard's {@code INFORMATION_SCHEMA}, as far as Basalt has it: {@code
 * KEY_COLUMN_USAGE}, the primary-key columns of every SQL table in key order (a table with a
 * hidden row key has none listed), read from the SQL catalog at each query. It is how remote
 * clients find primary keys: Avatica's protocol has no request for them, so a thin client's
 * {@code DatabaseMetaData.getPrimaryKeys} is empty whatever the server knows. The embedded
 * driver's {@code getPrimaryKeys} reads the same rows ({@link #keyColumns}). {@code COLUMNS}
 * (with each column's {@code COLUMN_DEFAULT}, which JDBC's {@code getColumns} leaves empty)
 * and {@code CHECK_CONSTRAINTS} (the CHECKs, which JDBC has no request for); the objects
 * themselves: SCHEMATA, TABLES, VIEWS, SEQUENCES, TABLE_CONSTRAINTS, INDEXES, INDEX_COLUMNS
 * ({@link InformationObjects}). And, as H2 keeps its own figures there, {@code PLAN_CACHE}:
 * the database's statement plans and their hits.
 */
public final class InformationSchema extends AbstractSchema {
  public static final String NAME = "INFORMATION_SCHEMA";
  /** The name every primary key has (Basalt keeps none of its own). */
  public static final String PRIMARY_KEY_NAME = "PK";

  /** A primary-key column: its table, its 1-based position in the key, its order. */
  public record KeyColumn(String schema, String table, String column, int position,
      boolean descending) {}

  private final Storage db;

  InformationSchema(Storage db) {
    this.db = db;
  }

  /**
   * The key columns of the tables named {@code table} in the schema named {@code schema}
   * (null: any), ordered by schema, table and position.
   */
  public static List<KeyColumn> keyColumns(Storage db, String schema, String table) {
    SqlCatalog catalog = new SqlCatalog(db);
    List<KeyColumn> keys = new ArrayList<>();
    for (String ns : db.admin().listNamespaces()) {
      String schemaName = BasaltSchema.schemaName(ns);
      if (ns.equals(SqlCatalog.SYSTEM_NAMESPACE)
          || (schema != null && !schema.equals(schemaName))) {
        continue;
      }
      for (SqlTableDef def : catalog.list(ns)) {
        TableName t = def.table();
        if ((table != null && !t.name().equals(table)) || def.hasHiddenKey()) {
          continue;
        }
        List<SqlColumn> columns = def.keyColumns();
        for (int i = 0; i < columns.size(); i++) {
          keys.add(new KeyColumn(schemaName, t.name(), columns.get(i).name(), i + 1,
              columns.get(i).descending()));
        }
      }
    }
    keys.sort(Comparator.comparing(KeyColumn::schema).thenComparing(KeyColumn::table)
        .thenComparingInt(KeyColumn::position));
    return keys;
  }

  /** A secondary index's column: its table, index, 1-based position, order, uniqueness. */
  public record IndexColumn(String schema, String table, String index, boolean unique,
      String column, int position, boolean descending) {}

  /**
   * The indexed columns of the secondary indexes of the tables named {@code table} in the
   * schema named {@code schema} (null: any), ordered by schema, table, index and position.
   */
  public static List<IndexColumn> indexColumns(Storage db, String schema, String table) {
    SqlCatalog catalog = new SqlCatalog(db);
    List<IndexColumn> out = new ArrayList<>();
    for (String ns : db.admin().listNamespaces()) {
      String schemaName = BasaltSchema.schemaName(ns);
      if (ns.equals(SqlCatalog.SYSTEM_NAMESPACE)
          || (schema != null && !schema.equals(schemaName))) {
        continue;
      }
      for (io.basaltdb.sql.catalog.SqlIndexDef i : catalog.indexes(ns)) {
        if (table != null && !i.table().name().equals(table)) {
          continue;
        }
        for (int k = 0; k < i.columns().size(); k++) {
          out.add(new IndexColumn(schemaName, i.table().name(), i.name(), i.unique(),
              i.columns().get(k), k + 1, i.descending().get(k)));
        }
      }
    }
    out.sort(Comparator.comparing(IndexColumn::schema).thenComparing(IndexColumn::table)
        .thenComparing(IndexColumn::index).thenComparingInt(IndexColumn::position));
    return out;
  }

  @Override
  protected Map<String, Table> getTableMap() {
    Map<String, Table> tables = new java.util.HashMap<>(new InformationObjects(db).tables());
    tables.putAll(Map.of("KEY_COLUMN_USAGE", new KeyColumnUsage(), "PLAN_CACHE",
        new PlanCacheTable(), "COLUMNS", new Columns(), "CHECK_CONSTRAINTS",
        new CheckConstraintsTable()));
    return tables;
  }

  /** The SQL tables' definitions, schema by schema (the system namespace left out). */
  private List<Map.Entry<String, SqlTableDef>> sqlTables() {
    SqlCatalog catalog = new SqlCatalog(db);
    List<Map.Entry<String, SqlTableDef>> out = new ArrayList<>();
    for (String ns : db.admin().listNamespaces()) {
      if (!ns.equals(SqlCatalog.SYSTEM_NAMESPACE)) {
        for (SqlTableDef def : catalog.list(ns)) {
          out.add(Map.entry(BasaltSchema.schemaName(ns), def));
        }
      }
    }
    out.sort(Comparator.comparing((Map.Entry<String, SqlTableDef> e) -> e.getKey())
        .thenComparing(e -> e.getValue().table().name()));
    return out;
  }

  /**
   * The standard's columns of {@code COLUMNS}: where each visible column is, its position, its
   * {@code DEFAULT} as SQL text, nullability, type and its length, precision and scale.
   */
  private final class Columns extends SystemTable {
    @Override
    public RelDataType getRowType(RelDataTypeFactory f) {
      RelDataTypeFactory.Builder b = f.builder();
      for (String name : List.of("TABLE_CATALOG", "TABLE_SCHEMA", "TABLE_NAME",
          "COLUMN_NAME")) {
        b.add(name, SqlTypeName.VARCHAR).nullable(name.endsWith("CATALOG"));
      }
      b.add("ORDINAL_POSITION", SqlTypeName.INTEGER);
      b.add("COLUMN_DEFAULT", SqlTypeName.VARCHAR).nullable(true);
      b.add("IS_NULLABLE", SqlTypeName.VARCHAR).add("DATA_TYPE", SqlTypeName.VARCHAR);
      for (String name : List.of("CHARACTER_MAXIMUM_LENGTH", "NUMERIC_PRECISION",
          "NUMERIC_SCALE")) {
        b.add(name, SqlTypeName.INTEGER).nullable(true);
      }
      return b.build();
    }

    @Override
    public Enumerable<Object[]> scan(DataContext root) {
      List<Object[]> rows = new ArrayList<>();
      for (Map.Entry<String, SqlTableDef> e : sqlTables()) {
        SqlTableDef def = e.getValue();
        for (int i = 0; i < def.visibleColumnCount(); i++) {
          SqlColumn c = def.columns().get(i);
          boolean text = switch (c.type()) {
            case CHAR, VARCHAR, BINARY, VARBINARY -> true;
            default -> false;
          };
          Integer declared = c.precision() < 0 ? null : c.precision();
          rows.add(new Object[] {null, e.getKey(), def.table().name(), c.name(), i + 1,
              def.defaults().get(c.name()), c.nullable() ? "YES" : "NO", c.type().sqlName(),
              text ? declared : null, text ? null : declared,
              text || c.scale() < 0 ? null : c.scale()});
        }
      }
      return Linq4j.asEnumerable(rows);
    }
  }

  /** The standard's {@code CHECK_CONSTRAINTS}: each check's name and condition (SQL text). */
  private final class CheckConstraintsTable extends SystemTable {
    @Override
    public RelDataType getRowType(RelDataTypeFactory f) {
      RelDataTypeFactory.Builder b = f.builder();
      for (String name : List.of("CONSTRAINT_CATALOG", "CONSTRAINT_SCHEMA", "TABLE_NAME",
          "CONSTRAINT_NAME", "CHECK_CLAUSE")) {
        b.add(name, SqlTypeName.VARCHAR).nullable(name.endsWith("CATALOG"));
      }
      return b.build();
    }

    @Override
    public Enumerable<Object[]> scan(DataContext root) {
      List<Object[]> rows = new ArrayList<>();
      for (Map.Entry<String, SqlTableDef> e : sqlTables()) {
        for (SqlTableDef.Check c : e.getValue().checks()) {
          rows.add(new Object[] {null, e.getKey(), e.getValue().table().name(), c.name(),
              c.condition()});
        }
      }
      return Linq4j.asEnumerable(rows);
    }
  }

  /**
   * One row: the database's plan cache (capacity, plans held, hits, misses) and the statements
   * that ran on a plan shared across literal values ({@link PlannerStats}).
   */
  private final class PlanCacheTable extends SystemTable {
    @Override
    public RelDataType getRowType(RelDataTypeFactory f) {
      return f.builder().add("CAPACITY", SqlTypeName.INTEGER).add("PLANS", SqlTypeName.INTEGER)
          .add("HITS", SqlTypeName.BIGINT).add("MISSES", SqlTypeName.BIGINT)
          .add("SHARED_LITERAL_STATEMENTS", SqlTypeName.BIGINT).build();
    }

    @Override
    public Enumerable<Object[]> scan(DataContext root) {
      PlannerStats s = PlannerStats.of(db);
      return Linq4j.asEnumerable(List.<Object[]>of(new Object[] {s.planCacheCapacity(),
          s.planCacheSize(), s.planCacheHits.get(), s.planCacheMisses.get(),
          s.sharedLiteralStatements.get()}));
    }
  }

  /**
   * The standard's columns: constraint, table, column, ordinal position in the key; for a
   * foreign key's column, the position of the parent key column it references and (as MySQL
   * names them) the parent's schema, table and column, which the standard leaves to a join on
   * constraint names (every primary key here is named PK).
   */
  private final class KeyColumnUsage extends SystemTable {
    @Override
    public RelDataType getRowType(RelDataTypeFactory f) {
      RelDataTypeFactory.Builder b = f.builder();
      for (String name : List.of("CONSTRAINT_CATALOG", "CONSTRAINT_SCHEMA", "CONSTRAINT_NAME",
          "TABLE_CATALOG", "TABLE_SCHEMA", "TABLE_NAME", "COLUMN_NAME")) {
        b.add(name, SqlTypeName.VARCHAR).nullable(name.endsWith("CATALOG"));
      }
      b.add("ORDINAL_POSITION", SqlTypeName.INTEGER);
      b.add("POSITION_IN_UNIQUE_CONSTRAINT", SqlTypeName.INTEGER).nullable(true);
      for (String name : List.of("REFERENCED_TABLE_SCHEMA", "REFERENCED_TABLE_NAME",
          "REFERENCED_COLUMN_NAME")) {
        b.add(name, SqlTypeName.VARCHAR).nullable(true);
      }
      return b.build();
    }

    @Override
    public Enumerable<Object[]> scan(DataContext root) {
      List<Object[]> rows = new ArrayList<>();
      for (KeyColumn k : keyColumns(db, null, null)) {
        rows.add(new Object[] {null, k.schema(), PRIMARY_KEY_NAME, null, k.schema(), k.table(),
            k.column(), k.position(), null, null, null, null});
      }
      for (ForeignKeyColumns.Column c : ForeignKeyColumns.of(db, null, null, null, null)) {
        rows.add(new Object[] {null, c.childSchema(), c.key().name(), null, c.childSchema(),
            c.childTable(), c.childColumn(), c.position(), c.parentKeyPosition(),
            c.parentSchema(), c.parentTable(), c.parentColumn()});
      }
      return Linq4j.asEnumerable(rows);
    }
  }

  /** A table of this schema: a system table whose rows are computed at each scan. */
  private abstract static class SystemTable extends AbstractTable implements ScannableTable {
    @Override
    public Schema.TableType getJdbcTableType() {
      return Schema.TableType.SYSTEM_TABLE;
    }
  }
}
