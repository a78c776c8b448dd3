package io.basaltdb.sql.catalog;

import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The cell address (family and qualifier, as bytes) of each column of a table, computed once
 * per statement execution rather than per row; null for key columns, which live in the row key.
 * Immutable.
 */
public final class CellNames {
  private final byte[][] families;
  private final byte[][] qualifiers;
  private final byte[] markerFamily;

  private CellNames(SqlTableDef def) {
    List<SqlColumn> cols = def.columns();
    families = new byte[cols.size()][];
    qualifiers = new byte[cols.size()][];
    for (int i = 0; i < cols.size(); i++) {
      SqlColumn c = cols.get(i);
      if (!c.isKey()) {
        families[i] = c.family().getBytes(StandardCharsets.UTF_8);
        qualifiers[i] = c.name().getBytes(StandardCharsets.UTF_8);
      }
    }
    markerFamily = def.markerFamily().getBytes(StandardCharsets.UTF_8);
  }

  public static CellNames of(SqlTableDef def) {
    return new CellNames(def);
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
