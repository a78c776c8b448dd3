package io.basaltdb.sql.index;

import io.basaltdb.sql.catalog.ColumnValues;
import io.basaltdb.sql.catalog.SqlColumn;
import io.basaltdb.sql.catalog.SqlIndexDef;
import io.basaltdb.sql.catalog.SqlTableDef;
import io.basaltdb.sql.type.CellArray;
import io.basaltdb.sql.type.RowKeyCodec;
import io.basaltdb.storage.CorruptionException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * How one index's entries are laid out for one version of its table's definition
 * ({@code doc/indexes.md}). An entry's row key is a row key (row-key-encoding.md) of the
 * indexed columns, each nullable (a flag byte before its field) and in its own direction,
 * then the table's key columns not already indexed (the <em>tail</em>, as the table orders
 * them), salted by the index's own SALT_BUCKETS; a UNIQUE index leaves the tail out while no
 * indexed value is NULL (NULLs are never equal), keeping the base key in the cell instead. The
 * entry's one cell {@code 0:_v} is a {@link CellArray}: the INCLUDE columns' cell encodings,
 * then, for a unique entry without its tail, the base row's key. {@link #keyDefinition} is the
 * index seen as a table keyed that way, so the table's key-range planning applies to it.
 * Immutable.
 */
public final class IndexLayout {
  public static final byte[] FAMILY = {'0'};
  public static final byte[] QUALIFIER = "_v".getBytes(StandardCharsets.UTF_8);
  /**
   * An entry's status cell, kept only over a storage that writes one row atomically (HBase:
   * {@link ClientIndexProtocol}): {@link #VERIFIED} or {@link #UNVERIFIED} (Phoenix's
   * empty-column values); its newest version is the entry's status.
   */
  public static final byte[] STATUS = "_s".getBytes(StandardCharsets.UTF_8);
  /**
   * A UNIQUE entry's claim cell (client-side protocol only): 8 random bytes each writer that
   * claims the entry puts with it, which the next claimer's check-and-mutate compares.
   */
  public static final byte[] CLAIM = "_c".getBytes(StandardCharsets.UTF_8);
  public static final byte[] VERIFIED = {1};
  public static final byte[] UNVERIFIED = {2};

  private final SqlIndexDef index;
  private final SqlTableDef table;
  /** Per key part, its table column, or -1 for an expression ({@link #computedParts}). */
  private final int[] columns;
  /** Per key part, its expression, or null for a column. */
  private final IndexExpression[] expressions;
  private final int[] tail;
  private final int[] includes;
  private final SqlTableDef keyDefinition;
  private final RowKeyCodec codec;
  private final RowKeyCodec baseCodec;
  /** Per base key column (key order), its field in a decoded entry key. */
  private final int[] baseKeyFields;
  /**
   * True when no key column is indexed: the tail is then the base key's columns in its order,
   * each encoded as the base key encodes it (same type and direction, not nullable; a field's
   * encoding does not depend on its place), so an entry's tail bytes are the unsalted base key.
   */
  private final boolean tailIsBaseKey;

  public IndexLayout(SqlTableDef table, SqlIndexDef index) {
    this.index = index;
    this.table = table;
    int parts = index.columns().size();
    columns = new int[parts];
    expressions = new IndexExpression[parts];
    java.util.Set<String> indexedNames = new java.util.HashSet<>();
    for (int i = 0; i < parts; i++) {
      String part = index.columns().get(i);
      if (index.computed().get(i)) {
        columns[i] = -1;
        expressions[i] = IndexExpression.of(table, part);
      } else {
        columns[i] = table.columnIndex(part);
        indexedNames.add(part);
      }
    }
    includes = index.includes().stream().mapToInt(table::columnIndex).toArray();
    List<Integer> tailColumns = new ArrayList<>();
    for (SqlColumn k : table.keyColumns()) {
      int i = table.columns().indexOf(k);
      if (!indexedNames.contains(k.name())) {
        tailColumns.add(i);
      }
    }
    tail = tailColumns.stream().mapToInt(Integer::intValue).toArray();
    List<SqlColumn> cols = new ArrayList<>();
    for (int i = 0; i < table.columns().size(); i++) {
      SqlColumn c = table.columns().get(i);
      int pos = position(columns, i);
      int tailPos = position(tail, i);
      if (pos >= 0) {
        cols.add(new SqlColumn(c.name(), c.type(), c.precision(), c.scale(), true, pos,
            index.descending().get(pos), null));
      } else if (tailPos >= 0) {
        cols.add(new SqlColumn(c.name(), c.type(), c.precision(), c.scale(), false,
            columns.length + tailPos, c.descending(), null));
      } else {
        cols.add(new SqlColumn(c.name(), c.type(), c.precision(), c.scale(), c.nullable(), -1,
            false, c.isKey() ? "0" : c.family()));
      }
    }
    for (int i = 0; i < parts; i++) { // an expression: a column after the table's
      if (expressions[i] != null) {
        SqlColumn e = expressions[i].column();
        cols.add(new SqlColumn(e.name(), e.type(), e.precision(), e.scale(), true, i,
            index.descending().get(i), null));
      }
    }
    keyDefinition = new SqlTableDef(index.engineTable(), cols, index.saltBuckets(), "0", false);
    codec = keyDefinition.keyCodec();
    baseCodec = table.keyCodec();
    List<SqlColumn> keys = table.keyColumns();
    baseKeyFields = new int[keys.size()];
    for (int k = 0; k < keys.size(); k++) {
      int column = table.columnIndex(keys.get(k).name());
      int pos = position(columns, column);
      baseKeyFields[k] = pos >= 0 ? pos : columns.length + position(tail, column);
    }
    boolean inOrder = tail.length == keys.size();
    for (int k = 0; inOrder && k < keys.size(); k++) {
      inOrder = baseKeyFields[k] == columns.length + k;
    }
    tailIsBaseKey = inOrder;
  }

