package io.basaltdb.sql.ddl;

import io.basaltdb.sql.SqlStateException;
import io.basaltdb.sql.SqlStates;
import io.basaltdb.sql.catalog.ForeignKey;
import io.basaltdb.sql.catalog.SqlCatalog;
import io.basaltdb.sql.catalog.SqlColumn;
import io.basaltdb.sql.catalog.SqlIndexDef;
import io.basaltdb.sql.catalog.SqlTableDef;
import io.basaltdb.sql.parser.SqlAlterBasaltTable;
import io.basaltdb.sql.parser.SqlCreateBasaltTable;
import io.basaltdb.storage.InvalidArgumentException;
import io.basaltdb.storage.Storage;
import io.basaltdb.storage.TableName;
import io.basaltdb.storage.TableNotFoundException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.parser.SqlParserPos;

/**
 * FOREIGN KEY constraints as DDL declares them ({@code doc/foreign-keys.md}): checked against
 * both tables (the child's columns, the parent's whole primary key, matching types) and named
 * ({@code CHILD_COL_FKEY} when the constraint has none), in {@code CREATE TABLE} and
 * {@code ALTER TABLE ... ADD | DROP CONSTRAINT} (which also adds and drops UNIQUE constraints,
 * their unique indexes, and CHECK constraints by name). Adding one to a table with rows checks
 * them first. Stateless.
 */
final class ForeignKeyDdl {
  private ForeignKeyDdl() {}

  /** The foreign keys {@code create} declares for {@code child} (the new table), checked. */
  static List<ForeignKey> of(Storage db, SqlTableDef child,
      List<SqlCreateBasaltTable.ForeignKeyDef> defs) {
    Set<String> names = names(child);
    List<ForeignKey> out = new ArrayList<>();
    for (SqlCreateBasaltTable.ForeignKeyDef d : defs) {
      out.add(resolve(db, child, d, names));
    }
    return out;
  }

  private static Set<String> names(SqlTableDef def) {
    Set<String> names = new HashSet<>();
    def.foreignKeys().forEach(fk -> names.add(fk.name()));
    def.checks().forEach(c -> names.add(c.name()));
    return names;
  }

  private static ForeignKey resolve(Storage db, SqlTableDef child,
      SqlCreateBasaltTable.ForeignKeyDef d, Set<String> names) {
    List<String> cols = simple(d.columns());
    String name = d.name() != null ? d.name().getSimple()
        : (child.table().name() + "_" + String.join("_", cols) + "_FKEY")
            .toUpperCase(Locale.ROOT);
    String what = "foreign key " + name + " of " + child.table();
    Set<String> seen = new HashSet<>();
    for (String c : cols) {
      if (child.visibleIndexOf(c) < 0) {
        throw new SqlStateException(SqlStates.UNDEFINED_COLUMN, what + " names column " + c
            + ", which the table does not have");
      }
      if (!seen.add(c)) {
        throw new InvalidArgumentException(what + " names column " + c + " twice");
      }
    }
    TableName parentName = d.parent().names.size() == 1
        ? new TableName(child.table().namespace(), d.parent().getSimple())
        : BasaltDdlExecutor.tableName(d.parent());
    SqlTableDef parent = parentName.equals(child.table()) ? child
        : new SqlCatalog(db).get(parentName);
    if (parent == null) {
      throw new TableNotFoundException("table " + d.parent() + ", referenced by " + what
          + ", does not exist");
    }
    List<String> key = parent.hasHiddenKey() ? List.of()
        : parent.keyColumns().stream().map(SqlColumn::name).toList();
    List<String> parentCols = d.parentColumns().isEmpty() ? key : simple(d.parentColumns());
    List<String> sortedKey = new ArrayList<>(key);
    List<String> sortedCols = new ArrayList<>(parentCols);
    Collections.sort(sortedKey);
    Collections.sort(sortedCols);
    if (key.isEmpty() || !sortedKey.equals(sortedCols)) {
      throw new SqlStateException(SqlStates.INVALID_FOREIGN_KEY, what + " references " + parentCols
          + " of " + parentName + ", which is not its primary key " + key
          + " (a foreign key references the whole primary key of its parent)");
    }
    if (parentCols.size() != cols.size()) {
      throw new SqlStateException(SqlStates.INVALID_FOREIGN_KEY, what + " has " + cols.size()
          + " columns and references " + parentCols.size());
    }
    for (int i = 0; i < cols.size(); i++) {
      SqlColumn c = child.columns().get(child.columnIndex(cols.get(i)));
      SqlColumn p = parent.columns().get(parent.columnIndex(parentCols.get(i)));
      if (!compatible(c, p)) {
        throw new SqlStateException(SqlStates.DATATYPE_MISMATCH, what + ": column " + c.name()
            + " is " + c.type().sqlName() + " and references " + p.name() + " of "
            + parentName + ", which is " + p.type().sqlName());
      }
    }
    ForeignKey.Action onDelete = action(d.onDelete(), what);
    ForeignKey.Action onUpdate = action(d.onUpdate(), what);
    if (!names.add(name)) {
      throw new SqlStateException(SqlStates.DUPLICATE_OBJECT, "table " + child.table()
          + " already has a constraint named " + name);
    }
    if (d.enforced() && !db.keepsTransactions()) {
      throw new SqlStateException(SqlStates.FEATURE_NOT_SUPPORTED, what + " would be enforced "
          + "by writing a row and checking another as one; " + db.location() + " writes one row "
          + "atomically: declare it NOT ENFORCED");
    }
    return new ForeignKey(name, cols, parentName, parentCols, onDelete, onUpdate,
        d.enforced());
  }

