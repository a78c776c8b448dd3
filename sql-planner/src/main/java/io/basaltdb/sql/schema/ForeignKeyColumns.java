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
  /** One column pair of key {@code key}, at 1-based {@code position} in it. */
  public record Column(String parentSchema, String parentTable, String parentColumn,
      String childSchema, String childTable, String childColumn, int position,
      ForeignKey key) {}

  private ForeignKeyColumns() {}

  /**
   * The pairs of the keys from child tables {@code childSchema.childTable} to parents
   * {@code parentSchema.parentTable} (null: any), ordered by child, key name and position.
   */
  public static List<Column> of(Storage db, String childSchema, String childTable,
      String parentSchema, String parentTable) {
    SqlCatalog catalog = new SqlCatalog(db);
    List<Column> out = new ArrayList<>();
    for (String ns : db.admin().listNamespaces()) {
      String schema = BasaltSchema.schemaName(ns);
      if (ns.equals(SqlCatalog.SYSTEM_NAMESPACE)
          || (childSchema != null && !childSchema.equals(schema))) {
        continue;
      }
      for (SqlTableDef def : catalog.list(ns)) {
        if (childTable != null && !childTable.equals(def.table().name())) {
          continue;
        }
        for (ForeignKey fk : def.foreignKeys()) {
          String ps = BasaltSchema.schemaName(fk.parent().namespace());
          if ((parentSchema != null && !parentSchema.equals(ps))
              || (parentTable != null && !parentTable.equals(fk.parent().name()))) {
            continue;
          }
          for (int i = 0; i < fk.columns().size(); i++) {
            out.add(new Column(ps, fk.parent().name(), fk.parentColumns().get(i), schema,
                def.table().name(), fk.columns().get(i), i + 1, fk));
          }
        }
      }
    }
    out.sort(Comparator.comparing(Column::childSchema).thenComparing(Column::childTable)
        .thenComparing(c -> c.key().name()).thenComparingInt(Column::position));
    return out;
  }
}
