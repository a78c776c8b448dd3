package io.basaltdb.sql;

import io.basaltdb.engine.Database;
import io.basaltdb.sql.exec.ScanExecutor;
import io.basaltdb.sql.rel.BasaltScan;
import io.basaltdb.sql.rel.ScanSpec;
import io.basaltdb.sql.catalog.SqlColumn;
import io.basaltdb.sql.catalog.SqlTableDef;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.calcite.DataContext;
import org.apache.calcite.linq4j.Enumerable;
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
    org.apache.calcite.schema.ModifiableTable {
  /** The marker cell's qualifier (Phoenix calls it the empty key value). */
  public static final byte[] MARKER = {'_', '0'};

  private final Database db;
  private final SqlTableDef def;

  BasaltSqlTable(Database db, SqlTableDef def) {
    this.db = db;
    this.def = def;
  }

  public SqlTableDef definition() {
    return def;
  }

  @Override
  public RelDataType getRowType(RelDataTypeFactory f) {
    RelDataTypeFactory.Builder b = f.builder();
    for (SqlColumn c : def.columns()) {
      b.add(c.name(), c.type().relType(f, c.precision(), c.scale(), c.nullable() && !c.isKey()));
    }
    return b.build();
  }

  // ------------------------------------------------------------------ INSERT (stage 1)

  /**
   * INSERT and DELETE through Calcite's enumerable table-modify: each row added to this
   * collection is written to the engine at once, atomically per row, with its marker cell (a
   * row whose key exists already is refused: a unique-key violation); each row removed is
   * deleted. {@code size()} moves by one per row, which is how Calcite computes update counts.
   */
  @Override
  public java.util.Collection<Object[]> getModifiableCollection() {
    return new java.util.AbstractCollection<>() {
      private int added;

      @Override
      public boolean add(Object[] row) {
        insert(row);
        added++;
        return true;
      }

      @Override
      public boolean remove(Object row) {
        delete(row);
        added--;
        return true;
      }

      @Override
      public boolean removeAll(java.util.Collection<?> rows) {
        // AbstractCollection's would walk this (empty) collection; each given row is deleted
        for (Object row : rows) {
          remove(row);
        }
        return !rows.isEmpty();
      }

      @Override
      public java.util.Iterator<Object[]> iterator() {
        return java.util.Collections.emptyIterator();
      }

      @Override
      public int size() {
        return added;
      }
    };
  }

  /** DELETE of a row read by the statement: the whole engine row goes (a row delete). */
  private void delete(Object input) {
    Object[] values = input instanceof Object[] a ? a : new Object[] {input};
    db.table(def.table()).delete(new io.basaltdb.engine.Delete(keyOf(values)));
  }

  private byte[] keyOf(Object[] values) {
    Object[] key = new Object[def.keyColumns().size()];
    List<SqlColumn> cols = def.columns();
    for (int i = 0; i < cols.size(); i++) {
      SqlColumn c = cols.get(i);
      if (c.isKey()) {
        key[c.keyPosition()] = c.type().toKey(values[i]);
      }
    }
    return def.keyCodec().encode(key);
  }

  private void insert(Object input) {
    Object[] values = input instanceof Object[] a ? a : new Object[] {input};
    List<SqlColumn> cols = def.columns();
    Object[] key = new Object[def.keyColumns().size()];
    for (int i = 0; i < cols.size(); i++) {
      SqlColumn c = cols.get(i);
      if (c.isKey()) {
        if (values[i] == null) {
          throw new io.basaltdb.engine.InvalidArgumentException("primary key column " + c.name()
              + " of " + def.table() + " must not be NULL");
        }
        key[c.keyPosition()] = c.type().toKey(values[i]);
      }
    }
    byte[] row = def.keyCodec().encode(key);
    byte[] marker = def.markerFamily().getBytes(StandardCharsets.UTF_8);
    io.basaltdb.engine.Put put = new io.basaltdb.engine.Put(row).addColumn(marker, MARKER,
        new byte[0]);
    for (int i = 0; i < cols.size(); i++) {
      SqlColumn c = cols.get(i);
      if (!c.isKey() && values[i] != null) {
        put.addColumn(c.family().getBytes(StandardCharsets.UTF_8),
            c.name().getBytes(StandardCharsets.UTF_8), c.type().toCell(values[i]));
      }
    }
    boolean inserted = db.table(def.table()).checkAndMutate(io.basaltdb.engine.CheckAndMutate
        .newBuilder(row).ifNotExists(marker, MARKER).build(put));
    if (!inserted) {
      throw new DuplicateKeyException("duplicate primary key in " + def.table() + ": "
          + java.util.Arrays.toString(def.keyCodec().decode(row)));
    }
  }

  /** An INSERT of a key that exists (SQLState 23505 at the JDBC layer). */
  public static final class DuplicateKeyException extends io.basaltdb.engine.InvalidArgumentException {
    private static final long serialVersionUID = 1L;

    public DuplicateKeyException(String message) {
      super(message);
    }
  }

  @Override
  public org.apache.calcite.rel.core.TableModify toModificationRel(
      org.apache.calcite.plan.RelOptCluster cluster, org.apache.calcite.plan.RelOptTable table,
      org.apache.calcite.prepare.Prepare.CatalogReader catalogReader,
      org.apache.calcite.rel.RelNode child, org.apache.calcite.rel.core.TableModify.Operation op,
      List<String> updateColumns, List<org.apache.calcite.rex.RexNode> sourceExpressions,
      boolean flattened) {
    return org.apache.calcite.rel.logical.LogicalTableModify.create(table, catalogReader, child,
        op, updateColumns, sourceExpressions, flattened);
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
        return (Enumerator<T>) new ScanExecutor(db, def, ScanSpec.all(def), null,
            readTimestamp(provider)).enumerable().enumerator();
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
    return BasaltScan.create(context.getCluster(), relOptTable, this);
  }

  /** Runs a planned scan for one execution (called by the generated code). */
  public Enumerable<Object[]> query(DataContext root, ScanSpec spec) {
    return new ScanExecutor(db, def, spec, root,
        readTimestamp(root == null ? null : root.getQueryProvider())).enumerable();
  }

  /** Row count estimated from the regions' cell counts, for the cost model. */
  @Override
  public org.apache.calcite.schema.Statistic getStatistic() {
    long cells = 0;
    for (io.basaltdb.engine.RegionInfo r : db.admin().regions(def.table())) {
      cells += r.stats().cellCount();
    }
    int perRow = def.columns().size() - def.keyColumns().size() + 1;
    double rows = Math.max(1, (double) cells / perRow);
    return org.apache.calcite.schema.Statistics.of(rows, List.of(
        org.apache.calcite.util.ImmutableBitSet.of(keyFields())));
  }

  private List<Integer> keyFields() {
    List<Integer> out = new java.util.ArrayList<>();
    for (int i = 0; i < def.columns().size(); i++) {
      if (def.columns().get(i).isKey()) {
        out.add(i);
      }
    }
    return out;
  }

  /** The connection property that pins every read to a point in time (epoch ms). */
  public static final String READ_TIMESTAMP = "readTimestamp";

  /**
   * The connection's read timestamp, or -1: versions written after it are not read (as
   * Phoenix's CurrentSCN). As in HBase without KEEP_DELETED_CELLS, a delete made later still
   * hides what it deleted.
   */
  static long readTimestamp(org.apache.calcite.linq4j.QueryProvider provider) {
    if (!(provider instanceof org.apache.calcite.jdbc.CalciteConnection c)) {
      return -1;
    }
    String v = c.getProperties().getProperty(READ_TIMESTAMP);
    if (v == null || v.isBlank()) {
      return -1;
    }
    try {
      long ts = Long.parseLong(v.trim());
      if (ts < 0) {
        throw new NumberFormatException();
      }
      return ts;
    } catch (NumberFormatException e) {
      throw new io.basaltdb.engine.InvalidArgumentException("connection property "
          + READ_TIMESTAMP + " must be epoch milliseconds, got '" + v + "'");
    }
  }
}
