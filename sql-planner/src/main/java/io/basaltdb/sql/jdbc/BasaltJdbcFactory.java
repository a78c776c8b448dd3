package io.basaltdb.sql.jdbc;

import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.util.Properties;
import java.util.TimeZone;
import org.apache.calcite.avatica.AvaticaConnection;
import org.apache.calcite.avatica.AvaticaDatabaseMetaData;
import org.apache.calcite.avatica.AvaticaFactory;
import org.apache.calcite.avatica.AvaticaPreparedStatement;
import org.apache.calcite.avatica.AvaticaResultSet;
import org.apache.calcite.avatica.AvaticaResultSetMetaData;
import org.apache.calcite.avatica.AvaticaSpecificDatabaseMetaData;
import org.apache.calcite.avatica.AvaticaStatement;
import org.apache.calcite.avatica.Meta;
import org.apache.calcite.avatica.QueryState;
import org.apache.calcite.avatica.UnregisteredDriver;

/**
 * Basalt's JDBC objects (Avatica's generic ones, subclassed for SQLStates and bound-value
 * checks) over the connection's {@link BasaltMeta}.
 * Instantiated by name by Avatica's driver (a public no-argument constructor).
 */
public final class BasaltJdbcFactory implements AvaticaFactory {
  @Override
  public int getJdbcMajorVersion() {
    return 4;
  }

  @Override
  public int getJdbcMinorVersion() {
    return 1;
  }

  @Override
  public AvaticaConnection newConnection(UnregisteredDriver driver, AvaticaFactory factory,
      String url, Properties info) {
    return new BasaltConnection(driver, factory, url, info);
  }

  @Override
  public AvaticaStatement newStatement(AvaticaConnection connection, Meta.StatementHandle h,
      int resultSetType, int resultSetConcurrency, int resultSetHoldability) {
    return new BasaltStatement(connection, h, resultSetType, resultSetConcurrency,
        resultSetHoldability);
  }

  @Override
  public AvaticaPreparedStatement newPreparedStatement(AvaticaConnection connection,
      Meta.StatementHandle h, Meta.Signature signature, int resultSetType,
      int resultSetConcurrency, int resultSetHoldability) throws SQLException {
    return new BasaltPreparedStatement(connection, h, signature, resultSetType,
        resultSetConcurrency, resultSetHoldability);
  }

  @Override
  public AvaticaResultSet newResultSet(AvaticaStatement statement, QueryState state,
      Meta.Signature signature, TimeZone timeZone, Meta.Frame firstFrame)
      throws SQLException {
    ResultSetCopies.Maker maker = () -> new BasaltResultSet(statement, state, signature,
        newResultSetMetaData(statement, signature), timeZone, firstFrame);
    return statement instanceof BasaltPreparedStatement p
        ? p.resultSets.next(statement, state, signature, timeZone, firstFrame, maker)
        : maker.make();
  }

  @Override
  public AvaticaSpecificDatabaseMetaData newDatabaseMetaData(AvaticaConnection connection) {
    return new DatabaseMetaData(connection);
  }

  @Override
  public ResultSetMetaData newResultSetMetaData(AvaticaStatement statement,
      Meta.Signature signature) {
    return new ColumnsMetaData(statement, signature);
  }

  /**
   * Avatica's, but a TIMESTAMP WITH TIME ZONE column ({@link Instants}) is reported as JDBC's
   * {@code TIMESTAMP_WITH_TIMEZONE} of {@link java.time.OffsetDateTime}s, as H2 reports it.
   */
  private static final class ColumnsMetaData extends AvaticaResultSetMetaData {
    private final Meta.Signature signature;

    ColumnsMetaData(AvaticaStatement statement, Meta.Signature signature) {
      super(statement, null, signature);
      this.signature = signature;
    }

    @Override
    public int getColumnType(int column) throws SQLException {
      return Instants.isInstant(signature, column) ? java.sql.Types.TIMESTAMP_WITH_TIMEZONE
          : super.getColumnType(column);
    }

    @Override
    public String getColumnTypeName(int column) throws SQLException {
      return Instants.isInstant(signature, column) ? Instants.SQL_TYPE_NAME
          : super.getColumnTypeName(column);
    }

    @Override
    public String getColumnClassName(int column) throws SQLException {
      return Instants.isInstant(signature, column) ? java.time.OffsetDateTime.class.getName()
          : super.getColumnClassName(column);
    }
  }

  /** Avatica's metadata; quoted identifiers are exact in Basalt, whatever their case. */
  private static final class DatabaseMetaData extends AvaticaDatabaseMetaData {
    private final BasaltConnection owner;

    DatabaseMetaData(AvaticaConnection connection) {
      super(connection);
      this.owner = (BasaltConnection) connection;
    }

    @Override
    public boolean supportsMixedCaseQuotedIdentifiers() {
      return true;
    }

    private boolean keepsTransactions() {
      return owner.storage().keepsTransactions();
    }

    /** Embedded: yes (doc/transactions.md); over HBase, no (one row is atomic, not several). */
    @Override
    public boolean supportsTransactions() {
      return keepsTransactions();
    }

    @Override
    public boolean supportsTransactionIsolationLevel(int level) {
      if (!keepsTransactions()) {
        return level == java.sql.Connection.TRANSACTION_NONE;
      }
      return level == java.sql.Connection.TRANSACTION_READ_UNCOMMITTED
          || level == java.sql.Connection.TRANSACTION_READ_COMMITTED
          || level == java.sql.Connection.TRANSACTION_REPEATABLE_READ
          || level == java.sql.Connection.TRANSACTION_SERIALIZABLE;
    }

    @Override
    public int getDefaultTransactionIsolation() {
      return BasaltMeta.defaultIsolation(owner.storage());
    }

    @Override
    public boolean supportsSavepoints() {
      return keepsTransactions();
    }

    @Override
    public boolean supportsMultipleTransactions() {
      return keepsTransactions();
    }

    /** Generated keys are answered ({@code exec.context.GeneratedKeys}): Spring asks first. */
    @Override
    public boolean supportsGetGeneratedKeys() {
      return true;
    }

    /** {@code ALTER TABLE ... ADD COLUMN} and {@code DROP COLUMN}. */
    @Override
    public boolean supportsAlterTableWithAddColumn() {
      return true;
    }

    @Override
    public boolean supportsAlterTableWithDropColumn() {
      return true;
    }
  }
}
