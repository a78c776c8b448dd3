package io.basaltdb.sql.type;

/**
 * The SQL types a primary-key column can have, with the Java form of their values (Calcite's
 * internal representation). Encodings: {@code sql-planner/doc/row-key-encoding.md}.
 */
public enum KeyType {
  BOOLEAN(1), TINYINT(1), SMALLINT(2), INTEGER(4), BIGINT(8), DATE(4), TIME(4), TIMESTAMP(8),
  REAL(4), DOUBLE(8), DECIMAL(-1), VARCHAR(-1), VARBINARY(-1), UUID(16);

  private final int width;

  KeyType(int width) {
    this.width = width;
  }

  /** Bytes of a value, or -1 for variable-width types. */
  public int width() {
    return width;
  }
}
