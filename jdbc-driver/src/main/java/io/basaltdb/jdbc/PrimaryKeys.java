package io.basaltdb.jdbc;

import io.basaltdb.engine.Database;
import io.basaltdb.engine.TableName;
import io.basaltdb.sql.BasaltSchema;
import io.basaltdb.sql.catalog.SqlCatalog;
import io.basaltdb.sql.catalog.SqlColumn;
import io.basaltdb.sql.catalog.SqlTableDef;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code DatabaseMetaData.getPrimaryKeys} from the SQL catalog (Calcite's metadata has no
 * keys): the key columns of the matching tables, in key order, as a result set with JDBC's
 * columns (TABLE_CAT, TABLE_SCHEM, TABLE_NAME, COLUMN_NAME, KEY_SEQ, PK_NAME), produced by a
 * VALUES query on the same connection. A hidden row key is not listed.
 */
final class PrimaryKeys {
  private PrimaryKeys() {}

  static ResultSet of(Connection c, Database db, String schema, String table)
      throws SQLException {
    SqlCatalog catalog = new SqlCatalog(db);
    List<String> rows = new ArrayList<>();
    for (String ns : db.admin().listNamespaces()) {
      String schemaName = BasaltSchema.schemaName(ns);
      if (ns.equals(SqlCatalog.SYSTEM_NAMESPACE)
          || (schema != null && !schema.equals(schemaName))) {
        continue;
      }
      for (SqlTableDef def : catalog.list(ns)) {
        TableName t = def.table();
        if ((table != null && !t.name().equals(table)) || def.hasHiddenKey()) {
          continue;
        }
        List<SqlColumn> keys = def.keyColumns();
        for (int i = 0; i < keys.size(); i++) {
          rows.add("(CAST(NULL AS VARCHAR), " + literal(schemaName) + ", " + literal(t.name())
              + ", " + literal(keys.get(i).name()) + ", " + (i + 1) + ", 'PK')");
        }
      }
    }
    String columns = "TABLE_CAT, TABLE_SCHEM, TABLE_NAME, COLUMN_NAME, KEY_SEQ, PK_NAME";
    String sql = rows.isEmpty()
        ? "SELECT * FROM (VALUES (CAST(NULL AS VARCHAR), CAST(NULL AS VARCHAR), "
            + "CAST(NULL AS VARCHAR), CAST(NULL AS VARCHAR), 0, CAST(NULL AS VARCHAR))) AS k ("
            + columns + ") WHERE 1 = 0"
        : "SELECT * FROM (VALUES " + String.join(", ", rows) + ") AS k (" + columns
            + ") ORDER BY TABLE_SCHEM, TABLE_NAME, KEY_SEQ";
    return c.createStatement().executeQuery(sql);
  }

  private static String literal(String s) {
    return "'" + s.replace("'", "''") + "'";
  }
}
