package io.basaltdb.sql.ddl;

import io.basaltdb.sql.SqlStates;
import io.basaltdb.storage.InvalidArgumentException;
import io.basaltdb.storage.Storage;
import io.basaltdb.sql.SqlStateException;
import io.basaltdb.sql.catalog.SqlColumn;
import io.basaltdb.sql.parser.SqlCreateBasaltTable;
import io.basaltdb.sql.type.ColumnType;
import java.util.List;

/**
 * Phoenix's {@code ROW_TIMESTAMP} key column ({@code PRIMARY KEY (created ROW_TIMESTAMP, id)}):
 * one per table, a key column of type BIGINT (milliseconds since the epoch), DATE or
 * TIMESTAMP, never before the epoch. Every cell of a row is written at the timestamp its value
 * says ({@code exec.RowTimestamps}), so a range on it is also a range of cell timestamps that
 * reads skip files by. It needs a write made after a delete to show even at an older timestamp,
 * as the engine does and HBase does with NEW_VERSION_BEHAVIOR families, which Basalt now makes
 * its HBase tables with (a storage whose new tables would hide it refuses the column).
 */
final class RowTimestampColumn {
  private RowTimestampColumn() {}

  /**
   * {@code defaults} with the time of the write as the ROW_TIMESTAMP column's default when it
   * is a TIMESTAMP or DATE without one (Phoenix sets a row timestamp left out to the server's
   * time): an INSERT or UPSERT that leaves it out writes the row at the statement's time.
   */
  static java.util.Map<String, String> withNow(java.util.Map<String, String> defaults,
      String column, List<SqlColumn> columns) {
    if (column == null || defaults.containsKey(column)) {
      return defaults;
    }
    ColumnType type = columns.stream().filter(c -> c.name().equals(column)).findFirst()
        .orElseThrow().type();
    if (type == ColumnType.BIGINT) {
      return defaults; // no standard expression gives epoch milliseconds: it must be given
    }
    java.util.Map<String, String> out = new java.util.LinkedHashMap<>(defaults);
    out.put(column, type == ColumnType.DATE ? "CURRENT_DATE" : "CURRENT_TIMESTAMP");
    return out;
  }

  /** The ROW_TIMESTAMP column {@code create} declares, checked, or null. */
  static String declared(SqlCreateBasaltTable create, List<SqlColumn> columns, Storage db) {
    if (create.rowTimestamp.isEmpty()) {
      return null;
    }
    if (create.rowTimestamp.size() > 1) {
      throw new InvalidArgumentException("table " + create.name + " has more than one "
          + "ROW_TIMESTAMP column");
    }
    String name = create.rowTimestamp.get(0).getSimple();
    SqlColumn c = columns.stream().filter(x -> x.name().equals(name)).findFirst().orElseThrow(
        () -> new InvalidArgumentException("ROW_TIMESTAMP " + name + " is not a column"));
    if (!c.isKey()) {
      throw new InvalidArgumentException("ROW_TIMESTAMP " + name + " of " + create.name
          + " must be a primary key column");
    }
    if (c.type() != ColumnType.BIGINT && c.type() != ColumnType.DATE
        && c.type() != ColumnType.TIMESTAMP) {
      throw new InvalidArgumentException("ROW_TIMESTAMP " + name + " of " + create.name
          + " is " + c.type() + "; it must be BIGINT (epoch milliseconds), DATE or TIMESTAMP");
    }
    if (db.markersHideLaterPuts()) {
      throw new SqlStateException(SqlStates.FEATURE_NOT_SUPPORTED,
          "ROW_TIMESTAMP needs the embedded engine's delete "
          + "rule (a write after a delete shows at any timestamp); " + create.name
          + " is not in one");
    }
    return name;
  }
}
