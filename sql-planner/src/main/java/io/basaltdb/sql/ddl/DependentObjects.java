package io.basaltdb.sql.ddl;

import io.basaltdb.sql.SqlStateException;
import io.basaltdb.sql.SqlStates;
import io.basaltdb.sql.catalog.SqlCatalog;
import io.basaltdb.storage.Storage;
import io.basaltdb.storage.TableName;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.parser.SqlParseException;
import org.apache.calcite.sql.parser.SqlParser;
import org.apache.calcite.sql.util.SqlBasicVisitor;

/**
 * What depends on a table: the views whose query names it (found by parsing each view's stored
 * text; a name without a schema is in the view's own schema). Used by {@code DROP TABLE ...
 * CASCADE | RESTRICT} and {@code DROP SCHEMA ... CASCADE}. Stateless.
 */
final class DependentObjects {
  private DependentObjects() {}

  /** The views, in any schema, whose query names a table {@code read} accepts. */
  static List<TableName> viewsReading(Storage db, java.util.function.Predicate<TableName> read) {
    SqlCatalog catalog = new SqlCatalog(db);
    List<TableName> out = new ArrayList<>();
    for (String ns : db.admin().listNamespaces()) {
      for (Map.Entry<String, String> v : catalog.views(ns).entrySet()) {
        if (names(v.getValue(), ns, read)) {
          out.add(new TableName(ns, v.getKey()));
        }
      }
    }
    return out;
  }

  /** Refuses (2BP01) when a view reads {@code table}. */
  static void refuseIfRead(Storage db, TableName table, String what) {
    List<TableName> views = viewsReading(db, table::equals);
    if (!views.isEmpty()) {
      throw new SqlStateException(SqlStates.DEPENDENT_OBJECTS_STILL_EXIST, "cannot drop " + what
          + ": view " + views.get(0).name() + " reads it (DROP ... CASCADE drops the views too)");
    }
  }

  private static boolean names(String viewSql, String viewNamespace,
      java.util.function.Predicate<TableName> read) {
    SqlNode root;
    try {
      root = SqlParser.create(viewSql, SqlParser.config()
          .withParserFactory(io.basaltdb.sql.parser.impl.LimitedParser.FACTORY)).parseQuery();
    } catch (SqlParseException | RuntimeException e) {
      return false; // a view that no longer parses reads nothing
    }
    boolean[] found = {false};
    root.accept(new SqlBasicVisitor<Void>() {
      @Override
      public Void visit(SqlIdentifier id) {
        int n = id.names.size();
        TableName t = n == 1 ? new TableName(viewNamespace, id.names.get(0))
            : BasaltDdlExecutor.tableName(new SqlIdentifier(id.names.subList(n - 2, n),
                id.getParserPosition()));
        found[0] |= read.test(t);
        return null;
      }
    });
    return found[0];
  }
}
