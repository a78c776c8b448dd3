package io.basaltdb.sql.schema;

import io.basaltdb.sql.catalog.ForeignKey;
import io.basaltdb.sql.catalog.SqlCatalog;
import io.basaltdb.sql.catalog.SqlTableDef;
import io.basaltdb.storage.Storage;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The columns of every foreign key, paired with the parent key columns they reference, with SQL
 * schema names: what {@code INFORMATION_SCHEMA.KEY_COLUMN_USAGE} and
 * {@code REFERENTIAL_CONSTRAINTS} show and JDBC's {@code getImportedKeys},
 * {@code getExportedKeys} and {@code getCrossReference} answer. Stateless.
 */
public final class ForeignKeyColumns {
  /**
   * One column pair of key {@code key}, at 1-based {@code position} in it; the parent column's
   * 1-based position in its table's primary key, or null when the parent is gone.
   */
  public record Column(String parentSchema, String parentTable, String parentColumn,
      String childSchema, String childTable, String childColumn, int position,
      ForeignKey key, Integer parentKeyPosition) {}

  private ForeignKeyColumns() {}

  /**
   * The pairs of the keys from child tables {@code childSchema.childTable} to parents
   * {@code parentSchema.parentTable} (null: any), ordered by child, key name and position.
   */
  public static List<Column> of(Storage db, String childSchema, String childTable,
      String parentSchema, String parentTable) {
    SqlCatalog catalog = new SqlCatalog(db);
    java.util.Map<io.basaltdb.storage.TableName, SqlTableDef> defs = new java.util.HashMap<>();
    for (String ns : db.admin().listNamespaces()) {
      if (!ns.equals(SqlCatalog.SYSTEM_NAMESPACE)) {
        catalog.list(ns).forEach(d -> defs.put(d.table(), d));
      }
    }
    List<Column> out = new ArrayList<>();
    for (SqlTableDef def : defs.values()) {
      String schema = BasaltSchema.schemaName(def.table().namespace());
      if (childSchema != null && !childSchema.equals(schema)) {
        continue;
      }
      if (childTable != null && !childTable.equals(def.table().name())) {
        continue;
      }
      for (ForeignKey fk : def.foreignKeys()) {
        String ps = BasaltSchema.schemaName(fk.parent().namespace());
        if ((parentSchema != null && !parentSchema.equals(ps))
            || (parentTable != null && !parentTable.equals(fk.parent().name()))) {
          continue;
        }
        SqlTableDef parent = defs.get(fk.parent());
        for (int i = 0; i < fk.columns().size(); i++) {
          int at = parent == null ? -1 : parent.visibleIndexOf(fk.parentColumns().get(i));
          out.add(new Column(ps, fk.parent().name(), fk.parentColumns().get(i), schema,
              def.table().name(), fk.columns().get(i), i + 1, fk,
              at < 0 ? null : parent.columns().get(at).keyPosition() + 1));
        }
      }
    }
    out.sort(Comparator.comparing(Column::childSchema).thenComparing(Column::childTable)
        .thenComparing(c -> c.key().name()).thenComparingInt(Column::position));
    return out;
  }
}
