package io.basaltdb.sql.index;

import io.basaltdb.engine.CorruptionException;
import io.basaltdb.sql.catalog.SqlColumn;
import io.basaltdb.sql.catalog.SqlTableDef;
import io.basaltdb.sql.exec.ColumnValues;
import io.basaltdb.sql.type.CellArray;
import io.basaltdb.sql.type.RowKeyCodec;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * How one index's entries are laid out for one version of its table's definition
 * ({@code doc/indexes.md}). An entry's row key: [salt byte,] then per indexed column a flag
 * byte ({@code 00} NULL, {@code 01} a value follows) and the value's row-key field
 * (row-key-encoding.md), the flag and field inverted for a DESC column; then, for a non-unique
 * index or a unique one with a NULL among its values (NULLs are never equal), the base row's
 * engine key as it is. Its one cell {@code 0:_v} is a {@link CellArray}: the INCLUDE columns'
 * cell encodings, then for a unique entry whose key stops at the values, the base row's key.
 * Immutable.
 */
public final class IndexLayout {
  public static final byte[] FAMILY = {'0'};
  public static final byte[] QUALIFIER = "_v".getBytes(StandardCharsets.UTF_8);

  private final SqlIndexDef index;
  private final SqlTableDef table;
  private final int[] columns;
  private final int[] includes;
  private final RowKeyCodec[] fields;
  private final RowKeyCodec salt;

  public IndexLayout(SqlTableDef table, SqlIndexDef index) {
    this.index = index;
    this.table = table;
    columns = index.columns().stream().mapToInt(table::columnIndex).toArray();
    includes = index.includes().stream().mapToInt(table::columnIndex).toArray();
    fields = new RowKeyCodec[columns.length];
    for (int i = 0; i < columns.length; i++) {
      SqlColumn c = table.columns().get(columns[i]);
      fields[i] = new RowKeyCodec(List.of(new RowKeyCodec.Column(c.name(), c.type().keyType(),
          index.descending().get(i))), 0);
    }
    salt = index.saltBuckets() == 0 ? null : new RowKeyCodec(fields[0].columns(),
        index.saltBuckets());
  }

  public SqlIndexDef index() {
    return index;
  }

  /** The table column indexes of the indexed columns, in key order. */
  public int[] columns() {
    return columns.clone();
  }

  /** The table column indexes of the INCLUDE columns. */
  public int[] includes() {
    return includes.clone();
  }

  /** True when an entry's key ends with the base key (not a unique entry of non-NULL values). */
  public boolean keyEndsWithBaseKey(Object[] row) {
    if (!index.unique()) {
      return true;
    }
    for (int c : columns) {
      if (row[c] == null) {
        return true;
      }
    }
    return false;
  }

  /** The entry key of a base row ({@code row}: every table column, in internal form). */
  public byte[] entryKey(Object[] row, byte[] baseKey) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(32 + baseKey.length);
    for (int i = 0; i < columns.length; i++) {
      out.writeBytes(field(i, row[columns[i]]));
    }
    if (keyEndsWithBaseKey(row)) {
      out.writeBytes(baseKey);
    }
    byte[] key = out.toByteArray();
    return salt == null ? key : salt.salt(key);
  }

  /** The flag and field of indexed column {@code i} holding {@code value}. */
  public byte[] field(int i, Object value) {
    boolean desc = index.descending().get(i);
    if (value == null) {
      return new byte[] {desc ? (byte) 0xFF : 0};
    }
    SqlColumn c = table.columns().get(columns[i]);
    byte[] v = fields[i].encodePrefix(c.type().toKey(ColumnValues.fit(c, value)));
    byte[] f = new byte[v.length + 1];
    f[0] = desc ? (byte) 0xFE : 1;
    System.arraycopy(v, 0, f, 1, v.length);
    return f;
  }

  /** The entry's cell value: the INCLUDE columns, then the base key when not in the key. */
  public byte[] entryValue(Object[] row, byte[] baseKey) {
    boolean keyInValue = !keyEndsWithBaseKey(row);
    byte[][] slots = new byte[includes.length + (keyInValue ? 1 : 0)][];
    for (int i = 0; i < includes.length; i++) {
      Object v = row[includes[i]];
      SqlColumn c = table.columns().get(includes[i]);
      slots[i] = v == null ? null : c.type().toCell(ColumnValues.fit(c, v));
    }
    if (keyInValue) {
      slots[includes.length] = baseKey;
    }
    return CellArray.encode(slots);
  }

  /**
   * The base row's key of an entry: its key's tail, or for a unique entry of non-NULL values
   * the last slot of its value.
   */
  public byte[] baseKey(byte[] entryKey, byte[] entryValue) {
    int pos = salt == null ? 0 : 1;
    boolean sawNull = false;
    for (int i = 0; i < columns.length; i++) {
      boolean desc = index.descending().get(i);
      byte flag = desc ? (byte) ~entryKey[pos] : entryKey[pos];
      pos++;
      if (flag == 0) {
        sawNull = true;
        continue;
      }
      pos = fields[i].fieldEnd(0, entryKey, pos);
    }
    if (!index.unique() || sawNull) {
      return Arrays.copyOfRange(entryKey, pos, entryKey.length);
    }
    byte[] k = CellArray.get(entryValue, includes.length);
    if (k == null) {
      throw new CorruptionException("entry of unique index " + index.name() + " has no row key");
    }
    return k;
  }

  /** True when two rows give the same entry (key and value) for the same base key. */
  public boolean sameEntry(Object[] a, Object[] b) {
    for (int c : columns) {
      if (!Objects.equals(a[c], b[c])) {
        return false;
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
