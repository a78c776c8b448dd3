package io.basaltdb.sql.exec.context;

import io.basaltdb.sql.SqlStateException;
import io.basaltdb.sql.SqlStates;
import io.basaltdb.sql.catalog.SqlColumn;
import io.basaltdb.sql.catalog.SqlTableDef;
import java.util.ArrayList;
import java.util.List;

/**
 * What JDBC's {@code getGeneratedKeys} returns for a statement that asked for it
 * ({@code prepareStatement(sql, RETURN_GENERATED_KEYS | columnIndexes | columnNames)}, and the
 * same forms of {@code Statement.execute/executeUpdate}): per row an INSERT or UPSERT wrote,
 * the values of the columns asked for, as written (an identity's drawn value, a default, a
 * bound value). {@code RETURN_GENERATED_KEYS} asks for the table's identity columns (those
 * whose default draws from a sequence), or its primary key when it has none. Owned by the
 * statement; refilled at each execution; reached by the writer through the execution's data
 * context ({@link #VARIABLE}).
 */
public final class GeneratedKeys {
  /** The data context variable holding the statement's collector, when it asked for keys. */
  public static final String VARIABLE = "basalt.generatedKeys";

  private final String[] names; // asked by name, or null
  private final int[] indexes; // asked by 1-based column index, or null
  private List<SqlColumn> columns; // resolved at the first row
  private int[] positions;
  private final List<Object[]> rows = new ArrayList<>();

  private GeneratedKeys(String[] names, int[] indexes) {
    this.names = names;
    this.indexes = indexes;
  }

  /** The identity columns, or else the primary key. */
  public static GeneratedKeys generated() {
    return new GeneratedKeys(null, null);
  }

  /** The columns of these names; null (no keys) for a null array, as JDBC drivers take it. */
  public static GeneratedKeys named(String[] names) {
    return names == null ? null : new GeneratedKeys(names.clone(), null);
  }

  /** The columns at these 1-based indexes; null (no keys) for a null array. */
  public static GeneratedKeys indexed(int[] indexes) {
    return indexes == null ? null : new GeneratedKeys(null, indexes.clone());
  }

  /** Forgets the rows of the previous execution. */
  public void clear() {
    rows.clear();
    columns = null;
    positions = null;
  }

  /**
   * Finds the asked columns in the table the statement writes, before it writes: a name or
   * index the table lacks is refused (42703) with nothing written.
   */
  public void bind(SqlTableDef def) {
    if (positions == null) {
      resolve(def);
    }
  }

  /** Records the asked columns of a row (a full table row) the statement wrote to {@code def}. */
  public void add(SqlTableDef def, Object[] row) {
    bind(def);
    Object[] values = new Object[positions.length];
    for (int i = 0; i < positions.length; i++) {
      values[i] = row[positions[i]];
    }
    rows.add(values);
  }

  private void resolve(SqlTableDef def) {
    List<Integer> at = new ArrayList<>();
    int visible = def.visibleColumnCount();
    if (names != null) {
      for (String n : names) {
        at.add(position(def, n));
      }
    } else if (indexes != null) {
      for (int i : indexes) {
        if (i < 1 || i > visible) {
          throw new SqlStateException(SqlStates.UNDEFINED_COLUMN, "generated key column index "
              + i + " is not a column of " + def.table() + " (1.." + visible + ")");
        }
        at.add(i - 1);
      }
    } else {
      for (int i = 0; i < visible; i++) {
        if (io.basaltdb.sql.catalog.IdentityColumns.isIdentity(def,
            def.columns().get(i).name())) {
          at.add(i);
        }
      }
      if (at.isEmpty() && !def.hasHiddenKey()) {
        at.addAll(def.keyColumnIndexes());
      }
    }
    List<SqlColumn> cols = new ArrayList<>();
    for (int i : at) {
      cols.add(def.columns().get(i));
    }
    columns = cols;
    positions = at.stream().mapToInt(Integer::intValue).toArray();
  }

  private static int position(SqlTableDef def, String name) {
    int visible = def.visibleColumnCount();
    for (int i = 0; i < visible; i++) {
      if (def.columns().get(i).name().equals(name)) {
        return i;
      }
    }
    for (int i = 0; i < visible; i++) {
      if (def.columns().get(i).name().equalsIgnoreCase(name)) {
        return i;
      }
    }
    throw new SqlStateException(SqlStates.UNDEFINED_COLUMN, "generated key column " + name
        + " is not a column of " + def.table());
  }

  /**
   * The returned columns' labels and value classes: the table's columns once a row was
   * written; before, the names asked for (values of no known class), or none.
   */
  public List<java.util.Map.Entry<String, Class<?>>> labels() {
    List<java.util.Map.Entry<String, Class<?>>> out = new ArrayList<>();
    if (columns != null) {
      for (SqlColumn c : columns) {
        out.add(java.util.Map.entry(c.name(), c.type().valueClass()));
      }
    } else if (names != null) {
      for (String n : names) {
        out.add(java.util.Map.entry(n, Object.class));
      }
    }
    return out;
  }

  /** One array per row written, in write order. */
  public List<Object[]> rows() {
    return List.copyOf(rows);
  }
}
