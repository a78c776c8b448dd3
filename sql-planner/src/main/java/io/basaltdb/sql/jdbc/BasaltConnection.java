package io.basaltdb.sql.jdbc;

import io.basaltdb.sql.SqlStates;
import io.basaltdb.sql.exec.context.GeneratedKeys;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.calcite.avatica.AvaticaConnection;
import org.apache.calcite.avatica.AvaticaFactory;
import org.apache.calcite.avatica.AvaticaStatement;
import org.apache.calcite.avatica.Meta;
import org.apache.calcite.avatica.NoSuchStatementException;
import org.apache.calcite.avatica.UnregisteredDriver;
import org.apache.calcite.jdbc.CalciteConnection;

/**
 * A Basalt JDBC connection: Avatica's generic connection over {@link BasaltMeta}, which does
 * the work. Adds what a connection object itself must: errors with Basalt's SQLStates
 * ({@link Translated}), a hook run once on close (the driver releases its database), and
 * {@code unwrap(CalciteConnection.class)} to the Calcite connection inside the meta.
 */
public final class BasaltConnection extends AvaticaConnection {
  private final AtomicBoolean closed = new AtomicBoolean();
  /**
   * The parameter checks of the signatures this connection's statements had last, by the
   * signature's identity (a text prepared again gets its signature back: RecentPrepares), so a
   * statement prepared per call does not make them anew (3% of a prepare, execute and close).
   */
  private final ParameterChecks[] recentChecks = new ParameterChecks[8];
  private int nextChecks;
  private volatile Runnable onClose = () -> { };
  private volatile java.util.TimeZone timeZone;
  private volatile java.time.ZoneId zoneId;

  BasaltConnection(UnregisteredDriver driver, AvaticaFactory factory, String url,
      Properties info) {
    super(driver, factory, url, info);
  }

  /**
   * The connection's configuration. Avatica makes a new one per call, and every statement's
   * constructor asks it for the fetch size, which parses all the connection's properties (a
   * tenth of a prepare + execute + close); the properties are not changed after the
   * connection is made, so the fetch size is read once. Other values are read from the
   * properties as Avatica reads them.
   */
  @Override
  public org.apache.calcite.avatica.ConnectionConfig config() {
    FixedConfig c = config;
    if (c == null) {
      c = new FixedConfig(info);
      config = c;
    }
    return c;
  }

  private volatile FixedConfig config;

  /** A configuration whose fetch size is parsed once. */
  private static final class FixedConfig extends org.apache.calcite.avatica.ConnectionConfigImpl {
    private final int fetchSize;

    FixedConfig(Properties info) {
      super(info);
      this.fetchSize = super.fetchSize();
    }

    @Override
    public int fetchSize() {
      return fetchSize;
    }
  }

  /** The properties the connection was opened with (for {@link BasaltMeta#create}). */
  Properties properties() {
    return info;
  }

  /**
   * The storage under this connection (the embedded database or an HBase cluster), for a program
   * that also uses the engine's API ({@code connection.unwrap(BasaltConnection.class).storage()});
   * shared with every connection to the same location.
   */
  public io.basaltdb.storage.Storage storage() {
    return (io.basaltdb.storage.Storage) info.get(io.basaltdb.storage.Storage.class);
  }

  /**
   * The storage under this connection as {@code type}, for operations only that storage has
   * (the embedded engine's {@code Database}: background work, log statistics, region
   * internals), as {@link java.sql.Wrapper#unwrap} does for the connection itself.
   *
   * @throws SQLException (0A000) when the storage is not a {@code type}
   */
  public <T extends io.basaltdb.storage.Storage> T storage(Class<T> type) throws SQLException {
    if (type.isInstance(storage())) {
      return type.cast(storage());
    }
    throw new SQLException("the connection to " + storage().location() + " is not to a "
        + type.getSimpleName() + " (it is to a " + storage().getClass().getSimpleName() + ")",
        SqlStates.FEATURE_NOT_SUPPORTED);
  }

  public BasaltMeta basaltMeta() {
    return (BasaltMeta) meta;
  }

