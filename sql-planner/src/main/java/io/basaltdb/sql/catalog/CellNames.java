package io.basaltdb.sql.catalog;

import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The cell address (family and qualifier, as bytes) of each column of a table, computed once
 * per table definition rather than per row; null for key columns, which live in the row key.
 * In a packed table a column's cell is its family's one cell, and the column is at its
 * {@link #slot} in it; {@link #packedFamilies} lists the families with their columns by slot.
 * Immutable.
 */
public final class CellNames {
  /**
   * The qualifier of the marker cell every row writes in its table's first family, so a row of
   * NULLs exists (Phoenix calls it the empty key value).
   */
  public static final byte[] MARKER = {'_', '0'};
  /**
   * The marker cell's value, one byte as Phoenix's: HBase's check-and-mutate takes an empty
   * value for a missing one, so INSERT's "not exists" needs it non-empty. Rows written before
   * carry an empty marker; a marker of any value means the row exists.
   */
  public static final byte[] MARKER_VALUE = {'x'};
  /**
   * The qualifier of a row's version cell (in the marker family), which the client-side index
   * protocol over HBase (sql.index.ClientIndexProtocol) checks and replaces on every write of a
   * row of an indexed table: 8 bytes, a count. Not a column; a MAP column does not show it.
   */
  public static final byte[] VERSION = {'_', 'v', 'e', 'r'};

  private static final byte[] PACKED =
      SqlTableDef.PACKED_QUALIFIER.getBytes(StandardCharsets.UTF_8);

  private final byte[][] families;
  private final byte[][] qualifiers;
  private final int[] slots;
  private final byte[] markerFamily;
  private final List<PackedFamily> packedFamilies;
  /** Per MAP column, the qualifiers of its family that are not its (declared columns'). */
  private final java.util.Map<Integer, java.util.Set<String>> mapExclusions =
      new java.util.HashMap<>();

  /** A packed table's family: its name and its columns (table column indexes) by slot. */
  public record PackedFamily(byte[] family, int[] columns) {}

  private CellNames(SqlTableDef def) {
    List<SqlColumn> cols = def.columns();
    families = new byte[cols.size()][];
    qualifiers = new byte[cols.size()][];
    slots = new int[cols.size()];
    java.util.Map<String, List<Integer>> byFamily = new java.util.LinkedHashMap<>();
    for (int i = 0; i < cols.size(); i++) {
      SqlColumn c = cols.get(i);
      slots[i] = def.slot(i);
      if (!c.isKey()) {
        families[i] = c.family().getBytes(StandardCharsets.UTF_8);
        qualifiers[i] = def.packed() ? PACKED : c.name().getBytes(StandardCharsets.UTF_8);
        byFamily.computeIfAbsent(c.family(), f -> new java.util.ArrayList<>()).add(i);
      }
    }
    List<PackedFamily> packed = new java.util.ArrayList<>();
    if (def.packed()) {
      byFamily.forEach((f, columns) -> packed.add(new PackedFamily(
          f.getBytes(StandardCharsets.UTF_8),
          columns.stream().mapToInt(Integer::intValue).toArray())));
    }
    packedFamilies = List.copyOf(packed);
    markerFamily = def.markerFamily().getBytes(StandardCharsets.UTF_8);
    for (int i = 0; i < cols.size(); i++) {
      if (cols.get(i).isMap()) {
        java.util.Set<String> declared = new java.util.HashSet<>();
        for (int j : byFamily.get(cols.get(i).family())) {
          if (j != i) {
            declared.add(cols.get(j).name());
          }
        }
        if (cols.get(i).family().equals(def.markerFamily())) {
          declared.add(new String(MARKER, StandardCharsets.UTF_8));
          declared.add(new String(VERSION, StandardCharsets.UTF_8));
        }
        mapExclusions.put(i, java.util.Set.copyOf(declared));
      }
    }
  }

  /**
   * MAP column {@code i}'s value in {@code row}: each cell of its family that is no declared
   * column's (nor the marker), qualifier as text to value; null when there is none.
   */
  public java.util.Map<String, org.apache.calcite.avatica.util.ByteString> mapValue(int i,
      io.basaltdb.storage.Result row) {
    java.util.Map<String, org.apache.calcite.avatica.util.ByteString> out = null;
    java.util.Set<String> declared = mapExclusions.get(i);
    for (io.basaltdb.storage.Cell c : row.cells()) {
      if (!java.util.Arrays.equals(c.family(), families[i])) {
        continue;
      }
      String q = new String(c.qualifier(), StandardCharsets.UTF_8);
      if (!declared.contains(q)) {
        out = out == null ? new java.util.TreeMap<>() : out;
        out.putIfAbsent(q, new org.apache.calcite.avatica.util.ByteString(c.value()));
      }
    }
    return out;
  }

  /** Whether {@code key} may be a key of MAP column {@code i} (not a declared qualifier). */
  public boolean mapKeyAllowed(int i, String key) {
    return !key.isEmpty() && !mapExclusions.get(i).contains(key);
  }

  /** Column {@code i}'s slot in its family's cell (packed tables), else -1. */
  public int slot(int i) {
    return slots[i];
  }

  /** A packed table's families, with their columns by slot; empty for other tables. */
  public List<PackedFamily> packedFamilies() {
    return packedFamilies;
  }

  /** Column {@code i}'s stored value from its cell's value (null: the cell is missing). */
  public byte[] value(int i, byte[] cell) {
    return cell == null || slots[i] < 0 ? cell
        : io.basaltdb.sql.type.CellArray.get(cell, slots[i]);
  }

  /** By definition object. */
  private static final PerDefinition<CellNames> BY_DEFINITION =
      new PerDefinition<>(CellNames::new);

  /** The cell names of {@code def}'s columns, made once per definition object. */
  public static CellNames of(SqlTableDef def) {
    return BY_DEFINITION.of(def);
  }

  /** The family of column {@code i}'s cells, or null for a key column. */
  public byte[] family(int i) {
    return families[i];
  }

  /** The qualifier of column {@code i}'s cells, or null for a key column. */
  public byte[] qualifier(int i) {
    return qualifiers[i];
  }

  /** The family of the row's marker cell. */
  public byte[] markerFamily() {
    return markerFamily;
  }
}
