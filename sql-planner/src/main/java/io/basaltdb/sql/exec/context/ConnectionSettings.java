package io.basaltdb.sql.exec.context;

import io.basaltdb.sql.ConnectionProperty;
import io.basaltdb.sql.SqlStateException;
import io.basaltdb.sql.SqlStates;
import io.basaltdb.storage.Durability;
import io.basaltdb.storage.InvalidArgumentException;
import java.util.Properties;
import org.apache.calcite.DataContext;
import org.apache.calcite.jdbc.CalciteConnection;

/**
 * The Basalt connection properties ({@link ConnectionProperty}) a statement runs under, read
 * from the connection that runs it:
 * <ul>
 *   <li>{@code readTimestamp} (epoch ms): every read sees the data as of that instant (as
 *       Phoenix's CurrentSCN); versions written later are not read;
 *   <li>{@code writeTimestamp} (epoch ms): every cell the connection writes gets that
 *       timestamp instead of the current time (writing history, backfills);
 *   <li>{@code durability}: {@code SYNC} (default; a statement returns once its writes are
 *       fsynced in the write-ahead log) or {@code ASYNC} (fsynced in the background);
 *   <li>{@code readOnly} ({@code true}/{@code false}, or {@code Connection.setReadOnly}):
 *       writes and DDL are refused (SQLState 25006).
 * </ul>
 *
 * @param readTimestamp -1 when unset
 * @param writeTimestamp -1 when unset
 */
public record ConnectionSettings(long readTimestamp, long writeTimestamp, Durability durability,
    boolean readOnly) {
  public static final ConnectionSettings DEFAULT =
      new ConnectionSettings(-1, -1, Durability.SYNC, false);

  /** Refuses writes when the connection is read-only. */
  public void checkWritable(String what) {
    if (readOnly) {
      throw new SqlStateException(SqlStates.READ_ONLY_TRANSACTION,
          what + " on a read-only connection");
    }
  }

  /** The settings of the connection behind a statement's data context. */
  public static ConnectionSettings of(DataContext ctx) {
    if (ctx == null || !(ctx.getQueryProvider() instanceof CalciteConnection c)) {
      return DEFAULT;
    }
    return of(c);
  }

  /**
   * The settings of a connection: its properties (fixed when it opens: parsed once, then kept
   * among them under this class, never a property name a client could send; a bad value is
   * refused at each use, as before), and its JDBC read-only flag.
   */
  public static ConnectionSettings of(CalciteConnection c) {
    Properties p = c.getProperties();
    ConnectionSettings s;
    if (p.get(ConnectionSettings.class) instanceof ConnectionSettings kept) {
      s = kept;
    } else {
      s = of(p);
      p.put(ConnectionSettings.class, s);
    }
    try {
      if (!s.readOnly && c.isReadOnly()) {
        return new ConnectionSettings(s.readTimestamp, s.writeTimestamp, s.durability, true);
      }
    } catch (java.sql.SQLException e) {
      // a closed connection: its next statement fails anyway
    }
    return s;
  }

  /** The settings {@code p} holds; an {@link InvalidArgumentException} for a bad value. */
  public static ConnectionSettings of(Properties p) {
    String d = ConnectionProperty.DURABILITY.valueIn(p);
    String ro = ConnectionProperty.READ_ONLY.valueIn(p);
    return new ConnectionSettings(timestamp(p, ConnectionProperty.READ_TIMESTAMP),
        timestamp(p, ConnectionProperty.WRITE_TIMESTAMP), Durability.valueOf(d),
        Boolean.parseBoolean(ro));
  }

  private static long timestamp(Properties p, ConnectionProperty property) {
    String v = property.valueIn(p);
    return v == null ? -1 : Long.parseLong(v);
  }
}