  void onClose(Runnable hook) {
    this.onClose = hook;
  }

  @Override
  public AtomicBoolean getCancelFlag(Meta.StatementHandle h) throws NoSuchStatementException {
    return basaltMeta().cancelFlag(h);
  }

  @Override
  public AvaticaStatement createStatement(int resultSetType, int resultSetConcurrency,
      int resultSetHoldability) throws SQLException {
    return Translated.call(() -> super.createStatement(resultSetType, resultSetConcurrency,
        resultSetHoldability));
  }

  @Override
  public PreparedStatement prepareStatement(String sql, int resultSetType,
      int resultSetConcurrency, int resultSetHoldability) throws SQLException {
    return Translated.call(() -> super.prepareStatement(sql, resultSetType,
        resultSetConcurrency, resultSetHoldability));
  }

  @Override
  public PreparedStatement prepareStatement(String sql, int autoGeneratedKeys)
      throws SQLException {
    GeneratedKeys keys = generatedKeys(autoGeneratedKeys);
    PreparedStatement p = prepareStatement(sql);
    basaltMeta().askGeneratedKeys(((AvaticaStatement) p).getId(), keys);
    return p;
  }

  @Override
  public PreparedStatement prepareStatement(String sql, int[] columnIndexes)
      throws SQLException {
    PreparedStatement p = prepareStatement(sql);
    basaltMeta().askGeneratedKeys(((AvaticaStatement) p).getId(),
        GeneratedKeys.indexed(columnIndexes));
    return p;
  }

  @Override
  public PreparedStatement prepareStatement(String sql, String[] columnNames)
      throws SQLException {
    PreparedStatement p = prepareStatement(sql);
    basaltMeta().askGeneratedKeys(((AvaticaStatement) p).getId(),
        GeneratedKeys.named(columnNames));
    return p;
  }

  /** JDBC's {@code autoGeneratedKeys} flag as what it asks for (null: nothing). */
  static GeneratedKeys generatedKeys(int autoGeneratedKeys)
      throws SQLException {
    return switch (autoGeneratedKeys) {
      case java.sql.Statement.RETURN_GENERATED_KEYS ->
          GeneratedKeys.generated();
      case java.sql.Statement.NO_GENERATED_KEYS -> null;
      default -> throw new SQLException("autoGeneratedKeys is " + autoGeneratedKeys
          + ", neither Statement.RETURN_GENERATED_KEYS (1) nor NO_GENERATED_KEYS (2)",
          io.basaltdb.sql.SqlStates.INVALID_ATTRIBUTE_VALUE);
    };
  }

  /** {@code getGeneratedKeys} of statement {@code id}: the keys its last execution wrote. */
  java.sql.ResultSet generatedKeys(AvaticaStatement statement) throws SQLException {
    GeneratedKeys keys = basaltMeta().generatedKeys(statement.getId());
    return Translated.call(() -> createResultSet(basaltMeta().generatedKeysResultSet(keys),
        new org.apache.calcite.avatica.QueryState()));
  }

  /**
   * The connection's time zone, read from its properties once (Avatica parses them for every
   * result set it makes; a connection's properties are fixed when it opens).
   */
  @Override
  public java.util.TimeZone getTimeZone() {
    java.util.TimeZone z = timeZone;
    if (z == null) {
      timeZone = z = super.getTimeZone();
    }
    return (java.util.TimeZone) z.clone(); // a time zone can be changed: each caller its own
  }

  /** The connection's time zone as an id: immutable, so shared (a parameter's date asks it). */
  java.time.ZoneId zoneId() {
    java.time.ZoneId id = zoneId;
    if (id == null) {
      zoneId = id = getTimeZone().toZoneId();
    }
    return id;
  }

  @Override
  public void commit() throws SQLException {
    Translated.run(() -> super.commit());
  }

  @Override
  public void rollback() throws SQLException {
    Translated.run(() -> super.rollback());
  }

