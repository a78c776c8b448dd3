package io.basaltdb.sql.jdbc;

import io.basaltdb.sql.schema.InformationSchema;
import io.basaltdb.storage.Storage;
import java.sql.DatabaseMetaData;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.avatica.ColumnMetaData;
import org.apache.calcite.avatica.MetaImpl;

/**
 * The rows of JDBC's {@code getPrimaryKeys} and {@code getIndexInfo}, with JDBC's columns:
 * a table's key columns in key order (a hidden row key is not listed), and its indexes (the
 * primary key, named PK and unique, and the secondary indexes' indexed columns; INCLUDE
 * columns are not index columns). {@code schema} and {@code table} are names, not patterns;
 * null matches all. As {@link ForeignKeyRows} for the foreign keys. Stateless.
 */
final class KeyRows {
  static final List<ColumnMetaData> PRIMARY_KEY_COLUMNS = List.of(
      MetaImpl.columnMetaData("TABLE_CAT", 0, String.class, true),
      MetaImpl.columnMetaData("TABLE_SCHEM", 1, String.class, true),
      MetaImpl.columnMetaData("TABLE_NAME", 2, String.class, false),
      MetaImpl.columnMetaData("COLUMN_NAME", 3, String.class, false),
      MetaImpl.columnMetaData("KEY_SEQ", 4, short.class, false),
      MetaImpl.columnMetaData("PK_NAME", 5, String.class, true));

  static final List<ColumnMetaData> INDEX_COLUMNS = List.of(
      MetaImpl.columnMetaData("TABLE_CAT", 0, String.class, true),
      MetaImpl.columnMetaData("TABLE_SCHEM", 1, String.class, true),
      MetaImpl.columnMetaData("TABLE_NAME", 2, String.class, false),
      MetaImpl.columnMetaData("NON_UNIQUE", 3, boolean.class, false),
      MetaImpl.columnMetaData("INDEX_QUALIFIER", 4, String.class, true),
      MetaImpl.columnMetaData("INDEX_NAME", 5, String.class, true),
      MetaImpl.columnMetaData("TYPE", 6, short.class, false),
      MetaImpl.columnMetaData("ORDINAL_POSITION", 7, short.class, false),
      MetaImpl.columnMetaData("COLUMN_NAME", 8, String.class, true),
      MetaImpl.columnMetaData("ASC_OR_DESC", 9, String.class, true),
      MetaImpl.columnMetaData("CARDINALITY", 10, Long.class, true),
      MetaImpl.columnMetaData("PAGES", 11, Long.class, true),
      MetaImpl.columnMetaData("FILTER_CONDITION", 12, String.class, true));

  private KeyRows() {}

  static List<Object> primaryKeys(Storage db, String schema, String table) {
    List<Object> rows = new ArrayList<>();
    for (InformationSchema.KeyColumn k : InformationSchema.keyColumns(db, schema, table)) {
      rows.add(new Object[] {null, k.schema(), k.table(), k.column(), (short) k.position(),
          InformationSchema.PRIMARY_KEY_NAME});
    }
    return rows;
  }

  /** {@code unique}: only the unique indexes. */
  static List<Object> indexes(Storage db, String schema, String table, boolean unique) {
    List<Object> rows = new ArrayList<>();
    for (InformationSchema.KeyColumn k : InformationSchema.keyColumns(db, schema, table)) {
      rows.add(new Object[] {null, k.schema(), k.table(), false, null,
          InformationSchema.PRIMARY_KEY_NAME, (short) DatabaseMetaData.tableIndexOther,
          (short) k.position(), k.column(), k.descending() ? "D" : "A", null, null, null});
    }
    for (InformationSchema.IndexColumn k : InformationSchema.indexColumns(db, schema, table)) {
      if (unique && !k.unique()) {
        continue;
      }
      rows.add(new Object[] {null, k.schema(), k.table(), !k.unique(), null, k.index(),
          (short) DatabaseMetaData.tableIndexOther, (short) k.position(), k.column(),
          k.descending() ? "D" : "A", null, null, null});
    }
    return rows;
  }
}
