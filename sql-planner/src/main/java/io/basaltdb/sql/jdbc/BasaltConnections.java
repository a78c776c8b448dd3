package io.basaltdb.sql.jdbc;

import io.basaltdb.engine.Database;
import io.basaltdb.sql.BasaltSchema;
import io.basaltdb.sql.ConnectionProperty;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.calcite.avatica.AvaticaConnection;
import org.apache.calcite.avatica.Meta;
import org.apache.calcite.jdbc.CalciteConnection;
import org.apache.calcite.jdbc.CalciteSchema;

/**
 * Opens a Basalt connection: a Calcite connection over a Basalt database with Basalt's parser
 * and DDL executor, a schema per namespace, {@code DEFAULT} as the current schema, Basalt's
 * {@link BasaltMeta} for what the connection does, and one wrapping layer
 * ({@link JdbcProxies}) for SQLStates and bound-value checks. The JDBC driver builds on it.
 */
public final class BasaltConnections {
  public static final String PARSER_FACTORY =
      "io.basaltdb.sql.parser.BasaltParserFactory#INSTANCE";

  /** The product name and version JDBC metadata reports (BI tools show them). */
  public static final String PRODUCT = "Basalt";
  public static final String VERSION = "0.1.0";

  /**
   * Calcite's driver with Basalt's statement preparation ({@link io.basaltdb.sql.BasaltPrepare}),
   * Basalt's meta and JDBC factory, and Basalt's name in JDBC metadata. Not registered with
   * DriverManager: the JDBC driver opens through it.
   */
  private static final class EngineDriver extends org.apache.calcite.jdbc.Driver {
    EngineDriver() {
      super(io.basaltdb.sql.BasaltPrepare::new);
    }

    @Override
    public Meta createMeta(AvaticaConnection connection) {
      return BasaltMeta.create(connection);
    }

    @Override
    protected String getFactoryClassName(org.apache.calcite.avatica.UnregisteredDriver
        .JdbcVersion jdbcVersion) {
      return BasaltJdbcFactory.class.getName();
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
    return open(db, properties, null, () -> { });
  }

  /**
   * A connection to {@code db}. {@code url} is what its metadata reports (null: Calcite's);
   * {@code onClose} runs once, when the connection is first closed.
   */
  public static Connection open(Database db, Properties properties, String url,
      Runnable onClose) throws SQLException {
    Properties p = accepted(properties);
    p.setProperty("parserFactory", PARSER_FACTORY);
    p.put(Database.class, db); // for BasaltMeta.create; a class key is no property name
    Connection c = DRIVER.connect("jdbc:calcite:", p);
    try {
      CalciteConnection cc = c.unwrap(CalciteConnection.class);
      // Calcite's "metadata" schema reads Calcite's own meta; DatabaseMetaData is the way here
      cc.getRootSchema().unwrap(CalciteSchema.class).removeSubSchema("metadata");
      BasaltSchema.register(cc.getRootSchema(), db);
      cc.setSchema("DEFAULT");
      c.setAutoCommit(true); // JDBC's default (Calcite's connections start without it)
      return wrap(c, cc, url, onClose);
    } catch (SQLException | RuntimeException e) {
      c.close();
      throw e;
    }
  }

  private static Connection wrap(Connection c, CalciteConnection cc, String url,
      Runnable onClose) {
    AtomicBoolean closed = new AtomicBoolean();
    return JdbcProxies.wrap(c, Connection.class, (method, args) -> {
      String name = method.getName();
      int n = method.getParameterCount();
      if (name.equals("close") && n == 0) {
        try {
          c.close();
        } finally {
          if (closed.compareAndSet(false, true)) {
            onClose.run();
          }
        }
        return Optional.of(Void.TYPE);
      }
      if (name.equals("isClosed") && n == 0) {
        return Optional.of(closed.get() || c.isClosed());
      }
      if (name.equals("prepareStatement")) {
        return Optional.of(PreparedStatements.wrap(
            (PreparedStatement) Proxies.forward(method, c, args), cc));
      }
      if (name.equals("getMetaData") && n == 0) {
        DatabaseMetaData md = c.getMetaData();
        return Optional.of(JdbcProxies.wrap(md, DatabaseMetaData.class, (m, a) -> {
          if (m.getName().equals("getURL") && m.getParameterCount() == 0 && url != null) {
            return Optional.of(url);
          }
          if (m.getName().equals("supportsMixedCaseQuotedIdentifiers")) {
            return Optional.of(true); // quoted identifiers are exact
          }
          return Optional.empty();
        }));
      }
      return Optional.empty();
    });
  }
}