  /**
   * READ COMMITTED (a snapshot per statement), REPEATABLE READ (snapshot isolation: one per
   * transaction), SERIALIZABLE (snapshot isolation and a commit-time check of what was read);
   * READ UNCOMMITTED is raised to READ COMMITTED. NONE cannot be chosen (auto-commit is the way
   * to write without a transaction): 0A000; over a storage without transactions (HBase) NONE is
   * the level, and the only one.
   */
  @Override
  public void setTransactionIsolation(int level) throws SQLException {
    switch (level) {
      case TRANSACTION_READ_UNCOMMITTED, TRANSACTION_READ_COMMITTED, TRANSACTION_REPEATABLE_READ,
          TRANSACTION_SERIALIZABLE -> {
        if (!storage().keepsTransactions()) {
          throw new java.sql.SQLFeatureNotSupportedException("the storage at "
              + storage().location() + " keeps no transactions: isolation level " + level
              + " cannot be had", SqlStates.FEATURE_NOT_SUPPORTED);
        }
      }
      case TRANSACTION_NONE -> {
        if (storage().keepsTransactions()) {
          throw new java.sql.SQLFeatureNotSupportedException("isolation level NONE cannot be"
              + " chosen: auto-commit writes without a transaction",
                  SqlStates.FEATURE_NOT_SUPPORTED);
        }
        return; // the level of a storage without transactions (HBase) already
      }
      default -> throw new SQLException("no isolation level " + level,
          SqlStates.INVALID_ATTRIBUTE_VALUE);
    }
    Translated.run(() -> super.setTransactionIsolation(level));
  }

  @Override
  public java.sql.Savepoint setSavepoint() throws SQLException {
    checkOpenConnection();
    return new NamedSavepoint(Translated.call(() -> basaltMeta().setSavepoint(null)), true);
  }

  @Override
  public java.sql.Savepoint setSavepoint(String name) throws SQLException {
    checkOpenConnection();
    if (name == null) {
      throw new SQLException("a savepoint's name is null", SqlStates.INVALID_SAVEPOINT);
    }
    return new NamedSavepoint(Translated.call(() -> basaltMeta().setSavepoint(name)), false);
  }

  @Override
  public void rollback(java.sql.Savepoint savepoint) throws SQLException {
    checkOpenConnection();
    String name = NamedSavepoint.nameOf(savepoint);
    Translated.run(() -> basaltMeta().rollbackToSavepoint(name));
  }

  @Override
  public void releaseSavepoint(java.sql.Savepoint savepoint) throws SQLException {
    checkOpenConnection();
    String name = NamedSavepoint.nameOf(savepoint);
    Translated.run(() -> basaltMeta().releaseSavepoint(name));
  }

  private void checkOpenConnection() throws SQLException {
    if (isClosed()) {
      throw new SQLException("connection is closed", SqlStates.CONNECTION_DOES_NOT_EXIST);
    }
  }

  /** A savepoint of this driver: its name in the transaction. */
  private record NamedSavepoint(String name, boolean unnamed) implements java.sql.Savepoint {
    static String nameOf(java.sql.Savepoint s) throws SQLException {
      if (s instanceof NamedSavepoint n) {
        return n.name;
      }
      throw new SQLException("not a savepoint of a Basalt connection: " + s,
          SqlStates.INVALID_SAVEPOINT);
    }

    @Override
    public int getSavepointId() throws SQLException {
      if (!unnamed) {
        throw new SQLException("savepoint " + name + " is named, it has no id",
            SqlStates.INVALID_SAVEPOINT);
      }
      return Integer.parseInt(name.substring(name.lastIndexOf('_') + 1));
    }

    @Override
    public String getSavepointName() throws SQLException {
      if (unnamed) {
        throw new SQLException("an unnamed savepoint has no name", SqlStates.INVALID_SAVEPOINT);
      }
      return name;
    }
  }

  @Override
  public void setAutoCommit(boolean autoCommit) throws SQLException {
    Translated.run(() -> super.setAutoCommit(autoCommit));
  }

