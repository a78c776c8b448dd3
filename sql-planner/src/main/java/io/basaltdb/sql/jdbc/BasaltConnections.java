package io.basaltdb.sql.jdbc;

import io.basaltdb.sql.ConnectionProperty;
import io.basaltdb.sql.ConnectionRoot;
import io.basaltdb.sql.SqlStates;
import io.basaltdb.sql.schema.BasaltSchema;
import io.basaltdb.storage.Storage;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Properties;
import org.apache.calcite.avatica.AvaticaConnection;
import org.apache.calcite.avatica.DriverVersion;
import org.apache.calcite.avatica.Meta;
import org.apache.calcite.avatica.UnregisteredDriver;
import org.apache.calcite.jdbc.CalciteConnection;
import org.apache.calcite.jdbc.CalciteMetaImpl;
import org.apache.calcite.jdbc.CalciteSchema;

/**
 * Opens Basalt connections: a {@link BasaltConnection} (Avatica's generic connection with
 * Basalt's JDBC objects, {@link BasaltJdbcFactory}) whose {@link BasaltMeta} owns a Calcite
 * connection over the database: Basalt's parser and DDL executor, a schema per namespace,
 * {@code DEFAULT} as the current schema. The JDBC driver builds on it.
 */
public final class BasaltConnections {
  /**
   * Generated code reused by its source text (Calcite's bindable cache), unless the process
   * chose otherwise: a statement with new literal values often generates the same code (the
   * values travel in Basalt's pushed specs, not in the code), and compiling it costs
   * milliseconds. Set before Calcite reads its system properties; bounded, least recently
   * used out.
   */
  static final String BINDABLE_CACHE = "calcite.bindable.cache.maxSize";

  static {
    if (System.getProperty(BINDABLE_CACHE) == null) {
      System.setProperty(BINDABLE_CACHE, "1000");
    }
  }

  public static final String PARSER_FACTORY =
      "io.basaltdb.sql.ddl.BasaltParserFactory#INSTANCE";

  /** The product name and version JDBC metadata reports (BI tools show them). */
  public static final String PRODUCT = "Basalt";
  public static final String VERSION = "0.1.0";

  /**
   * Calcite's driver with Basalt's statement preparation ({@link io.basaltdb.sql.prepare.BasaltPrepare})
   * for the Calcite connection inside a {@link BasaltMeta}; its meta (Calcite's) is kept in
   * the connection's properties under {@code CalciteMetaImpl.class} for the Basalt meta to
   * delegate to. Not registered with DriverManager.
   */
  private static final class EngineDriver extends org.apache.calcite.jdbc.Driver {
    EngineDriver() {
      super(io.basaltdb.sql.prepare.BasaltPrepare::new);
    }

    @Override
    public Meta createMeta(AvaticaConnection connection) {
      Meta meta = super.createMeta(connection);
      ((CalciteConnection) connection).getProperties().put(CalciteMetaImpl.class, meta);
      return meta;
    }

    /** A Calcite connection whose root schema is {@code root} (the connection's state). */
    CalciteConnection connect(Properties p, ConnectionRoot root) throws SQLException {
      Properties info = new Properties();
      info.putAll(p);
      AvaticaConnection c = ((org.apache.calcite.jdbc.CalciteFactory) factory).newConnection(
          this, factory, "jdbc:calcite:", info,
          CalciteSchema.createRootSchema(true, true, "", root),
          new io.basaltdb.sql.type.BasaltTypeFactory());
      handler.onConnectionInit(c);
      return (CalciteConnection) c;
    }
  }

  /**
   * Avatica's driver for Basalt's own JDBC objects and meta, with Basalt's name in JDBC
   * metadata. Not registered with DriverManager: {@code io.basaltdb.jdbc.BasaltDriver} is.
   */
  private static final class Driver extends UnregisteredDriver {
    @Override
    protected DriverVersion createDriverVersion() {
      return new DriverVersion("Basalt JDBC Driver", VERSION, PRODUCT, VERSION, false, 0, 1,
          0, 1);
    }

