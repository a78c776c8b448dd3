package io.basaltdb.sql;

import io.basaltdb.engine.Database;
import io.basaltdb.engine.Result;
import io.basaltdb.engine.ResultScanner;
import io.basaltdb.engine.Scan;
import io.basaltdb.sql.catalog.SqlColumn;
import io.basaltdb.sql.catalog.SqlTableDef;
import io.basaltdb.sql.type.RowKeyCodec;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.calcite.DataContext;
import org.apache.calcite.linq4j.AbstractEnumerable;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Enumerator;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.schema.ScannableTable;
import org.apache.calcite.schema.impl.AbstractTable;

/**
 * A SQL-defined table over its engine table (stage 1 of the adapter, as Calcite's CSV example
 * starts: scannable). Each engine row becomes a SQL row: key columns decoded from the row key
 * with {@link RowKeyCodec}, other columns from their cells {@code family:COLUMN}, a missing
 * cell being NULL. Pushdown of key ranges, filters and projections comes with the Basalt
 * convention and its rules.
 */
public final class BasaltSqlTable extends AbstractTable implements ScannableTable,
    org.apache.calcite.schema.ProjectableFilterableTable,
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

  @Override
  public Enumerable<Object[]> scan(DataContext root) {
    return scan(root, new java.util.ArrayList<>(), null);
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
        int[] all = java.util.stream.IntStream.range(0, def.columns().size()).toArray();
        return (Enumerator<T>) scan(List.of(io.basaltdb.sql.pushdown.KeyRange.ALL), all,
            readTimestamp(provider)).enumerator();
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

  // ------------------------------------------------------------------ stage 2: ranges, columns

  /**
   * A scan narrowed by the filters (key-prefix predicates become key ranges; every filter stays
   * in the list, so Calcite still checks it) and reading only the projected columns' cells plus
   * the row marker.
   */
  @Override
  public Enumerable<Object[]> scan(DataContext root, List<org.apache.calcite.rex.RexNode> filters,
      int[] projects) {
    List<io.basaltdb.sql.pushdown.KeyRange> ranges = io.basaltdb.sql.pushdown.KeyRangeExtractor
        .ranges(def, io.basaltdb.sql.pushdown.KeyRangeExtractor.conjuncts(filters));
    int[] proj = projects == null
        ? java.util.stream.IntStream.range(0, def.columns().size()).toArray() : projects;
    long asOf = readTimestamp(root == null ? null : root.getQueryProvider());
    return scan(ranges, proj, asOf);
  }

  private Enumerable<Object[]> scan(List<io.basaltdb.sql.pushdown.KeyRange> ranges, int[] proj,
      long asOf) {
    RowKeyCodec codec = def.keyCodec();
    List<SqlColumn> cols = def.columns();
    return new AbstractEnumerable<>() {
      @Override
      public Enumerator<Object[]> enumerator() {
        java.util.Iterator<io.basaltdb.sql.pushdown.KeyRange> todo = ranges.iterator();
        return new Enumerator<>() {
          private ResultScanner scanner;
          private Object[] current;

          @Override
          public Object[] current() {
            return current;
          }

          @Override
          public boolean moveNext() {
            while (true) {
              if (scanner == null) {
                if (!todo.hasNext()) {
                  return false;
                }
                scanner = db.table(def.table()).getScanner(scanFor(todo.next(), proj, asOf));
              }
              Result r = scanner.next();
              if (r != null) {
                Object[] full = toRow(r, codec, cols);
                Object[] row = new Object[proj.length];
                for (int i = 0; i < proj.length; i++) {
                  row[i] = full[proj[i]];
                }
                current = row;
                return true;
              }
              scanner.close();
              scanner = null;
            }
          }

          @Override
          public void reset() {
            throw new UnsupportedOperationException("reset");
          }

          @Override
          public void close() {
            if (scanner != null) {
              scanner.close();
            }
          }
        };
      }
    };
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

  private Scan scanFor(io.basaltdb.sql.pushdown.KeyRange range, int[] proj, long asOf) {
    Scan scan = new Scan().withStartRow(range.start()).withStopRow(range.stop());
    if (asOf >= 0) {
      scan.setTimeRange(0, asOf == Long.MAX_VALUE ? asOf : asOf + 1);
    }
    scan.addColumn(def.markerFamily().getBytes(StandardCharsets.UTF_8), MARKER);
    for (int i : proj) {
      SqlColumn c = def.columns().get(i);
      if (!c.isKey()) {
        scan.addColumn(c.family().getBytes(StandardCharsets.UTF_8),
            c.name().getBytes(StandardCharsets.UTF_8));
      }
    }
    return scan;
  }

  static Object[] toRow(Result r, RowKeyCodec codec, List<SqlColumn> cols) {
    Object[] key = codec.decode(r.row());
    Object[] row = new Object[cols.size()];
    for (int i = 0; i < cols.size(); i++) {
      SqlColumn c = cols.get(i);
      if (c.isKey()) {
        row[i] = c.type().fromKey(key[c.keyPosition()]);
      } else {
        byte[] v = r.getValue(c.family().getBytes(StandardCharsets.UTF_8),
            c.name().getBytes(StandardCharsets.UTF_8));
        row[i] = v == null ? null : c.type().fromCell(v);
      }
    }
    return row;
  }
}
