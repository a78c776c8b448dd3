package io.basaltdb.sql.type;

import io.basaltdb.storage.InvalidArgumentException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/**
 * The cell of an ARRAY column: a {@link CellArray} of its elements' cells
 * ({@link ColumnType#toCell} of the element type), NULL elements as NULL slots; at most 65,535
 * elements (the cell array's slot count). A value is a {@code List} of elements in Calcite's
 * internal form, as Calcite's generated code holds arrays. Stateless.
 */
public final class ArrayCells {
  /** The most elements an array value holds. */
  public static final int MAX_ELEMENTS = 0xffff;

  private ArrayCells() {}

  public static byte[] encode(ColumnType element, Object value) {
    List<?> list = list(value);
    if (list.size() > MAX_ELEMENTS) {
      throw new InvalidArgumentException("an ARRAY holds at most " + MAX_ELEMENTS
          + " elements, not " + list.size());
    }
    byte[][] cells = new byte[list.size()][];
    for (int i = 0; i < cells.length; i++) {
      Object e = list.get(i);
      cells[i] = e == null ? null : element.toCell(e);
    }
    return CellArray.encode(cells);
  }

  public static List<Object> decode(ColumnType element, byte[] cell) {
    int n = CellArray.slots(cell);
    Object[] out = new Object[n];
    for (int i = 0; i < n; i++) {
      byte[] e = CellArray.get(cell, i);
      out[i] = e == null ? null : element.fromCell(e);
    }
    return Collections.unmodifiableList(Arrays.asList(out));
  }

  /** A bound parameter (a {@code java.sql.Array}, an array or a List) as a value; null stays. */
  public static List<Object> coerce(ColumnType element, Object v) {
    if (v == null) {
      return null;
    }
    List<?> in = list(v);
    List<Object> out = new ArrayList<>(in.size());
    for (Object e : in) {
      out.add(element.coerce(e));
    }
    return out;
  }

  private static List<?> list(Object v) {
    if (v instanceof List<?> l) {
      return l;
    }
    if (v instanceof Object[] a) {
      return Arrays.asList(a);
    }
    if (v instanceof java.sql.Array a) {
      try {
        return list(a.getArray());
      } catch (java.sql.SQLException e) {
        throw new InvalidArgumentException("cannot read the ARRAY value: " + e.getMessage());
      }
    }
    if (v != null && v.getClass().isArray()) { // int[], long[], ...
      int n = java.lang.reflect.Array.getLength(v);
      List<Object> out = new ArrayList<>(n);
      for (int i = 0; i < n; i++) {
        out.add(java.lang.reflect.Array.get(v, i));
      }
      return out;
    }
    throw new InvalidArgumentException("not an ARRAY value: " + v);
  }
}
