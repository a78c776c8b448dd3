package io.basaltdb.sql.catalog;

import io.basaltdb.sql.type.ArrayCells;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;

import io.basaltdb.sql.type.ColumnType;

/**
 * A column of a SQL table: name, type (with precision and scale, -1 when not given),
 * nullability, and where it lives: its position in the primary key (0-based; -1 for a cell
 * column) with its direction, or the family of its cell (the qualifier is the column name). An
 * ARRAY column's {@code element} is the type of its elements (precision and scale are theirs);
 * null for other columns. Values go to and from cells through the column
 * ({@link #toCell}, {@link #fromCell}), which knows an array's element type.
 */
public record SqlColumn(String name, ColumnType type, int precision, int scale, boolean nullable,
    int keyPosition, boolean descending, String family, ColumnType element) {
  public SqlColumn(String name, ColumnType type, int precision, int scale, boolean nullable,
      int keyPosition, boolean descending, String family) {
    this(name, type, precision, scale, nullable, keyPosition, descending, family, null);
  }

  public boolean isKey() {
    return keyPosition >= 0;
  }

  public boolean isArray() {
    return type == ColumnType.ARRAY;
  }

  /** Whether this is a hybrid family's MAP of its other cells (not one cell). */
  public boolean isMap() {
    return type == ColumnType.MAP;
  }

  /** A value's bytes in a cell. */
  public byte[] toCell(Object v) {
    return isArray() ? ArrayCells.encode(element, v) : type.toCell(v);
  }

  /** A cell's bytes back as a value (Calcite's internal form; a List for an array). */
  public Object fromCell(byte[] b) {
    return isArray() ? ArrayCells.decode(element, b) : type.fromCell(b);
  }

  /** A bound parameter's value in the internal form ({@link ColumnType#coerce}). */
  public Object coerce(Object v) {
    return isArray() ? ArrayCells.coerce(element, v) : type.coerce(v);
  }

  /** The column's SQL type in a table's row: a key column is never nullable. */
  public RelDataType sqlType(RelDataTypeFactory f) {
    return isKey() ? type.relType(f, precision, scale, false) : relType(f);
  }

  /** The column's Calcite type. */
  public RelDataType relType(RelDataTypeFactory f) {
    if (isMap()) {
      return f.createTypeWithNullability(f.createMapType(
          f.createSqlType(org.apache.calcite.sql.type.SqlTypeName.VARCHAR),
          f.createSqlType(org.apache.calcite.sql.type.SqlTypeName.VARBINARY)), true);
    }
    if (isArray()) {
      return f.createTypeWithNullability(f.createArrayType(
          element.relType(f, precision, scale, true), -1), nullable);
    }
    return type.relType(f, precision, scale, nullable);
  }
}