  private static int position(int[] in, int column) {
    for (int i = 0; i < in.length; i++) {
      if (in[i] == column) {
        return i;
      }
    }
    return -1;
  }

  public SqlIndexDef index() {
    return index;
  }

  /**
   * The index as a table: the base table's columns (same positions), keyed by the indexed
   * columns then the tail; for planning key ranges over the index with the table's machinery.
   */
  public SqlTableDef keyDefinition() {
    return keyDefinition;
  }

  /**
   * The expressions among the key parts, each with the column of {@link #keyDefinition} that
   * stands for its value (after the table's columns), in key order; empty for an index of
   * columns only.
   */
  public List<ComputedPart> computedParts() {
    List<ComputedPart> out = new ArrayList<>();
    int column = table.columns().size();
    for (IndexExpression e : expressions) {
      if (e != null) {
        out.add(new ComputedPart(e, column++));
      }
    }
    return out;
  }

  /**
   * Conditions on the table's columns as conditions on an index seen as a table: each
   * expression the index keys by (a functional index's {@code UPPER(name)}), wherever it
   * occurs, becomes the index key definition's column standing for its value.
   */
  public List<org.apache.calcite.rex.RexNode> onIndex(
      List<org.apache.calcite.rex.RexNode> onTable, org.apache.calcite.rex.RexBuilder rb) {
    List<ComputedPart> parts = computedParts();
    if (parts.isEmpty()) {
      return onTable;
    }
    org.apache.calcite.rex.RexShuttle replace = new org.apache.calcite.rex.RexShuttle() {
      @Override
      public org.apache.calcite.rex.RexNode visitCall(org.apache.calcite.rex.RexCall call) {
        for (ComputedPart p : parts) {
          if (call.equals(p.expression().node())) {
            return rb.makeInputRef(call.getType(), p.keyDefinitionColumn());
          }
        }
        return super.visitCall(call);
      }
    };
    List<org.apache.calcite.rex.RexNode> out = new ArrayList<>(onTable.size());
    for (org.apache.calcite.rex.RexNode n : onTable) {
      out.add(n.accept(replace));
    }
    return out;
  }

  /** An expression key part and its column in {@link #keyDefinition}. */
  public record ComputedPart(IndexExpression expression, int keyDefinitionColumn) {}

  /** The key parts' values of a row ({@code row}: every table column, internal form). */
  public Object[] partValues(Object[] row) {
    Object[] out = new Object[columns.length];
    for (int i = 0; i < columns.length; i++) {
      out[i] = columns[i] >= 0 ? row[columns[i]] : expressions[i].evaluate(row);
    }
    return out;
  }

  /** The table column indexes of the indexed columns in key order (-1: an expression). */
  public int[] columns() {
    return columns.clone();
  }

  /** The table column indexes of the INCLUDE columns. */
  public int[] includes() {
    return includes.clone();
  }

  /**
   * True when table column {@code i}'s value can be read from an entry as the table stores it:
   * a key column, an INCLUDE column, or an indexed one (not a DECIMAL, whose key encoding does
   * not keep its scale).
   */
  public boolean covers(int i) {
    SqlColumn c = table.columns().get(i);
    return c.isKey() || position(includes, i) >= 0
        || (position(columns, i) >= 0 && c.type() != io.basaltdb.sql.type.ColumnType.DECIMAL);
  }