  /**
   * Closes the connection's statements first, and with them their open result sets (their
   * scanners and snapshots), as JDBC asks; Avatica's connection leaves them open.
   */
  @Override
  public void close() throws SQLException {
    try {
      if (!isClosed()) {
        for (org.apache.calcite.avatica.AvaticaStatement s
            : new java.util.ArrayList<>(statementMap.values())) {
          try {
            s.close();
          } catch (SQLException | RuntimeException e) {
            // the connection closes all the same
          }
        }
      }
      super.close();
    } finally {
      if (closed.compareAndSet(false, true)) {
        onClose.run();
      }
    }
  }

  @Override
  public <T> T unwrap(Class<T> iface) throws SQLException {
    if (iface == CalciteConnection.class) {
      return iface.cast(basaltMeta().calcite());
    }
    return super.unwrap(iface);
  }

  @Override
  public boolean isWrapperFor(Class<?> iface) throws SQLException {
    return iface == CalciteConnection.class || super.isWrapperFor(iface);
  }

  // ---------------------------------------------- what Avatica refused without a word

  /** Stored procedures: none in Basalt (0A000 naming the method). */
  @Override
  public java.sql.CallableStatement prepareCall(String sql) throws SQLException {
    throw Unsupported.method("Connection.prepareCall");
  }

  @Override
  public java.sql.CallableStatement prepareCall(String sql, int type, int concurrency)
      throws SQLException {
    throw Unsupported.method("Connection.prepareCall");
  }

  @Override
  public java.sql.CallableStatement prepareCall(String sql, int type, int concurrency,
      int holdability) throws SQLException {
    throw Unsupported.method("Connection.prepareCall");
  }

  /** The statement as it is: Basalt has no JDBC escape syntax to translate. */
  @Override
  public String nativeSQL(String sql) throws SQLException {
    checkOpen();
    return sql;
  }

  /** No user-defined types: the map is empty. */
  @Override
  public java.util.Map<String, Class<?>> getTypeMap() throws SQLException {
    checkOpen();
    return new java.util.HashMap<>();
  }

  /** An empty map is accepted (no user-defined types); a mapping is not supported. */
  @Override
  public void setTypeMap(java.util.Map<String, Class<?>> map) throws SQLException {
    checkOpen();
    if (map != null && !map.isEmpty()) {
      throw Unsupported.method("Connection.setTypeMap (user-defined types)");
    }
  }

  @Override
  public java.sql.Clob createClob() throws SQLException {
    throw Unsupported.method("Connection.createClob (bind a String)");
  }

  @Override
  public java.sql.Blob createBlob() throws SQLException {
    throw Unsupported.method("Connection.createBlob (bind a byte[])");
  }

  @Override
  public java.sql.NClob createNClob() throws SQLException {
    throw Unsupported.method("Connection.createNClob (bind a String)");
  }

  @Override
  public java.sql.SQLXML createSQLXML() throws SQLException {
    throw Unsupported.method("Connection.createSQLXML");
  }

  @Override
  public java.sql.Struct createStruct(String typeName, Object[] attributes)
      throws SQLException {
    throw Unsupported.method("Connection.createStruct");
  }

  @Override
  public void setShardingKey(java.sql.ShardingKey key) throws SQLException {
    throw Unsupported.method("Connection.setShardingKey");
  }

  @Override
  public void setShardingKey(java.sql.ShardingKey key, java.sql.ShardingKey superKey)
      throws SQLException {
    throw Unsupported.method("Connection.setShardingKey");
  }

  @Override
  public boolean setShardingKeyIfValid(java.sql.ShardingKey key, int timeout)
      throws SQLException {
    throw Unsupported.method("Connection.setShardingKeyIfValid");
  }

  @Override
  public boolean setShardingKeyIfValid(java.sql.ShardingKey key, java.sql.ShardingKey superKey,
      int timeout) throws SQLException {
    throw Unsupported.method("Connection.setShardingKeyIfValid");
  }

  /** The checks of values bound to a statement of {@code signature}'s. */
  synchronized ParameterChecks parameterChecks(Meta.Signature signature) {
    for (ParameterChecks c : recentChecks) {
      if (c != null && c.signature == signature) {
        return c;
      }
    }
    ParameterChecks c = new ParameterChecks(signature);
    recentChecks[nextChecks] = c;
    nextChecks = (nextChecks + 1) % recentChecks.length;
    return c;
  }
}
