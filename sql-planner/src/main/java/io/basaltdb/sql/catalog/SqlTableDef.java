package io.basaltdb.sql.catalog;

import io.basaltdb.storage.CorruptionException;
import io.basaltdb.storage.InvalidArgumentException;
import io.basaltdb.storage.TableName;
import io.basaltdb.sql.type.ColumnType;
import io.basaltdb.sql.type.RowKeyCodec;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * A SQL table's definition: the engine table it lives in, its columns in declaration order,
 * the salt bucket count, the family of the marker cell every row writes (fixed when the table
 * is created), and its storage scheme: one cell per column, or one cell per family
 * ({@code packed}: Phoenix's {@code IMMUTABLE_STORAGE_SCHEME=SINGLE_CELL_ARRAY_WITH_OFFSETS};
 * the family's values in a {@link io.basaltdb.sql.type.CellArray} under qualifier
 * {@link #PACKED_QUALIFIER}, each column at its slot, see {@link #slot}). Stored in the SQL
 * catalog as a versioned record written with {@code DataOutputStream}; frozen format 1: version
 * u8, salt u8, column count u32, then per column name (UTF), type code u8, precision i32, scale
 * i32, nullable, key position i32, descending, family (UTF, empty for key columns), then the
 * marker family (UTF); format 2 adds the packed flag (boolean) at the end; format 3 (written
 * only when there are defaults or checks) then the defaults: count u32, per default the
 * column's name (UTF) and the expression's SQL text (UTF); then the checks: count u32, per
 * check its name (UTF) and condition's SQL text (UTF); format 4 (written only when a column is
 * an ARRAY, type code 16, or a MAP, 17, or one is the ROW_TIMESTAMP) then the element types:
 * count u32, per ARRAY column its index u32 and its element's type code u8; then the
 * ROW_TIMESTAMP column's name (UTF, empty for none); format 5 (written only when the table has
 * foreign keys, after every section above) then the foreign keys: count u32, per key its name
 * (UTF), column count u32 and names (UTF), the parent table (UTF, {@code namespace:table}), the
 * parent's columns (UTF, as many), ON DELETE and ON UPDATE action codes u8, enforced (boolean);
 * format 6 (written only when a column is GENERATED ALWAYS) then those columns: count u32,
 * names (UTF). Immutable.
 *
 * @param defaults each column's {@code DEFAULT} expression as SQL text, by column name
 * @param checks the table's CHECK constraints, in declaration order
 * @param rowTimestamp the key column whose value is every cell's timestamp (Phoenix's
 *     ROW_TIMESTAMP), or null
 */
