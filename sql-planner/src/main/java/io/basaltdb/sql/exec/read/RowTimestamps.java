package io.basaltdb.sql.exec.read;

import io.basaltdb.sql.SqlStates;
import io.basaltdb.sql.catalog.SqlColumn;
import io.basaltdb.sql.catalog.SqlTableDef;
import io.basaltdb.sql.pushdown.KeyConditions;
import io.basaltdb.sql.pushdown.Operand;
import io.basaltdb.sql.type.ColumnType;
import io.basaltdb.storage.InvalidArgumentException;
import org.apache.calcite.DataContext;

/**
 * The cell timestamps of a table with a ROW_TIMESTAMP key column: a row's cells (marker,
 * columns, deletes) are written at its value in milliseconds (a DATE's day at midnight UTC),
 * and a scan whose key conditions bound that column reads only cells in the bounds' time
 * range, so files wholly older than its start are skipped. Stateless.
 */
public final class RowTimestamps {
  private static final long DAY = 86_400_000L;

  private RowTimestamps() {}

  /** The timestamp of a write's input row (full table row), or -1 for other tables. */
  public static long of(SqlTableDef def, Object[] row) {
    if (def.rowTimestamp() == null) {
      return -1;
    }
    int i = def.columnIndex(def.rowTimestamp());
    Object v = row[i];
    if (v == null) {
      throw new io.basaltdb.sql.SqlStateException(SqlStates.NOT_NULL_VIOLATION,
          "NULL not allowed for "
          + "ROW_TIMESTAMP column " + def.rowTimestamp() + " of " + def.table());
    }
    long ms = millis(def.columns().get(i), v);
    if (ms < 0) {
      throw new InvalidArgumentException("ROW_TIMESTAMP " + def.rowTimestamp() + " of "
          + def.table() + " must not be before 1970-01-01: " + v);
    }
    return ms;
  }

  private static long millis(SqlColumn c, Object v) {
    long n = ((Number) v).longValue();
    return c.type() == ColumnType.DATE ? n * DAY : n;
  }

  /**
   * The time range {@code [min, max)} the key conditions allow the row timestamp, or null when
   * they do not bound it (nor pin it) or a bound is a NULL parameter.
   */
  public static long[] timeRange(SqlTableDef def, KeyConditions keys, DataContext ctx) {
    if (def.rowTimestamp() == null) {
      return null;
    }
    SqlColumn c = def.columns().get(def.columnIndex(def.rowTimestamp()));
    int position = c.keyPosition();
    long min = Long.MAX_VALUE;
    long max = Long.MIN_VALUE;
    if (position < keys.equalities().size()) {
      for (Operand o : keys.equalities().get(position)) {
        Object v = o.bind(ctx);
        if (v == null) {
          return null;
        }
        long ms = millis(c, v);
        min = Math.min(min, ms);
        max = Math.max(max, end(c, ms, true));
      }
    } else if (position == keys.equalities().size() && !keys.intervals().isEmpty()) {
      for (KeyConditions.Interval in : keys.intervals()) {
        long lo = 0;
        long hi = Long.MAX_VALUE;
        if (in.lower() != null) {
          Object v = in.lower().bind(ctx);
          if (v == null) {
            return null;
          }
          lo = millis(c, v) + (in.lowerInclusive() ? 0 : c.type() == ColumnType.DATE ? DAY : 1);
        }
        if (in.upper() != null) {
          Object v = in.upper().bind(ctx);
          if (v == null) {
            return null;
          }
          hi = end(c, millis(c, v), in.upperInclusive());
        }
        min = Math.min(min, lo);
        max = Math.max(max, hi);
      }
    } else {
      return null;
    }
    min = Math.max(0, min);
    return min >= max ? new long[] {0, 0} : new long[] {min, max};
  }

  /** The exclusive end of the times up to {@code ms} (inclusive or not). */
  private static long end(SqlColumn c, long ms, boolean inclusive) {
    if (!inclusive) {
      return ms;
    }
    long step = c.type() == ColumnType.DATE ? DAY : 1;
    return ms > Long.MAX_VALUE - step ? Long.MAX_VALUE : ms + step;
  }
}
