package io.basaltdb.sql.schema;

import io.basaltdb.sql.catalog.CellNames;
import io.basaltdb.sql.catalog.SqlColumn;
import io.basaltdb.sql.catalog.SqlTableDef;
import io.basaltdb.sql.constraint.ColumnDefaults;
import io.basaltdb.sql.exec.TableRuns;
import io.basaltdb.sql.exec.context.ConnectionSettings;
import io.basaltdb.sql.rel.BasaltScan;
import io.basaltdb.sql.rel.BasaltTableModify;
import io.basaltdb.storage.Storage;
import java.util.List;
import org.apache.calcite.linq4j.Enumerator;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.schema.TranslatableTable;
import org.apache.calcite.schema.impl.AbstractTable;

/**
 * A SQL-defined table over its engine table. Each engine row is a SQL row: key columns decoded
 * from the row key, other columns from their cells {@code family:COLUMN}, a missing cell being
 * NULL. In a plan it is a {@link BasaltScan} (the Basalt convention's rules push ranges,
 * filters, projections and limits into it); {@link #query} runs the planned scan.
 */
public final class BasaltSqlTable extends AbstractTable implements TranslatableTable,
    org.apache.calcite.schema.ModifiableTable, org.apache.calcite.schema.TemporalTable,
    org.apache.calcite.schema.ExtensibleTable, io.basaltdb.sql.rel.PlannedTable {
  private final Storage db;
  private final SqlTableDef def;

  BasaltSqlTable(Storage db, SqlTableDef def) {
    this.db = db;
    this.def = def;
  }

  /** Comments as read at a catalog version. */
  private record Comments(long version, java.util.Map<String, String> byColumn) {}

  /** The comments read last. */
  private volatile Comments comments = new Comments(-1, java.util.Map.of());

  /**
   * The comments of the table ("") and its columns ({@code COMMENT ON}): read once per catalog
   * version (a COMMENT ON moves it), not once per column JDBC's {@code getColumns} lists.
   */
  public java.util.Map<String, String> comments() {
    long version = io.basaltdb.sql.catalog.CatalogVersion.current(db);
    Comments c = comments;
    if (c.version() != version) {
      c = new Comments(version, new io.basaltdb.sql.catalog.SqlCatalog(db).comments(def.table()));
      comments = c;
    }
    return c.byColumn();
  }

  /** The storage the table is in. */
  public Storage storage() {
    return db;
  }

  @Override
  public TableRuns runs() {
    return new TableRuns(db, def);
  }

  @Override
  public SqlTableDef definition() {
    return def;
  }

  /** The column defaults ({@link ColumnDefaults}) where Calcite asks for an initializer. */
  @Override
  public <C> C unwrap(Class<C> aClass) {
    if (aClass == org.apache.calcite.sql2rel.InitializerExpressionFactory.class
        && !def.defaults().isEmpty()) {
      return aClass.cast(new ColumnDefaults(def));
    }
    return super.unwrap(aClass);
  }

  /** The table's ACTIVE indexes (those queries may use), read once per table object. */
  private volatile List<io.basaltdb.sql.index.IndexLayout> indexes;

  @Override
  public List<io.basaltdb.sql.index.IndexLayout> indexes() {
    List<io.basaltdb.sql.index.IndexLayout> list = indexes;
    if (list == null) {
      list = new java.util.ArrayList<>();
      for (io.basaltdb.sql.catalog.SqlIndexDef i
          : io.basaltdb.sql.index.IndexRegistry.of(db).of(def.table()).list()) {
        if (i.state() == io.basaltdb.sql.catalog.SqlIndexDef.State.ACTIVE) {
          list.add(io.basaltdb.sql.index.IndexRegistry.of(db).layout(def, i));
        }
      }
      indexes = list = List.copyOf(list);
    }
    return list;
  }

  @Override
  public io.basaltdb.sql.index.IndexLayout index(String name) {
    for (io.basaltdb.sql.index.IndexLayout l : indexes()) {
      if (l.index().name().equals(name)) {
        return l;
      }
    }
    return null;
  }

  /**
   * This table with Phoenix's dynamic columns ({@code FROM t (extra VARCHAR)}): each a
   * nullable cell column of the family the statement gave it, else of the table's first
   * family ({@link io.basaltdb.sql.parser.DynamicColumns}), read and written as declared
   * columns are. Not for tables without a primary key or stored one cell per family.
   */
  @Override
  public org.apache.calcite.schema.Table extend(
      List<org.apache.calcite.rel.type.RelDataTypeField> fields) {
    return new BasaltSqlTable(db, DynamicColumnDefs.extend(def, fields,
        () -> db.admin().describe(def.table()).families().keySet()));
  }

  @Override
  public int getExtendedColumnOffset() {
    return def.visibleColumnCount();
  }

  /** The visible columns (a hidden row key is not one). */
  @Override
  public RelDataType getRowType(RelDataTypeFactory f) {
    RelDataTypeFactory.Builder b = f.builder();
    for (int i = 0; i < def.visibleColumnCount(); i++) {
      SqlColumn c = def.columns().get(i);
      b.add(c.name(), c.sqlType(f));
    }
    return b.build();
  }

  // ------------------------------------------------------------------ writes

  /** Not used: writes go through {@link BasaltTableModify}, never through a collection. */
  @Override
  public java.util.Collection<Object[]> getModifiableCollection() {
    throw new UnsupportedOperationException("Basalt tables are written by BasaltTableModify");
  }

  /** INSERT, UPDATE and DELETE (UPSERT is marked later) as Basalt's own table-modify. */
  @Override
  public org.apache.calcite.rel.core.TableModify toModificationRel(
      org.apache.calcite.plan.RelOptCluster cluster, org.apache.calcite.plan.RelOptTable table,
      org.apache.calcite.prepare.Prepare.CatalogReader catalogReader,
      org.apache.calcite.rel.RelNode child, org.apache.calcite.rel.core.TableModify.Operation op,
      List<String> updateColumns, List<org.apache.calcite.rex.RexNode> sourceExpressions,
      boolean flattened) {
    return new BasaltTableModify(cluster,
        cluster.traitSetOf(org.apache.calcite.plan.Convention.NONE), table, catalogReader, child,
        op, updateColumns, sourceExpressions, flattened, this, null);
  }

  @Override
  public <T> org.apache.calcite.linq4j.Queryable<T> asQueryable(
      org.apache.calcite.linq4j.QueryProvider provider, org.apache.calcite.schema.SchemaPlus schema,
      String tableName) {
    return new org.apache.calcite.schema.impl.AbstractTableQueryable<T>(provider, schema, this,
        tableName) {
      @Override
      @SuppressWarnings("unchecked")
      public Enumerator<T> enumerator() {
        return (Enumerator<T>) (Enumerator<?>) runs().all(ConnectionSettings.of(
            provider instanceof org.apache.calcite.jdbc.CalciteConnection c
                ? c.getProperties() : new java.util.Properties()).readTimestamp()).enumerator();
      }
    };
  }

  @Override
  public java.lang.reflect.Type getElementType() {
    return Object[].class;
  }

  @Override
  public org.apache.calcite.linq4j.tree.Expression getExpression(
      org.apache.calcite.schema.SchemaPlus schema, String tableName,
      @SuppressWarnings("rawtypes") Class clazz) {
    return org.apache.calcite.schema.Schemas.tableExpression(schema, getElementType(), tableName,
        clazz);
  }

  // ------------------------------------------------------------------ reads

  /** The table in a plan: a {@link BasaltScan} the Basalt rules push operators into. */
  @Override
  public org.apache.calcite.rel.RelNode toRel(
      org.apache.calcite.plan.RelOptTable.ToRelContext context,
      org.apache.calcite.plan.RelOptTable relOptTable) {
    return BasaltScan.create(context.getCluster(), relOptTable, this, context.getTableHints());
  }

  /**
   * Every Basalt table keeps versions, so each is temporal: {@code FOR SYSTEM_TIME AS OF}
   * reads it as of a time. The period columns Calcite asks for are not stored columns; cells
   * carry their own timestamps.
   */
  @Override
  public String getSysStartFieldName() {
    return "SYS_START";
  }

  @Override
  public String getSysEndFieldName() {
    return "SYS_END";
  }

  /** Row count estimated from the regions' cell counts, for the cost model. */
  @Override
  public org.apache.calcite.schema.Statistic getStatistic() {
    org.apache.calcite.schema.Statistic s = statistic;
    if (s == null) { // the planner asks at every cost estimate: read region stats once
      s = computeStatistic();
      statistic = s;
    }
    return s;
  }

  /**
   * The estimated number of distinct values of column {@code column} (from a sample,
   * {@link io.basaltdb.sql.exec.read.DistinctValues}), once per column per statement.
   */
  @Override
  public List<org.apache.calcite.plan.RelOptRule> rules() {
    return io.basaltdb.sql.rel.rules.BasaltRules.ALL;
  }

  @Override
  public double distinctValues(int column) {
    return distinct.computeIfAbsent(column, c -> io.basaltdb.sql.exec.read.DistinctValues.estimate(
        db, def, c, getStatistic().getRowCount()));
  }

  private final java.util.Map<Integer, Double> distinct =
      new java.util.concurrent.ConcurrentHashMap<>();

  /** This table instance's statistic, computed on first use (an instance lives one statement). */
  private volatile org.apache.calcite.schema.Statistic statistic;

  private org.apache.calcite.schema.Statistic computeStatistic() {
    long cells = 0;
    for (io.basaltdb.storage.RegionInfo r : db.admin().regions(def.table())) {
      cells += r.stats().cellCount();
    }
    // a row's cells: its marker and its columns (a packed table: its families), all non-null
    int perRow = 1 + (def.packed() ? CellNames.of(def).packedFamilies().size()
        : def.columns().size() - def.keyColumnCount());
    double rows = Math.max(1, (double) cells / perRow);
    // a hidden row key is not a column of the row type: such a table has no visible key
    return org.apache.calcite.schema.Statistics.of(rows, def.hasHiddenKey() ? List.of()
        : List.of(org.apache.calcite.util.ImmutableBitSet.of(def.keyColumnIndexes())));
  }
}