public record SqlTableDef(TableName table, List<SqlColumn> columns, int saltBuckets,
    String markerFamily, boolean packed, java.util.Map<String, String> defaults,
    List<Check> checks, String rowTimestamp, List<ForeignKey> foreignKeys,
    List<String> generatedAlways) {
  /** A definition without columns generated always. */
  public SqlTableDef(TableName table, List<SqlColumn> columns, int saltBuckets,
      String markerFamily, boolean packed, java.util.Map<String, String> defaults,
      List<Check> checks, String rowTimestamp, List<ForeignKey> foreignKeys) {
    this(table, columns, saltBuckets, markerFamily, packed, defaults, checks, rowTimestamp,
        foreignKeys, List.of());
  }

  /**
   * This definition with {@code generatedAlways} as its identity columns that take no value
   * but their DEFAULT ({@code GENERATED ALWAYS AS IDENTITY}).
   */
  public SqlTableDef withGeneratedAlways(List<String> generatedAlways) {
    return new SqlTableDef(table, columns, saltBuckets, markerFamily, packed, defaults, checks,
        rowTimestamp, foreignKeys, generatedAlways);
  }

  /** A definition without foreign keys. */
  public SqlTableDef(TableName table, List<SqlColumn> columns, int saltBuckets,
      String markerFamily, boolean packed, java.util.Map<String, String> defaults,
      List<Check> checks, String rowTimestamp) {
    this(table, columns, saltBuckets, markerFamily, packed, defaults, checks, rowTimestamp,
        List.of());
  }

  /** This definition with {@code foreignKeys} as its FOREIGN KEY constraints. */
  public SqlTableDef withForeignKeys(List<ForeignKey> foreignKeys) {
    return new SqlTableDef(table, columns, saltBuckets, markerFamily, packed, defaults, checks,
        rowTimestamp, List.copyOf(foreignKeys), generatedAlways);
  }

  /** A definition without a row timestamp column. */
  public SqlTableDef(TableName table, List<SqlColumn> columns, int saltBuckets,
      String markerFamily, boolean packed, java.util.Map<String, String> defaults,
      List<Check> checks) {
    this(table, columns, saltBuckets, markerFamily, packed, defaults, checks, null);
  }

  /** A CHECK constraint: its name and its condition's SQL text (Calcite's dialect). */
  public record Check(String name, String condition) {}

  /** A definition with defaults and no checks. */
  public SqlTableDef(TableName table, List<SqlColumn> columns, int saltBuckets,
      String markerFamily, boolean packed, java.util.Map<String, String> defaults) {
    this(table, columns, saltBuckets, markerFamily, packed, defaults, List.of());
  }
  public static final int FORMAT_VERSION = 6;

  /** A definition without column defaults. */
  public SqlTableDef(TableName table, List<SqlColumn> columns, int saltBuckets,
      String markerFamily, boolean packed) {
    this(table, columns, saltBuckets, markerFamily, packed, java.util.Map.of());
  }

  /** The qualifier of a family's one cell in a packed table. */
  public static final String PACKED_QUALIFIER = "_v";

  /** A new definition: the marker goes to the family of the first non-key column. */
  public SqlTableDef(TableName table, List<SqlColumn> columns, int saltBuckets, boolean packed) {
    this(table, columns, saltBuckets, firstFamily(columns), packed);
  }

  /** This definition with {@code defaults} as its columns' DEFAULT expressions. */
  public SqlTableDef withDefaults(java.util.Map<String, String> defaults) {
    return new SqlTableDef(table, columns, saltBuckets, markerFamily, packed, defaults, checks,
        rowTimestamp, foreignKeys, generatedAlways);
  }

  /** This definition with {@code checks} as its CHECK constraints. */
  public SqlTableDef withChecks(List<Check> checks) {
    return new SqlTableDef(table, columns, saltBuckets, markerFamily, packed, defaults, checks,
        rowTimestamp, foreignKeys, generatedAlways);
  }

  /** This definition with key column {@code column} as its cells' timestamp (null: none). */
  public SqlTableDef withRowTimestamp(String column) {
    return new SqlTableDef(table, columns, saltBuckets, markerFamily, packed, defaults, checks,
        column, foreignKeys, generatedAlways);
  }

  /** This definition with other columns (added or dropped), all else kept. */
  public SqlTableDef withColumns(List<SqlColumn> columns) {
    return new SqlTableDef(table, columns, saltBuckets, markerFamily, packed, defaults, checks,
        rowTimestamp, foreignKeys, generatedAlways);
  }

  /**
   * In a packed table, the slot of cell column {@code i} in its family's cell: its position
   * among the family's columns in declaration order (an added column comes last, so slots never
   * move; columns of a packed table are never dropped); -1 for a key column or an unpacked
   * table.
   */
  public int slot(int i) {
    SqlColumn c = columns.get(i);
    if (!packed || c.isKey()) {
      return -1;
    }
    int slot = 0;
    for (int j = 0; j < i; j++) {
      if (!columns.get(j).isKey() && columns.get(j).family().equals(c.family())) {
        slot++;
      }
    }
    return slot;
  }

  private static String firstFamily(List<SqlColumn> columns) {
    for (SqlColumn c : columns) {
      if (!c.isKey()) {
        return c.family();
      }
    }
    return "0";
  }

  public SqlTableDef {
    columns = List.copyOf(columns);
    generatedAlways = List.copyOf(generatedAlways);
    defaults = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(defaults));
    checks = List.copyOf(checks);
    for (String c : defaults.keySet()) {
      if (columns.stream().noneMatch(col -> col.name().equals(c))) {
        throw new InvalidArgumentException("table " + table + " has a default for " + c
            + ", which is not a column");
      }
    }
    if (columns.isEmpty()) {
      throw new InvalidArgumentException("table " + table + " needs at least one column");
    }
    if (rowTimestamp != null && columns.stream().noneMatch(c -> c.isKey()
        && c.name().equals(rowTimestamp))) {
      throw new InvalidArgumentException("ROW_TIMESTAMP " + rowTimestamp + " of " + table
          + " is not a primary key column");
    }
    if (keyColumns(columns).isEmpty()) {
      throw new InvalidArgumentException("table " + table + " needs a primary key");
    }
  }

  private static List<SqlColumn> keyColumns(List<SqlColumn> cols) {
    List<SqlColumn> keys = new ArrayList<>();
    for (SqlColumn c : cols) {
      if (c.isKey()) {
        keys.add(c);
      }
    }
    keys.sort(Comparator.comparingInt(SqlColumn::keyPosition));
    return keys;
  }

  /**
   * The hidden row key of a table declared without a primary key: a random BIGINT, always the
   * last column, never shown (not in {@code SELECT *}, not in metadata).
   */
  public static final String HIDDEN_KEY = "_ROWID";

  /** True when the table was declared without a primary key. */
  public boolean hasHiddenKey() {
    return columns.get(columns.size() - 1).name().equals(HIDDEN_KEY)
        && columns.get(columns.size() - 1).isKey();
  }

  /** The columns SQL sees: all but the hidden row key. */
  public int visibleColumnCount() {
    return hasHiddenKey() ? columns.size() - 1 : columns.size();
  }

  /** The index of the visible column named {@code name}, or -1 when there is none. */
  public int visibleIndexOf(String name) {
    for (int i = 0; i < visibleColumnCount(); i++) {
      if (columns.get(i).name().equals(name)) {
        return i;
      }
    }
    return -1;
  }

  /** The index of the column named {@code name}; an error when there is none. */
  public int columnIndex(String name) {
    for (int i = 0; i < columns.size(); i++) {
      if (columns.get(i).name().equals(name)) {
        return i;
      }
    }
    throw new io.basaltdb.storage.InvalidArgumentException("no column " + name + " in " + table);
  }

  /** Key columns in key order (an immutable list). */
  public List<SqlColumn> keyColumns() {
    return KEYS.of(this);
  }

  /** Each definition's key columns, listed once (a point statement asks for them each run). */
  private static final PerDefinition<List<SqlColumn>> KEYS =
      new PerDefinition<>(d -> List.copyOf(keyColumns(d.columns())));

  /** The key columns' indexes among {@link #columns}, in column order. */
  public List<Integer> keyColumnIndexes() {
    List<Integer> out = new ArrayList<>();
    for (int i = 0; i < columns.size(); i++) {
      if (columns.get(i).isKey()) {
        out.add(i);
      }
    }
    return out;
  }

  /** How many key columns there are (without the list {@link #keyColumns} makes). */
  public int keyColumnCount() {
    int n = 0;
    for (int i = 0; i < columns.size(); i++) {
      n += columns.get(i).isKey() ? 1 : 0;
    }
    return n;
  }

  /** Codecs by definition object. */
  private static final PerDefinition<RowKeyCodec> CODECS =
      new PerDefinition<>(SqlTableDef::newKeyCodec);

  /** The codec of this table's row keys, made once per definition object. */
  public RowKeyCodec keyCodec() {
    return CODECS.of(this);
  }

  private RowKeyCodec newKeyCodec() {
    List<RowKeyCodec.Column> cols = new ArrayList<>();
    for (SqlColumn c : keyColumns()) {
      cols.add(new RowKeyCodec.Column(c.name(), c.type().keyType(), c.descending(),
          c.nullable()));
    }
    return new RowKeyCodec(cols, saltBuckets);
  }

  public byte[] encode() {
    try {
      java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
      java.io.DataOutputStream out = new java.io.DataOutputStream(bytes);
      List<Integer> arrays = new ArrayList<>();
      for (int i = 0; i < columns.size(); i++) {
        if (columns.get(i).isArray()) {
          arrays.add(i);
        }
      }
      boolean v6 = !generatedAlways.isEmpty();
      boolean v5 = v6 || !foreignKeys.isEmpty();
      boolean v4 = v5 || !arrays.isEmpty() || columns.stream().anyMatch(SqlColumn::isMap)
          || rowTimestamp != null;
      boolean v3 = v4 || !defaults.isEmpty() || !checks.isEmpty();
      // the oldest format that holds it: older code reads it
      out.writeByte(v6 ? 6 : v5 ? 5 : v4 ? 4 : v3 ? 3 : 2);
      out.writeByte(saltBuckets);
      out.writeInt(columns.size());
      for (SqlColumn c : columns) {
        out.writeUTF(c.name());
        out.writeByte(c.type().code());
        out.writeInt(c.precision());
        out.writeInt(c.scale());
        out.writeBoolean(c.nullable());
        out.writeInt(c.keyPosition());
        out.writeBoolean(c.descending());
        out.writeUTF(c.family() == null ? "" : c.family());
      }
      out.writeUTF(markerFamily);
      out.writeBoolean(packed);
      if (v3) {
        out.writeInt(defaults.size());
        for (java.util.Map.Entry<String, String> d : defaults.entrySet()) {
          out.writeUTF(d.getKey());
          out.writeUTF(d.getValue());
        }
        out.writeInt(checks.size());
        for (Check c : checks) {
          out.writeUTF(c.name());
          out.writeUTF(c.condition());
        }
      }
      if (v4) {
        out.writeInt(arrays.size());
        for (int i : arrays) {
          out.writeInt(i);
          out.writeByte(columns.get(i).element().code());
        }
        out.writeUTF(rowTimestamp == null ? "" : rowTimestamp);
      }
      if (v5) {
        out.writeInt(foreignKeys.size());
        for (ForeignKey fk : foreignKeys) {
          out.writeUTF(fk.name());
          out.writeInt(fk.columns().size());
          for (String c : fk.columns()) {
            out.writeUTF(c);
          }
          out.writeUTF(fk.parent().toString());
          for (String c : fk.parentColumns()) {
            out.writeUTF(c);
          }
          out.writeByte(fk.onDelete().code());
          out.writeByte(fk.onUpdate().code());
          out.writeBoolean(fk.enforced());
        }
      }
      if (v6) {
        out.writeInt(generatedAlways.size());
        for (String c : generatedAlways) {
          out.writeUTF(c);
        }
      }
      return bytes.toByteArray();
    } catch (java.io.IOException e) {
      throw new IllegalStateException(e); // a byte array stream does not fail
    }
  }

  public static SqlTableDef decode(TableName table, byte[] b) {
    try {
      java.io.DataInputStream in = new java.io.DataInputStream(new java.io.ByteArrayInputStream(b));
      int v = in.readByte();
      if (v < 1 || v > FORMAT_VERSION) {
        throw new CorruptionException("SQL definition of " + table + " has unknown version " + v);
      }
      int salt = in.readByte() & 0xff;
      List<SqlColumn> cols = new ArrayList<>();
      for (int n = in.readInt(); n > 0; n--) {
        String name = in.readUTF();
        ColumnType type = ColumnType.ofCode(in.readByte());
        int precision = in.readInt();
        int scale = in.readInt();
        boolean nullable = in.readBoolean();
        int keyPos = in.readInt();
        boolean desc = in.readBoolean();
        String fam = in.readUTF();
        cols.add(new SqlColumn(name, type, precision, scale, nullable, keyPos, desc,
            fam.isEmpty() ? null : fam));
      }
      String marker = in.readUTF();
      boolean packed = v >= 2 && in.readBoolean();
      java.util.Map<String, String> defaults = new java.util.LinkedHashMap<>();
      for (int n = v >= 3 ? in.readInt() : 0; n > 0; n--) {
        defaults.put(in.readUTF(), in.readUTF());
      }
      List<Check> checks = new ArrayList<>();
      for (int n = v >= 3 ? in.readInt() : 0; n > 0; n--) {
        checks.add(new Check(in.readUTF(), in.readUTF()));
      }
      for (int n = v >= 4 ? in.readInt() : 0; n > 0; n--) {
        int i = in.readInt();
        SqlColumn c = cols.get(i);
        cols.set(i, new SqlColumn(c.name(), c.type(), c.precision(), c.scale(), c.nullable(),
            c.keyPosition(), c.descending(), c.family(), ColumnType.ofCode(in.readByte())));
      }
      String rowTs = v >= 4 ? in.readUTF() : "";
      List<ForeignKey> fks = new ArrayList<>();
      for (int n = v >= 5 ? in.readInt() : 0; n > 0; n--) {
        String name = in.readUTF();
        List<String> fkCols = new ArrayList<>();
        for (int k = in.readInt(); k > 0; k--) {
          fkCols.add(in.readUTF());
        }
        TableName parent = TableName.of(in.readUTF());
        List<String> parentCols = new ArrayList<>();
        for (int k = 0; k < fkCols.size(); k++) {
          parentCols.add(in.readUTF());
        }
        fks.add(new ForeignKey(name, fkCols, parent, parentCols,
            ForeignKey.Action.ofCode(in.readByte()), ForeignKey.Action.ofCode(in.readByte()),
            in.readBoolean()));
      }
      List<String> always = new ArrayList<>();
      for (int n = v >= 6 ? in.readInt() : 0; n > 0; n--) {
        always.add(in.readUTF());
      }
      return new SqlTableDef(table, cols, salt, marker, packed, defaults, checks,
          rowTs.isEmpty() ? null : rowTs, fks, always);
    } catch (java.io.IOException e) {
      throw new CorruptionException("malformed SQL definition of " + table + ": " + e);
    }
  }
}
