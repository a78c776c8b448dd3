package io.basaltdb.sql.jdbc;

import io.basaltdb.sql.schema.ForeignKeyColumns;
import io.basaltdb.sql.schema.InformationSchema;
import io.basaltdb.storage.Storage;
import java.sql.DatabaseMetaData;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.apache.calcite.avatica.ColumnMetaData;
import org.apache.calcite.avatica.MetaImpl;

/**
 * The rows of JDBC's {@code getImportedKeys}, {@code getExportedKeys} and
 * {@code getCrossReference}: one per column of each foreign key, with JDBC's columns and
 * orders ({@link ForeignKeyColumns}). Stateless.
 */
final class ForeignKeyRows {
  static final List<ColumnMetaData> COLUMNS = List.of(
      MetaImpl.columnMetaData("PKTABLE_CAT", 0, String.class, true),
      MetaImpl.columnMetaData("PKTABLE_SCHEM", 1, String.class, true),
      MetaImpl.columnMetaData("PKTABLE_NAME", 2, String.class, false),
      MetaImpl.columnMetaData("PKCOLUMN_NAME", 3, String.class, false),
      MetaImpl.columnMetaData("FKTABLE_CAT", 4, String.class, true),
      MetaImpl.columnMetaData("FKTABLE_SCHEM", 5, String.class, true),
      MetaImpl.columnMetaData("FKTABLE_NAME", 6, String.class, false),
      MetaImpl.columnMetaData("FKCOLUMN_NAME", 7, String.class, false),
      MetaImpl.columnMetaData("KEY_SEQ", 8, short.class, false),
      MetaImpl.columnMetaData("UPDATE_RULE", 9, short.class, false),
      MetaImpl.columnMetaData("DELETE_RULE", 10, short.class, false),
      MetaImpl.columnMetaData("FK_NAME", 11, String.class, true),
      MetaImpl.columnMetaData("PK_NAME", 12, String.class, true),
      MetaImpl.columnMetaData("DEFERRABILITY", 13, short.class, false));

  private ForeignKeyRows() {}

  /**
   * The rows of the keys from {@code childSchema.childTable} to {@code parentSchema.parentTable}
   * (null: any), ordered by parent table ({@code byParent}: getImportedKeys) or by child table.
   */
  static List<Object> of(Storage db, String childSchema, String childTable,
      String parentSchema, String parentTable, boolean byParent) {
    List<ForeignKeyColumns.Column> cols = new ArrayList<>(ForeignKeyColumns.of(db, childSchema,
        childTable, parentSchema, parentTable));
    cols.sort(byParent
        ? Comparator.comparing(ForeignKeyColumns.Column::parentSchema)
            .thenComparing(ForeignKeyColumns.Column::parentTable)
            .thenComparing(c -> c.key().name())
            .thenComparingInt(ForeignKeyColumns.Column::position)
        : Comparator.comparing(ForeignKeyColumns.Column::childSchema)
            .thenComparing(ForeignKeyColumns.Column::childTable)
            .thenComparing(c -> c.key().name())
            .thenComparingInt(ForeignKeyColumns.Column::position));
    List<Object> rows = new ArrayList<>();
    for (ForeignKeyColumns.Column c : cols) {
      rows.add(new Object[] {null, c.parentSchema(), c.parentTable(), c.parentColumn(), null,
          c.childSchema(), c.childTable(), c.childColumn(), (short) c.position(),
          (short) c.key().onUpdate().jdbcRule(), (short) c.key().onDelete().jdbcRule(),
          c.key().name(), InformationSchema.PRIMARY_KEY_NAME,
          (short) DatabaseMetaData.importedKeyNotDeferrable});
    }
    return rows;
  }
}
