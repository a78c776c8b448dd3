package io.basaltdb.sql.catalog;

import io.basaltdb.sql.type.ColumnType;

/**
 * A column of a SQL table: name, type (with precision and scale, -1 when not given),
 * nullability, and where it lives: its position in the primary key (0-based; -1 for a cell
 * column) with its direction, or the family of its cell (the qualifier is the column name).
 */
public record SqlColumn(String name, ColumnType type, int precision, int scale, boolean nullable,
    int keyPosition, boolean descending, String family) {
  public boolean isKey() {
    return keyPosition >= 0;
  }
}