  /** Same types, or two integer types, or two text types (values compared as such). */
  private static boolean compatible(SqlColumn c, SqlColumn p) {
    return c.type() == p.type() || integer(c) && integer(p)
        || text(c) && text(p);
  }

  private static boolean integer(SqlColumn c) {
    return switch (c.type()) {
      case TINYINT, SMALLINT, INTEGER, BIGINT -> true;
      default -> false;
    };
  }

  private static boolean text(SqlColumn c) {
    return switch (c.type()) {
      case CHAR, VARCHAR -> true;
      default -> false;
    };
  }

  private static ForeignKey.Action action(String sql, String what) {
    ForeignKey.Action a = ForeignKey.Action.valueOf(sql.replace(' ', '_'));
    if (a == ForeignKey.Action.SET_DEFAULT) {
      throw new SqlStateException(SqlStates.FEATURE_NOT_SUPPORTED, what + ": ON DELETE/UPDATE "
          + "SET DEFAULT is not supported (NO ACTION, RESTRICT, CASCADE and SET NULL are)");
    }
    return a;
  }

  private static List<String> simple(List<SqlIdentifier> ids) {
    return ids.stream().map(id -> id.names.get(id.names.size() - 1)).toList();
  }

  /** {@code ALTER TABLE t ADD [CONSTRAINT c] FOREIGN KEY | UNIQUE ...}, {@code DROP CONSTRAINT}. */
  static void alter(Storage db, SqlAlterBasaltTable.Constraint alter) {
    TableName name = BasaltDdlExecutor.tableName(alter.name);
    SqlCatalog catalog = new SqlCatalog(db);
    SqlTableDef def = BasaltDdlExecutor.alteredTable(catalog, alter.name, alter.ifExists);
    if (def == null) {
      return;
    }
    if (alter.dropped != null) {
      drop(db, catalog, def, alter.dropped);
    } else if (alter.added instanceof SqlCreateBasaltTable.ForeignKeyDef d) {
      ForeignKey fk = resolve(db, def, d, names(def));
      List<ForeignKey> keys = new ArrayList<>(def.foreignKeys());
      keys.add(fk);
      SqlTableDef with = def.withForeignKeys(keys);
      if (fk.enforced()) { // the rows there are must have their parents (23503 naming one)
        io.basaltdb.sql.exec.write.ForeignKeyChecks.checkRows(db, with,
            new io.basaltdb.sql.exec.TableRuns(db, def).all(-1));
      }
      catalog.put(with);
    } else if (alter.added instanceof SqlCreateBasaltTable.Unique u) {
      IndexDdl.create(db, UniqueConstraints.index(alter.name, name.name(), u.name(),
          simple(u.columns())));
    }
  }

  /** Drops a foreign key, CHECK or UNIQUE constraint (its index) by name; 42704 for none. */
  private static void drop(Storage db, SqlCatalog catalog, SqlTableDef def,
      SqlAlterBasaltTable.DropConstraint drop) {
    String c = drop.name().getSimple();
    List<ForeignKey> keys = new ArrayList<>(def.foreignKeys());
    if (keys.removeIf(fk -> fk.name().equals(c))) {
      catalog.put(def.withForeignKeys(keys));
      return;
    }
    List<SqlTableDef.Check> checks = new ArrayList<>(def.checks());
    if (checks.removeIf(k -> k.name().equals(c))) {
      catalog.put(def.withChecks(checks));
      return;
    }
    for (SqlIndexDef index : catalog.indexes(def.table())) {
      if (index.name().equals(c) && index.unique()) {
        IndexDdl.drop(db, new io.basaltdb.sql.parser.SqlDropBasaltIndex(SqlParserPos.ZERO,
            false, new SqlIdentifier(c, SqlParserPos.ZERO), new SqlIdentifier(List.of(
                def.table().namespace(), def.table().name()), SqlParserPos.ZERO)));
        return;
      }
    }
    if (!drop.ifExists()) {
      throw new SqlStateException(SqlStates.UNDEFINED_OBJECT, "table " + def.table()
          + " has no constraint named " + c);
    }
  }
}
