package io.basaltdb.sql.schema;

import io.basaltdb.sql.catalog.SqlCatalog;
import io.basaltdb.sql.catalog.SqlTableDef;
import io.basaltdb.storage.Storage;
import io.basaltdb.storage.TableName;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.apache.calcite.DataContext;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Linq4j;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.schema.ScannableTable;
import org.apache.calcite.schema.Schema;
import org.apache.calcite.schema.Table;
import org.apache.calcite.schema.impl.AbstractTable;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * The INFORMATION_SCHEMA tables that list the database's objects, with the standard's column
 * names (and H2's where the standard has none), as ORMs and schema tools read them: SCHEMATA,
 * TABLES (tables and views), VIEWS, SEQUENCES (Hibernate's {@code validate}/{@code update}),
 * TABLE_CONSTRAINTS (primary keys, UNIQUE constraints, CHECKs, foreign keys: jOOQ's meta),
 * REFERENTIAL_CONSTRAINTS (each foreign key's parent key and rules) and INDEXES /
 * INDEX_COLUMNS (H2's names: the primary key, UNIQUE and plain secondary indexes). Rows are
 * computed at each scan from the SQL catalog, so they agree with {@code DatabaseMetaData}
 * ({@code getSchemas}, {@code getTables}, {@code getPrimaryKeys}, {@code getIndexInfo}). The
 * system namespace is left out.
 */
final class InformationObjects {
  private final Storage db;

  InformationObjects(Storage db) {
    this.db = db;
  }

  /** The tables, by name. */
  Map<String, Table> tables() {
    Map<String, Table> out = new LinkedHashMap<>();
    out.put("SCHEMATA", table(List.of("CATALOG_NAME", "SCHEMA_NAME", "SCHEMA_OWNER"), List.of(),
        this::schemata));
    out.put("TABLES", table(List.of("TABLE_CATALOG", "TABLE_SCHEMA", "TABLE_NAME",
        "TABLE_TYPE"), List.of(), this::tableRows));
    out.put("VIEWS", table(List.of("TABLE_CATALOG", "TABLE_SCHEMA", "TABLE_NAME",
        "VIEW_DEFINITION"), List.of(), this::views));
    out.put("SEQUENCES", table(List.of("SEQUENCE_CATALOG", "SEQUENCE_SCHEMA", "SEQUENCE_NAME",
        "DATA_TYPE"), List.of("NUMERIC_PRECISION", "START_VALUE", "MINIMUM_VALUE",
        "MAXIMUM_VALUE", "INCREMENT"), this::sequences));
    out.put("TABLE_CONSTRAINTS", table(List.of("CONSTRAINT_CATALOG", "CONSTRAINT_SCHEMA",
        "CONSTRAINT_NAME", "TABLE_CATALOG", "TABLE_SCHEMA", "TABLE_NAME", "CONSTRAINT_TYPE",
        "IS_DEFERRABLE", "INITIALLY_DEFERRED"), List.of(), this::constraints));
    out.put("REFERENTIAL_CONSTRAINTS", table(List.of("CONSTRAINT_CATALOG", "CONSTRAINT_SCHEMA",
        "CONSTRAINT_NAME", "UNIQUE_CONSTRAINT_CATALOG", "UNIQUE_CONSTRAINT_SCHEMA",
        "UNIQUE_CONSTRAINT_NAME", "MATCH_OPTION", "UPDATE_RULE", "DELETE_RULE", "TABLE_NAME",
        "REFERENCED_TABLE_NAME"), List.of(),
        this::referentialConstraints));
    out.put("INDEXES", table(List.of("INDEX_CATALOG", "INDEX_SCHEMA", "INDEX_NAME",
        "TABLE_CATALOG", "TABLE_SCHEMA", "TABLE_NAME", "INDEX_TYPE_NAME"), List.of(),
        this::indexes));
    out.put("INDEX_COLUMNS", table(List.of("INDEX_CATALOG", "INDEX_SCHEMA", "INDEX_NAME",
        "TABLE_CATALOG", "TABLE_SCHEMA", "TABLE_NAME", "COLUMN_NAME", "ORDINAL_POSITION",
        "ORDERING_SPECIFICATION", "IS_UNIQUE"), List.of(), this::indexColumns));
    return out;
  }

  /** The namespaces a user sees, with their SQL schema names. */
  private List<Map.Entry<String, String>> namespaces() {
    List<Map.Entry<String, String>> out = new ArrayList<>();
    for (String ns : db.admin().listNamespaces()) {
      if (!ns.equals(SqlCatalog.SYSTEM_NAMESPACE)) {
        out.add(Map.entry(ns, BasaltSchema.schemaName(ns)));
      }
    }
    out.sort(Map.Entry.comparingByValue());
    return out;
  }

  private List<Object[]> schemata() {
    List<Object[]> rows = new ArrayList<>();
    for (Map.Entry<String, String> ns : namespaces()) {
      rows.add(new Object[] {null, ns.getValue(), "sa"});
    }
    rows.add(new Object[] {null, InformationSchema.NAME, "sa"});
    return rows;
  }

  private List<Object[]> tableRows() {
    SqlCatalog catalog = new SqlCatalog(db);
    List<Object[]> rows = new ArrayList<>();
    for (Map.Entry<String, String> ns : namespaces()) {
      List<String> names = new ArrayList<>();
      for (SqlTableDef def : catalog.list(ns.getKey())) {
        names.add(def.table().name());
      }
      names.sort(null);
      for (String name : names) {
        rows.add(new Object[] {null, ns.getValue(), name, "BASE TABLE"});
      }
      for (String view : new java.util.TreeSet<>(catalog.views(ns.getKey()).keySet())) {
        rows.add(new Object[] {null, ns.getValue(), view, "VIEW"});
      }
    }
    return rows;
  }

  private List<Object[]> views() {
    SqlCatalog catalog = new SqlCatalog(db);
    List<Object[]> rows = new ArrayList<>();
    for (Map.Entry<String, String> ns : namespaces()) {
      for (Map.Entry<String, String> v : new java.util.TreeMap<>(catalog.views(ns.getKey()))
          .entrySet()) {
        rows.add(new Object[] {null, ns.getValue(), v.getKey(), v.getValue()});
      }
    }
    return rows;
  }

  private List<Object[]> sequences() {
    SqlCatalog catalog = new SqlCatalog(db);
    List<Object[]> rows = new ArrayList<>();
    for (Map.Entry<String, String> ns : namespaces()) {
      List<String> names = new ArrayList<>(catalog.sequences(ns.getKey()));
      names.sort(null);
      for (String name : names) {
        TableName seq = new TableName(ns.getKey(), name);
        rows.add(new Object[] {null, ns.getValue(), name, "BIGINT", 64L,
            catalog.sequenceStart(seq), Long.MIN_VALUE, Long.MAX_VALUE,
            catalog.sequenceIncrement(seq)});
      }
    }
    return rows;
  }

  private List<Object[]> constraints() {
    List<Object[]> rows = new ArrayList<>();
    java.util.Set<String> keyed = new java.util.HashSet<>();
    for (InformationSchema.KeyColumn k : InformationSchema.keyColumns(db, null, null)) {
      if (keyed.add(k.schema() + "." + k.table())) {
        rows.add(constraint(k.schema(), k.table(), InformationSchema.PRIMARY_KEY_NAME,
            "PRIMARY KEY"));
      }
    }
    java.util.Set<String> unique = new java.util.HashSet<>();
    for (InformationSchema.IndexColumn i : InformationSchema.indexColumns(db, null, null)) {
      if (i.unique() && unique.add(i.schema() + "." + i.index())) {
        rows.add(constraint(i.schema(), i.table(), i.index(), "UNIQUE"));
      }
    }
    SqlCatalog catalog = new SqlCatalog(db);
    for (Map.Entry<String, String> ns : namespaces()) {
      for (SqlTableDef def : catalog.list(ns.getKey())) {
        for (SqlTableDef.Check c : def.checks()) {
          rows.add(constraint(ns.getValue(), def.table().name(), c.name(), "CHECK"));
        }
        for (io.basaltdb.sql.catalog.ForeignKey fk : def.foreignKeys()) {
          rows.add(constraint(ns.getValue(), def.table().name(), fk.name(), "FOREIGN KEY"));
        }
      }
    }
    return rows;
  }

  /**
   * Each foreign key: the parent's key it references, its rules (MATCH SIMPLE: NONE), and (as
   * MySQL adds them) its table and the parent table.
   */
  private List<Object[]> referentialConstraints() {
    List<Object[]> rows = new ArrayList<>();
    for (ForeignKeyColumns.Column c : ForeignKeyColumns.of(db, null, null, null, null)) {
      if (c.position() == 1) {
        rows.add(new Object[] {null, c.childSchema(), c.key().name(), null, c.parentSchema(),
            InformationSchema.PRIMARY_KEY_NAME, "NONE", c.key().onUpdate().sql(),
            c.key().onDelete().sql(), c.childTable(), c.parentTable()});
      }
    }
    return rows;
  }

  private static Object[] constraint(String schema, String table, String name, String type) {
    return new Object[] {null, schema, name, null, schema, table, type, "NO", "NO"};
  }

  private List<Object[]> indexes() {
    List<Object[]> rows = new ArrayList<>();
    java.util.Set<String> seen = new java.util.HashSet<>();
    for (InformationSchema.KeyColumn k : InformationSchema.keyColumns(db, null, null)) {
      if (seen.add(k.schema() + "." + k.table() + ".")) {
        rows.add(new Object[] {null, k.schema(), InformationSchema.PRIMARY_KEY_NAME, null,
            k.schema(), k.table(), "PRIMARY KEY"});
      }
    }
    for (InformationSchema.IndexColumn i : InformationSchema.indexColumns(db, null, null)) {
      if (seen.add(i.schema() + "." + i.table() + "." + i.index())) {
        rows.add(new Object[] {null, i.schema(), i.index(), null, i.schema(), i.table(),
            i.unique() ? "UNIQUE INDEX" : "INDEX"});
      }
    }
    return rows;
  }

  private List<Object[]> indexColumns() {
    List<Object[]> rows = new ArrayList<>();
    for (InformationSchema.KeyColumn k : InformationSchema.keyColumns(db, null, null)) {
      rows.add(new Object[] {null, k.schema(), InformationSchema.PRIMARY_KEY_NAME, null,
          k.schema(), k.table(), k.column(), k.position(), k.descending() ? "DESC" : "ASC",
          "YES"});
    }
    for (InformationSchema.IndexColumn i : InformationSchema.indexColumns(db, null, null)) {
      rows.add(new Object[] {null, i.schema(), i.index(), null, i.schema(), i.table(),
          i.column(), i.position(), i.descending() ? "DESC" : "ASC", i.unique() ? "YES" : "NO"});
    }
    return rows;
  }

  /**
   * A system table of VARCHAR columns {@code text} (those ending in CATALOG nullable), then
   * BIGINT columns {@code numbers}; ORDINAL_POSITION is an INTEGER. Rows computed per scan.
   */
  private static Table table(List<String> text, List<String> numbers,
      java.util.function.Supplier<List<Object[]>> rows) {
    return new ObjectsTable(f -> {
      RelDataTypeFactory.Builder b = f.builder();
      for (String name : text) {
        if (name.equals("ORDINAL_POSITION")) {
          b.add(name, SqlTypeName.INTEGER);
        } else {
          b.add(name, SqlTypeName.VARCHAR).nullable(name.endsWith("CATALOG")
              || name.equals("VIEW_DEFINITION"));
        }
      }
      for (String name : numbers) {
        b.add(name, SqlTypeName.BIGINT).nullable(true);
      }
      return b.build();
    }, rows);
  }

  private static final class ObjectsTable extends AbstractTable implements ScannableTable {
    private final Function<RelDataTypeFactory, RelDataType> rowType;
    private final java.util.function.Supplier<List<Object[]>> rows;

    ObjectsTable(Function<RelDataTypeFactory, RelDataType> rowType,
        java.util.function.Supplier<List<Object[]>> rows) {
      this.rowType = rowType;
      this.rows = rows;
    }

    @Override
    public RelDataType getRowType(RelDataTypeFactory f) {
      return rowType.apply(f);
    }

    @Override
    public Schema.TableType getJdbcTableType() {
      return Schema.TableType.SYSTEM_TABLE;
    }

    @Override
    public Enumerable<Object[]> scan(DataContext root) {
      return Linq4j.asEnumerable(rows.get());
    }
  }
}
