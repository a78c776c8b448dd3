package io.basaltdb.sql.ddl;

import io.basaltdb.sql.SqlStateException;
import io.basaltdb.sql.SqlStates;
import io.basaltdb.sql.catalog.SqlCatalog;
import io.basaltdb.sql.catalog.SqlColumn;
import io.basaltdb.sql.catalog.SqlTableDef;
import io.basaltdb.sql.parser.SqlAlterBasaltTable;
import io.basaltdb.storage.InvalidArgumentException;
import io.basaltdb.storage.Storage;
import io.basaltdb.storage.TableName;
import io.basaltdb.storage.TableNotFoundException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What DDL tools change about a column in place ({@code ALTER TABLE ... ALTER COLUMN}) and the
 * comments they leave ({@code COMMENT ON}). A change that would need every row rewritten (a
 * type whose cells or keys are encoded differently) is refused with 0A000, never half done; a
 * change existing rows do not satisfy (SET NOT NULL over a NULL) is refused with the state the
 * rows would meet (23502), changing nothing. Stateless.
 */
final class ColumnChanges {
  private ColumnChanges() {}

  /** {@code ALTER TABLE t ALTER [COLUMN] c ...}. */
  static void alter(Storage db, SqlAlterBasaltTable.AlterColumn alter) {
    SqlCatalog catalog = new SqlCatalog(db);
    SqlTableDef def = BasaltDdlExecutor.alteredTable(catalog, alter.name, alter.ifExists);
    if (def == null) {
      return;
    }
    String col = alter.column.getSimple();
    int i = def.visibleIndexOf(col);
    if (i < 0) {
      throw new SqlStateException(SqlStates.UNDEFINED_COLUMN, "table " + alter.name
          + " has no column " + col);
    }
    SqlColumn c = def.columns().get(i);
    Map<String, String> defaults = new LinkedHashMap<>(def.defaults());
    List<SqlColumn> cols = new ArrayList<>(def.columns());
    switch (alter.action) {
      case SET_DEFAULT -> defaults.put(col,
          io.basaltdb.sql.constraint.ColumnDefaults.text(c, alter.defaultValue));
      case DROP_DEFAULT -> defaults.remove(col);
      case SET_NOT_NULL -> {
        for (Object[] row : new io.basaltdb.sql.exec.TableRuns(db, def).all(-1)) {
          if (row[i] == null) {
            throw new SqlStateException(SqlStates.NOT_NULL_VIOLATION, "column " + col + " of "
                + alter.name + " holds NULLs: it cannot be made NOT NULL");
          }
        }
        cols.set(i, nullable(c, false));
      }
      case DROP_NOT_NULL -> {
        if (c.isKey()) {
          throw new InvalidArgumentException("primary key column " + col + " of " + alter.name
              + " cannot hold NULL");
        }
        cols.set(i, nullable(c, true));
      }
      case TYPE -> cols.set(i, retyped(c, alter));
    }
    catalog.put(def.withColumns(cols).withDefaults(defaults));
  }

  private static SqlColumn nullable(SqlColumn c, boolean nullable) {
    return new SqlColumn(c.name(), c.type(), c.precision(), c.scale(), nullable,
        c.keyPosition(), c.descending(), c.family(), c.element());
  }

  /**
   * The column with its new declared type, when its values keep their encoding and every
   * value fits: the same type with a length or precision not smaller (none: unbounded), a
   * DECIMAL of the same scale; else 0A000.
   */
  private static SqlColumn retyped(SqlColumn c, SqlAlterBasaltTable.AlterColumn alter) {
    SqlColumn to = DeclaredColumns.column(c.name(), alter.type, c.nullable(), c.keyPosition(),
        c.descending(), c.family());
    boolean same = to.type() == c.type() && to.element() == c.element();
    boolean wider = to.precision() < 0 || c.precision() >= 0 && to.precision() >= c.precision();
    boolean fits = switch (c.type()) {
      case CHAR, VARCHAR, BINARY, VARBINARY -> same && wider;
      case DECIMAL -> same && wider && to.scale() == c.scale();
      default -> same && to.precision() == c.precision() && to.scale() == c.scale();
    };
    if (!fits) {
      throw new SqlStateException(SqlStates.FEATURE_NOT_SUPPORTED, "column " + c.name() + " of "
          + alter.name + " cannot change from " + text(c) + " to " + text(to) + " in place: "
          + "only a longer length or precision of the same type keeps every stored value (add "
          + "a column of the new type, copy, drop the old one)");
    }
    return to;
  }

  private static String text(SqlColumn c) {
    return c.type().sqlName() + (c.precision() < 0 ? ""
        : "(" + c.precision() + (c.scale() > 0 ? ", " + c.scale() : "") + ")");
  }

  /** {@code COMMENT ON TABLE t | COLUMN t.c IS ...}. */
  static void comment(Storage db, SqlAlterBasaltTable.Comment comment) {
    List<String> names = comment.name.names;
    String column = comment.column ? names.get(names.size() - 1) : null;
    org.apache.calcite.sql.SqlIdentifier table = comment.column
        ? comment.name.getComponent(0, names.size() - 1) : comment.name;
    if (comment.column && names.size() < 2) {
      throw new InvalidArgumentException("COMMENT ON COLUMN " + comment.name
          + ": name the column as table.column");
    }
    TableName t = BasaltDdlExecutor.tableName(table);
    SqlCatalog catalog = new SqlCatalog(db);
    SqlTableDef def = catalog.get(t);
    if (def == null) {
      throw new TableNotFoundException("table " + table + " does not exist");
    }
    if (column != null && def.visibleIndexOf(column) < 0) {
      throw new SqlStateException(SqlStates.UNDEFINED_COLUMN, "table " + table
          + " has no column " + column);
    }
    catalog.putComment(t, column, comment.text);
  }
}