    @Override
    protected String getConnectStringPrefix() {
      return "jdbc:basalt:";
    }

    @Override
    protected String getFactoryClassName(JdbcVersion jdbcVersion) {
      return BasaltJdbcFactory.class.getName();
    }

    @Override
    public Meta createMeta(AvaticaConnection connection) {
      return BasaltMeta.create(connection);
    }

    BasaltConnection open(String url, Properties info) throws SQLException {
      BasaltConnection c = (BasaltConnection) factory.newConnection(this, factory, url, info);
      handler.onConnectionInit(c);
      return c;
    }
  }

  private static final EngineDriver ENGINE = new EngineDriver();
  private static final Driver DRIVER = new Driver();

  private BasaltConnections() {}

  public static Connection open(Storage db) throws SQLException {
    return open(db, new Properties());
  }

  /** Calcite's own connection properties (model, schemaFactory, fun, ...), lower case. */
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
          throw new SQLException(e.getMessage(), SqlStates.INVALID_PARAMETER_VALUE, e);
        }
      } else if (CALCITE_INTERNAL.contains(key.toLowerCase(java.util.Locale.ROOT))) {
        throw new SQLException("connection property '" + key + "' is not accepted: Calcite's"
            + " internal settings cannot be set on a Basalt connection (accepted: "
            + java.util.Arrays.stream(ConnectionProperty.values())
                .map(ConnectionProperty::camelName).toList() + ")", SqlStates.UNABLE_TO_CONNECT);
      }
    }
    return p;
  }

  public static Connection open(Storage db, Properties properties) throws SQLException {
    return open(db, properties, null, () -> { });
  }

  /**
   * A connection to {@code db}. {@code url} is what its metadata reports (null:
   * {@code jdbc:basalt:}); {@code onClose} runs once, when the connection is first closed.
   */
  public static Connection open(Storage db, Properties properties, String url,
      Runnable onClose) throws SQLException {
    Properties p = accepted(properties);
    String planCacheSize = p.getProperty(ConnectionProperty.PLAN_CACHE_SIZE.camelName());
    if (planCacheSize != null && !planCacheSize.isBlank()) {
      io.basaltdb.sql.prepare.PlanCache.setCapacity(db, Integer.parseInt(planCacheSize));
    }
    p.setProperty("parserFactory", PARSER_FACTORY);
    p.setProperty("metaColumnFactory", BasaltMetaColumns.class.getName() + "#INSTANCE");
    p.setProperty("typeSystem", io.basaltdb.sql.type.BasaltTypeSystem.class.getName()
        + "#INSTANCE");
    p.put(Storage.class, db); // for BasaltMeta.create; a class key is no property name
    BasaltConnection c;
    try {
      c = DRIVER.open(url == null ? "jdbc:basalt:" : url, p);
    } catch (RuntimeException e) {
      throw SqlErrors.toSqlException(e);
    }
    try {
      c.setAutoCommit(true); // JDBC's default (Calcite's meta starts without it)
      io.basaltdb.sql.StatementStats stats = io.basaltdb.sql.StatementStats.of(db);
      stats.connections.increment();
      c.onClose(() -> {
        stats.connections.decrement();
        onClose.run();
      });
      return c;
    } catch (SQLException | RuntimeException e) {
      c.close();
      throw e;
    }
  }

  /** The Calcite connection inside a {@link BasaltMeta}, set up over the database. */
  static CalciteConnection calcite(Properties p) throws SQLException {
    Storage db = (Storage) p.get(Storage.class);
    CalciteConnection c = ENGINE.connect(p, new ConnectionRoot(db));
    try {
      // Calcite's "metadata" schema: DatabaseMetaData is the way to the catalog here
      c.getRootSchema().unwrap(CalciteSchema.class).removeSubSchema("metadata");
      BasaltSchema.register(c.getRootSchema(), db);
      c.setSchema("DEFAULT");
      c.setAutoCommit(true);
      return c;
    } catch (SQLException | RuntimeException e) {
      c.close();
      throw e;
    }
  }
}
