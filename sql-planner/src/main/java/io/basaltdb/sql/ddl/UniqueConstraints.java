package io.basaltdb.sql.ddl;

import io.basaltdb.storage.InvalidArgumentException;
import io.basaltdb.storage.Storage;
import io.basaltdb.storage.TableName;
import io.basaltdb.sql.catalog.SqlCatalog;
import io.basaltdb.sql.catalog.SqlColumn;
import io.basaltdb.sql.parser.SqlCreateBasaltIndex;
import io.basaltdb.sql.parser.SqlCreateBasaltTable;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.parser.SqlParserPos;

/**
 * The UNIQUE constraints of {@code CREATE TABLE} ({@code c INTEGER UNIQUE}, {@code [CONSTRAINT
 * name] UNIQUE (a, b)}), each kept by a unique secondary index made with the table: a duplicate
 * of non-NULL values is refused with 23505 and writes nothing; NULLs never conflict (as in H2
 * and the SQL standard). The index is named after the constraint, or {@code TABLE_COL[_COL]_KEY}
 * when the constraint has no name; it is an ordinary index afterwards (in {@code
 * getIndexInfo}, dropped with its table). A constraint on exactly the primary key adds nothing
 * and makes no index. Everything is checked before the table is made; an index that cannot be
 * made takes the new table away with it. Stateless.
 */
final class UniqueConstraints {
  private UniqueConstraints() {}

  /** The indexes {@code create}'s constraints need, checked against its columns. */
  static List<SqlCreateBasaltIndex> indexes(Storage db, SqlCreateBasaltTable create,
      List<SqlColumn> columns) {
    List<SqlCreateBasaltIndex> out = new ArrayList<>();
    Set<String> names = new HashSet<>();
    Set<List<String>> seen = new HashSet<>();
    String table = create.name.names.get(create.name.names.size() - 1);
    for (SqlCreateBasaltTable.Unique u : create.uniques) {
      List<String> cols = new ArrayList<>();
      for (SqlIdentifier id : u.columns()) {
        String c = id.names.get(id.names.size() - 1);
        if (columns.stream().noneMatch(col -> col.name().equals(c))) {
          throw new InvalidArgumentException("UNIQUE constraint of table " + create.name
              + " names column " + c + ", which the table does not have");
        }
        if (cols.contains(c)) {
          throw new InvalidArgumentException("UNIQUE constraint of table " + create.name
              + " names column " + c + " twice");
        }
        cols.add(c);
      }
      List<String> sorted = new ArrayList<>(cols);
      Collections.sort(sorted);
      if (isPrimaryKey(sorted, columns) || !seen.add(sorted)) {
        continue; // the key, or a constraint already kept, is unique already
      }
      SqlCreateBasaltIndex index = index(create.name, table, u.name(), cols);
      if (!names.add(index.name.getSimple())) {
        throw new InvalidArgumentException("table " + create.name + " has two constraints named "
            + index.name);
      }
      out.add(index);
    }
    return out;
  }

  /**
   * The unique index that keeps a UNIQUE constraint on {@code cols} of table {@code tableId}
   * ({@code table} its simple name): named {@code name}, or {@code TABLE_COL[_COL]_KEY}.
   */
  static SqlCreateBasaltIndex index(SqlIdentifier tableId, String table, SqlIdentifier name,
      List<String> cols) {
    String index = name != null ? name.getSimple()
        : (table + "_" + String.join("_", cols) + "_KEY").toUpperCase(Locale.ROOT);
    List<SqlNode> idxCols = new ArrayList<>();
    for (String c : cols) {
      idxCols.add(new SqlIdentifier(c, SqlParserPos.ZERO));
    }
    return new SqlCreateBasaltIndex(SqlParserPos.ZERO, false, true,
        new SqlIdentifier(index, SqlParserPos.ZERO), tableId, idxCols,
        Collections.nCopies(cols.size(), false), List.of(), List.of());
  }

  private static boolean isPrimaryKey(List<String> sorted, List<SqlColumn> columns) {
    List<String> key = new ArrayList<>();
    for (SqlColumn c : columns) {
      if (c.isKey()) {
        key.add(c.name());
      }
    }
    Collections.sort(key);
    return key.equals(sorted);
  }

  /** Makes the indexes of a table just created; on a failure, the table goes too. */
  static void create(Storage db, TableName table, List<SqlCreateBasaltIndex> indexes) {
    try {
      for (SqlCreateBasaltIndex i : indexes) {
        IndexDdl.create(db, i);
      }
    } catch (RuntimeException e) {
      try {
        IndexDdl.dropAll(db, table);
        new SqlCatalog(db).remove(table);
        db.admin().deleteTable(table);
      } catch (RuntimeException undo) {
        e.addSuppressed(undo);
      }
      throw e;
    }
  }
}
