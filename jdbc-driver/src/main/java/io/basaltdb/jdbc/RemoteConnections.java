package io.basaltdb.jdbc;

import io.basaltdb.sql.SqlStates;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Properties;

/**
 * {@code jdbc:basalt:remote:http[s]://HOST:PORT[;key=value...]}: a connection to
 * {@code bin/basalt server} through Avatica's own client (protobuf), as
 * {@code jdbc:avatica:remote:url=...;serialization=protobuf} would open it (properties: Avatica's,
 * e.g. {@code avatica_user}, {@code avatica_password}, {@code authentication=BASIC},
 * {@code truststore}, {@code truststore_password}), with the metadata Avatica's protocol lacks
 * answered from the server's INFORMATION_SCHEMA: {@code getPrimaryKeys}, {@code
 * getImportedKeys}, {@code getExportedKeys} and {@code getCrossReference}; and the values its
 * format has no type for made right on this side ({@link RemoteValues}: instants, UUIDs).
 * Stateless.
 */
final class RemoteConnections {
  static final String PREFIX = "jdbc:basalt:remote:";

  private RemoteConnections() {}

  static boolean accepts(String url) {
    return url != null && url.startsWith(PREFIX);
  }

  static Connection open(String url, Properties info) throws SQLException {
    String rest = url.substring(PREFIX.length());
    int semi = rest.indexOf(';');
    String address = semi < 0 ? rest : rest.substring(0, semi);
    if (!address.startsWith("http://") && !address.startsWith("https://")) {
      throw new SQLException("a remote Basalt URL is jdbc:basalt:remote:http://HOST:PORT"
          + "[;key=value...], got " + url, SqlStates.UNABLE_TO_CONNECT);
    }
    String avatica = "jdbc:avatica:remote:url=" + address + ";serialization=protobuf"
        + (semi < 0 ? "" : rest.substring(semi));
    Connection c = new org.apache.calcite.avatica.remote.Driver().connect(avatica,
        info == null ? new Properties() : info);
    Connection[] self = new Connection[1];
    RemoteSavepoints savepoints = new RemoteSavepoints(c);
    self[0] = (Connection) Proxy.newProxyInstance(RemoteConnections.class.getClassLoader(),
        new Class<?>[] {Connection.class}, new Forward(c, (m, args) -> switch (m.getName()) {
          case "getMetaData" -> metaData(self[0], c, c.getMetaData(), url);
          case "createStatement", "prepareStatement" -> RemoteValues.statement(self[0],
              (java.sql.Statement) m.invoke(c, args));
          case "setSavepoint", "rollback", "releaseSavepoint" -> savepoints.answer(m, args);
          default -> NOT_MINE;
        }));
    return self[0];
  }

  /**
   * The metadata of {@code self} ({@code c} wrapped), the keys read from INFORMATION_SCHEMA,
   * and Basalt's name, version, driver and URL (Avatica's client says "Avatica", "unknown
   * version": Hibernate could not pick a dialect nor Flyway a database type). The versions are
   * this driver's: a remote server is Basalt's too. The URL without its properties (a password
   * may be one).
   */
  private static DatabaseMetaData metaData(Connection self, Connection c,
      DatabaseMetaData avatica, String url) {
    String product = io.basaltdb.sql.jdbc.BasaltConnections.PRODUCT;
    String version = io.basaltdb.sql.jdbc.BasaltConnections.VERSION;
    String[] numbers = version.split("\\.");
    return (DatabaseMetaData) Proxy.newProxyInstance(RemoteConnections.class.getClassLoader(),
        new Class<?>[] {DatabaseMetaData.class}, new Forward(avatica, (m, a) -> switch (
            m.getName()) {
          case "getConnection" -> self;
          case "getDatabaseProductName" -> product;
          case "getDatabaseProductVersion", "getDriverVersion" -> version;
          case "getDriverName" -> product + " JDBC Driver (remote)";
          case "getDatabaseMajorVersion", "getDriverMajorVersion" -> Integer.parseInt(numbers[0]);
          case "getDatabaseMinorVersion", "getDriverMinorVersion" -> Integer.parseInt(numbers[1]);
          case "getURL" -> url.indexOf(';') < 0 ? url : url.substring(0, url.indexOf(';'));
          case "supportsSavepoints" -> true; // RemoteSavepoints
          case "getPrimaryKeys" -> query(c, PRIMARY_KEYS, (String) a[1], (String) a[2]);
          case "getImportedKeys" -> query(c, KEYS + " WHERE (? IS NULL OR k.TABLE_SCHEMA = ?)"
              + " AND k.TABLE_NAME = ?" + BY_PARENT, (String) a[1], (String) a[2]);
          case "getExportedKeys" -> query(c, KEYS + " WHERE (? IS NULL OR"
              + " k.REFERENCED_TABLE_SCHEMA = ?) AND k.REFERENCED_TABLE_NAME = ?" + BY_CHILD,
              (String) a[1], (String) a[2]);
          case "getCrossReference" -> query(c, KEYS + " WHERE (? IS NULL OR"
              + " k.REFERENCED_TABLE_SCHEMA = ?) AND k.REFERENCED_TABLE_NAME = ?"
              + " AND (? IS NULL OR k.TABLE_SCHEMA = ?) AND k.TABLE_NAME = ?" + BY_CHILD,
              (String) a[1], (String) a[2], (String) a[4], (String) a[5]);
          default -> NOT_MINE;
        }));
  }

