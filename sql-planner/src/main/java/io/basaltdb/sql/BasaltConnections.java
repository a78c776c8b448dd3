package io.basaltdb.sql;

import io.basaltdb.engine.Database;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.Properties;
import io.basaltdb.sql.exec.PendingWrites;
import org.apache.calcite.jdbc.CalciteConnection;

/**
 * Opens a Calcite connection over a Basalt database: Basalt's parser and DDL executor, a
 * schema per namespace, {@code DEFAULT} as the current schema. The JDBC driver builds on it.
 */
public final class BasaltConnections {
  public static final String PARSER_FACTORY =
      "io.basaltdb.sql.parser.BasaltParserFactory#INSTANCE";

  /** The product name and version JDBC metadata reports (BI tools show them). */
  public static final String PRODUCT = "Basalt";
  public static final String VERSION = "0.1.0";

  /**
   * Calcite's driver with Basalt's statement preparation ({@link BasaltPrepare}) and Basalt's
   * name in JDBC metadata. Not registered with DriverManager: the JDBC driver opens through it.
   */
  private static final class EngineDriver extends org.apache.calcite.jdbc.Driver {
    EngineDriver() {
      super(BasaltPrepare::new);
    }

    @Override
    protected org.apache.calcite.avatica.DriverVersion createDriverVersion() {
      return new org.apache.calcite.avatica.DriverVersion("Basalt JDBC Driver", VERSION,
          PRODUCT, VERSION, false, 0, 1, 0, 1);
    }
  }

  private static final org.apache.calcite.jdbc.Driver DRIVER = new EngineDriver();

  private BasaltConnections() {}

  public static Connection open(Database db) throws SQLException {
    return open(db, new Properties());
  }

  /**
   * The connection with Basalt's commit and rollback: with auto-commit off, writes wait in
   * {@link PendingWrites} until {@code commit()}; {@code rollback()}, {@code close()} drop them;
   * turning auto-commit back on commits them, as JDBC asks.
   */
  private static Connection transactional(Connection c, CalciteConnection cc) {
    return (Connection) java.lang.reflect.Proxy.newProxyInstance(
        BasaltConnections.class.getClassLoader(), new Class<?>[] {Connection.class},
        (proxy, method, args) -> {
          String name = method.getName();
          int n = method.getParameterCount();
          try {
            if (name.equals("commit") && n == 0) {
              PendingWrites.commit(cc);
              return null;
            }
            if (name.equals("rollback") && n == 0) {
              PendingWrites.rollback(cc); // Calcite's own rollback is unsupported
              return null;
            }
            if (name.equals("close") && n == 0) {
              PendingWrites.rollback(cc);
            } else if (name.equals("setAutoCommit") && n == 1 && (Boolean) args[0]
                && !c.getAutoCommit()) {
              PendingWrites.commit(cc);
            }
            Object result = Proxies.forward(method, c, args);
            return name.equals("prepareStatement") && result instanceof PreparedStatement ps
                ? PreparedStatements.wrap(ps, cc) : result;
          } catch (RuntimeException | StackOverflowError e) {
            throw SqlErrors.toSqlException(e);
          }
        });
  }

  /** Calcite's own connection properties (model, schemaFactory, fun, typeSystem, ...), lower case. */
  private static final java.util.Set<String> CALCITE_INTERNAL = calciteInternal();

  private static java.util.Set<String> calciteInternal() {
    java.util.Set<String> names = new java.util.HashSet<>();
    for (org.apache.calcite.config.CalciteConnectionProperty p
        : org.apache.calcite.config.CalciteConnectionProperty.values()) {
      names.add(p.camelName().toLowerCase(java.util.Locale.ROOT));
    }
    return java.util.Set.copyOf(names);
  }

  /**
   * Only Basalt's own properties reach Calcite. Calcite's internal ones (a {@code model} file,
   * a {@code schemaFactory}, {@code fun}, {@code typeSystem}, ...) would let a client read files,
   * create directories or call Java methods: refused with 08001. Anything else (a tool's own
   * settings, Avatica's url/serialization, user/password) is ignored.
   */
  static Properties accepted(Properties given) throws SQLException {
    Properties p = new Properties();
    for (String key : given.stringPropertyNames()) {
      ConnectionProperty property = ConnectionProperty.of(key);
      if (property != null) {
        String value = given.getProperty(key);
        try {
          p.setProperty(key, value.isBlank() ? value : property.check(value));
        } catch (RuntimeException e) {
          throw new SQLException(e.getMessage(), "22023", e);
        }
      } else if (CALCITE_INTERNAL.contains(key.toLowerCase(java.util.Locale.ROOT))) {
        throw new SQLException("connection property '" + key + "' is not accepted: Calcite's"
            + " internal settings cannot be set on a Basalt connection (accepted: "
            + java.util.Arrays.stream(ConnectionProperty.values())
                .map(ConnectionProperty::camelName).toList() + ")", "08001");
      }
    }
    return p;
  }

  public static Connection open(Database db, Properties properties) throws SQLException {
    Properties p = accepted(properties);
    p.setProperty("parserFactory", PARSER_FACTORY);
    Connection c = DRIVER.connect("jdbc:calcite:", p);
    try {
      CalciteConnection cc = c.unwrap(CalciteConnection.class);
      BasaltSchema.register(cc.getRootSchema(), db);
      cc.setSchema("DEFAULT");
      c.setAutoCommit(true); // JDBC's default (Calcite's connections start without it)
      return transactional(c, cc);
    } catch (SQLException | RuntimeException e) {
      c.close();
      throw e;
    }
  }
}
