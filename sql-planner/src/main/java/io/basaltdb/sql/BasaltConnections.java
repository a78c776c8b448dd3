package io.basaltdb.sql;

import io.basaltdb.engine.Database;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Properties;
import org.apache.calcite.jdbc.CalciteConnection;

/**
 * Opens a Calcite connection over a Basalt database: Basalt's parser and DDL executor, a
 * schema per namespace, {@code DEFAULT} as the current schema. The JDBC driver builds on it.
 */
public final class BasaltConnections {
  public static final String PARSER_FACTORY =
      "io.basaltdb.sql.parser.BasaltParserFactory#INSTANCE";

  /** Calcite's driver with Basalt's statement preparation ({@link BasaltPrepare}). */
  private static final org.apache.calcite.jdbc.Driver DRIVER =
      new org.apache.calcite.jdbc.Driver().withPrepareFactory(BasaltPrepare::new);

  private BasaltConnections() {}

  public static Connection open(Database db) throws SQLException {
    return open(db, new Properties());
  }

  /** With extra Calcite connection properties (they may not override the parser factory). */
  public static Connection open(Database db, Properties properties) throws SQLException {
    Properties p = new Properties();
    p.putAll(properties);
    p.setProperty("parserFactory", PARSER_FACTORY);
    Connection c = DRIVER.connect("jdbc:calcite:", p);
    try {
      CalciteConnection cc = c.unwrap(CalciteConnection.class);
      BasaltSchema.register(cc.getRootSchema(), db);
      cc.setSchema("DEFAULT");
      return c;
    } catch (SQLException | RuntimeException e) {
      c.close();
      throw e;
    }
  }
}