  /**
   * The base row as the table would return it, built from an entry alone: its key, its marker
   * and a cell for each non-NULL covered column (indexed or INCLUDE), sorted as a read returns
   * them; for a table storing one cell per column (not a packed one).
   */
  public io.basaltdb.storage.Result baseRow(byte[] entryKey, byte[] entryValue, long timestamp,
      io.basaltdb.sql.catalog.CellNames names, byte[] marker) {
    byte[] key = baseKey(entryKey, entryValue);
    Object[] indexed = codec.decodePrefix(entryKey, columns.length);
    List<io.basaltdb.storage.Cell> cells = new ArrayList<>();
    cells.add(io.basaltdb.storage.Cell.put(key, names.markerFamily(), marker, timestamp,
        io.basaltdb.sql.catalog.CellNames.MARKER_VALUE));
    for (int i = 0; i < columns.length; i++) {
      if (columns[i] < 0) {
        continue; // an expression's value is no column's
      }
      SqlColumn c = table.columns().get(columns[i]);
      if (!c.isKey() && indexed[i] != null) {
        cells.add(io.basaltdb.storage.Cell.put(key, names.family(columns[i]),
            names.qualifier(columns[i]), timestamp, c.type().toCell(c.type().fromKey(indexed[i]))));
      }
    }
    for (int i = 0; i < includes.length; i++) {
      byte[] v = CellArray.get(entryValue, i);
      if (v != null && !table.columns().get(includes[i]).isKey()) {
        cells.add(io.basaltdb.storage.Cell.put(key, names.family(includes[i]),
            names.qualifier(includes[i]), timestamp, v));
      }
    }
    cells.sort((a, b) -> {
      int f = java.util.Arrays.compareUnsigned(a.family(), b.family());
      return f != 0 ? f : java.util.Arrays.compareUnsigned(a.qualifier(), b.qualifier());
    });
    return new io.basaltdb.storage.Result(key, cells);
  }

  /** True when an entry's key holds the tail (not a unique entry of non-NULL values). */
  public boolean keyEndsWithBaseKey(Object[] row) {
    if (!index.unique()) {
      return true;
    }
    for (int i = 0; i < columns.length; i++) {
      if ((columns[i] >= 0 ? row[columns[i]] : expressions[i].evaluate(row)) == null) {
        return true;
      }
    }
    return false;
  }

  /** The entry key of a base row ({@code row}: every table column, in internal form). */
  public byte[] entryKey(Object[] row, byte[] baseKey) {
    Object[] parts = partValues(row);
    boolean withTail = !index.unique() || java.util.Arrays.asList(parts).contains(null);
    Object[] values = new Object[columns.length + (withTail ? tail.length : 0)];
    for (int i = 0; i < columns.length; i++) {
      SqlColumn c = columns[i] >= 0 ? table.columns().get(columns[i])
          : expressions[i].column();
      values[i] = parts[i] == null ? null : c.type().toKey(ColumnValues.fit(c, parts[i]));
    }
    if (!withTail) {
      return codec.salt(codec.encodePrefix(values));
    }
    for (int i = 0; i < tail.length; i++) {
      values[columns.length + i] = keyValue(tail[i], row[tail[i]]);
    }
    return codec.encode(values);
  }

  private Object keyValue(int column, Object v) {
    SqlColumn c = table.columns().get(column);
    return v == null ? null : c.type().toKey(ColumnValues.fit(c, v));
  }

  /** The entry's cell value: the INCLUDE columns, then the base key when not in the key. */
  public byte[] entryValue(Object[] row, byte[] baseKey) {
    boolean keyInValue = !keyEndsWithBaseKey(row);
    byte[][] slots = new byte[includes.length + (keyInValue ? 1 : 0)][];
    for (int i = 0; i < includes.length; i++) {
      Object v = row[includes[i]];
      SqlColumn c = table.columns().get(includes[i]);
      slots[i] = v == null ? null : c.toCell(ColumnValues.fit(c, v));
    }
    if (keyInValue) {
      slots[includes.length] = baseKey;
    }
    return CellArray.encode(slots);
  }

  /** The base row's key of an entry. */
  public byte[] baseKey(byte[] entryKey, byte[] entryValue) {
    boolean withTail = !index.unique();
    if (!withTail) {
      for (Object v : codec.decodePrefix(entryKey, columns.length)) {
        withTail |= v == null;
      }
    }
    if (!withTail) {
      byte[] k = entryValue == null ? null : CellArray.get(entryValue, includes.length);
      if (k == null) {
        throw new CorruptionException("entry of unique index " + index.name()
            + " holds no row key");
      }
      return k;
    }
    if (tailIsBaseKey) { // the tail's fields are the base key's, byte for byte: slice them
      int pos = codec.saltBuckets() == 0 ? 0 : 1;
      for (int i = 0; i < columns.length; i++) {
        pos = codec.fieldEnd(i, entryKey, pos);
      }
      return baseCodec.salt(java.util.Arrays.copyOfRange(entryKey, pos, entryKey.length));
    }
    Object[] all = codec.decode(entryKey);
    Object[] key = new Object[baseKeyFields.length];
    for (int k = 0; k < key.length; k++) {
      key[k] = all[baseKeyFields[k]];
    }
    return baseCodec.encode(key);
  }

  /** True when two rows give the same entry (key and value) for the same base key. */
  public boolean sameEntry(Object[] a, Object[] b) {
    for (int i = 0; i < columns.length; i++) {
      int[] read = columns[i] >= 0 ? new int[] {columns[i]} : expressions[i].inputs().toArray();
      for (int c : read) { // an expression of equal values has an equal value
        if (!Objects.equals(a[c], b[c])) {
          return false;
        }
      }
    }
    for (int c : includes) {
      if (!Objects.equals(a[c], b[c])) {
        return false;
      }
    }
    return true;
  }
}
