package io.basaltdb.sql.exec;

import io.basaltdb.engine.Durability;
import io.basaltdb.engine.InvalidArgumentException;
import java.util.Locale;
import java.util.Properties;
import org.apache.calcite.DataContext;
import org.apache.calcite.jdbc.CalciteConnection;

/**
 * The Basalt connection properties a statement runs under, read from the connection that
 * runs it:
 * <ul>
 *   <li>{@code readTimestamp} (epoch ms): every read sees the data as of that instant (as
 *       Phoenix's CurrentSCN); versions written later are not read;
 *   <li>{@code writeTimestamp} (epoch ms): every cell the connection writes gets that
 *       timestamp instead of the current time (writing history, backfills);
 *   <li>{@code durability}: {@code SYNC} (default; a statement returns once its writes are
 *       fsynced in the write-ahead log) or {@code ASYNC} (fsynced in the background).
 * </ul>
 *
 * @param readTimestamp -1 when unset
 * @param writeTimestamp -1 when unset
 */
public record ConnectionSettings(long readTimestamp, long writeTimestamp, Durability durability) {
  public static final String READ_TIMESTAMP = "readTimestamp";
  public static final String WRITE_TIMESTAMP = "writeTimestamp";
  public static final String DURABILITY = "durability";

  public static final ConnectionSettings DEFAULT = new ConnectionSettings(-1, -1, Durability.SYNC);

  /** The settings of the connection behind a statement's data context. */
  public static ConnectionSettings of(DataContext ctx) {
    if (ctx == null || !(ctx.getQueryProvider() instanceof CalciteConnection c)) {
      return DEFAULT;
    }
    return of(c.getProperties());
  }

  public static ConnectionSettings of(Properties p) {
    String d = p.getProperty(DURABILITY);
    Durability durability = Durability.SYNC;
    if (d != null && !d.isBlank()) {
      durability = switch (d.trim().toUpperCase(Locale.ROOT)) {
        case "SYNC" -> Durability.SYNC;
        case "ASYNC" -> Durability.ASYNC;
        default -> throw new InvalidArgumentException("connection property " + DURABILITY
            + " must be SYNC or ASYNC, got '" + d + "'");
      };
    }
    return new ConnectionSettings(timestamp(p, READ_TIMESTAMP), timestamp(p, WRITE_TIMESTAMP),
        durability);
  }

  private static long timestamp(Properties p, String name) {
    String v = p.getProperty(name);
    if (v == null || v.isBlank()) {
      return -1;
    }
    try {
      long ts = Long.parseLong(v.trim());
      if (ts < 0) {
        throw new NumberFormatException();
      }
      return ts;
    } catch (NumberFormatException e) {
      throw new InvalidArgumentException("connection property " + name
          + " must be epoch milliseconds, got '" + v + "'");
    }
  }
}