  private static final String PRIMARY_KEYS = "SELECT CAST(NULL AS VARCHAR) AS TABLE_CAT,"
      + " TABLE_SCHEMA AS TABLE_SCHEM, TABLE_NAME, COLUMN_NAME, CAST(ORDINAL_POSITION AS"
      + " SMALLINT) AS KEY_SEQ, CONSTRAINT_NAME AS PK_NAME FROM INFORMATION_SCHEMA."
      + "KEY_COLUMN_USAGE WHERE REFERENCED_TABLE_NAME IS NULL AND (? IS NULL OR TABLE_SCHEMA ="
      + " ?) AND TABLE_NAME = ? ORDER BY TABLE_SCHEMA, TABLE_NAME, ORDINAL_POSITION";

  /** A rule's SQL name as JDBC's number. */
  private static String rule(String column) {
    return "CAST(CASE " + column + " WHEN 'CASCADE' THEN 0 WHEN 'RESTRICT' THEN 1"
        + " WHEN 'SET NULL' THEN 2 WHEN 'SET DEFAULT' THEN 4 ELSE 3 END AS SMALLINT)";
  }

  private static final String KEYS = "SELECT CAST(NULL AS VARCHAR) AS PKTABLE_CAT,"
      + " k.REFERENCED_TABLE_SCHEMA AS PKTABLE_SCHEM, k.REFERENCED_TABLE_NAME AS PKTABLE_NAME,"
      + " k.REFERENCED_COLUMN_NAME AS PKCOLUMN_NAME, CAST(NULL AS VARCHAR) AS FKTABLE_CAT,"
      + " k.TABLE_SCHEMA AS FKTABLE_SCHEM, k.TABLE_NAME AS FKTABLE_NAME, k.COLUMN_NAME AS"
      + " FKCOLUMN_NAME, CAST(k.ORDINAL_POSITION AS SMALLINT) AS KEY_SEQ, "
      + rule("r.UPDATE_RULE") + " AS UPDATE_RULE, " + rule("r.DELETE_RULE") + " AS"
      + " DELETE_RULE, k.CONSTRAINT_NAME AS FK_NAME, r.UNIQUE_CONSTRAINT_NAME AS PK_NAME,"
      + " CAST(" + DatabaseMetaData.importedKeyNotDeferrable + " AS SMALLINT) AS DEFERRABILITY"
      + " FROM INFORMATION_SCHEMA.KEY_COLUMN_USAGE k JOIN"
      + " INFORMATION_SCHEMA.REFERENTIAL_CONSTRAINTS r ON r.CONSTRAINT_SCHEMA ="
      + " k.CONSTRAINT_SCHEMA AND r.CONSTRAINT_NAME = k.CONSTRAINT_NAME AND r.TABLE_NAME ="
      + " k.TABLE_NAME";
  private static final String BY_PARENT = " ORDER BY PKTABLE_SCHEM, PKTABLE_NAME, FK_NAME,"
      + " KEY_SEQ";
  private static final String BY_CHILD = " ORDER BY FKTABLE_SCHEM, FKTABLE_NAME, FK_NAME,"
      + " KEY_SEQ";

  /** Runs {@code sql} with each (schema, table) pair bound as {@code ?, ?, ?}. */
  private static ResultSet query(Connection c, String sql, String... schemaTablePairs)
      throws SQLException {
    PreparedStatement p = c.prepareStatement(sql);
    int i = 1;
    for (int k = 0; k < schemaTablePairs.length; k += 2) {
      p.setString(i++, schemaTablePairs[k]);
      p.setString(i++, schemaTablePairs[k]);
      p.setString(i++, schemaTablePairs[k + 1]);
    }
    p.closeOnCompletion();
    return p.executeQuery();
  }

  /** The answer of a method this layer does not answer: the wrapped object's is used. */
  static final Object NOT_MINE = new Object();

  /** What a proxy answers itself, else {@link #NOT_MINE}. */
  interface Own {
    Object answer(Method m, Object[] args) throws Exception;
  }

  /** Forwards every call to {@code target} but those {@code own} answers. */
  record Forward(Object target, Own own) implements InvocationHandler {
    @Override
    public Object invoke(Object proxy, Method m, Object[] args) throws Throwable {
      if (m.getName().equals("equals") && args != null && args.length == 1) {
        return proxy == args[0]; // the proxy is its own identity, not its target's
      } else if (m.getName().equals("hashCode") && args == null) {
        return System.identityHashCode(proxy);
      }
      Object mine;
      try {
        mine = own.answer(m, args);
      } catch (InvocationTargetException e) {
        throw e.getCause();
      }
      if (mine != NOT_MINE) {
        return mine;
      }
      try {
        return m.invoke(target, args);
      } catch (InvocationTargetException e) {
        throw e.getCause();
      }
    }
  }
}
