package io.basaltdb.sql.jdbc;

import java.util.List;
import java.util.Map;
import org.apache.calcite.avatica.Meta;
import org.apache.calcite.avatica.MissingResultsException;
import org.apache.calcite.avatica.NoSuchStatementException;
import org.apache.calcite.avatica.QueryState;
import org.apache.calcite.avatica.remote.TypedValue;

/**
 * A {@link Meta} that passes every call to the meta of the call's connection
 * ({@link #delegate}), through {@link #call} (a subclass may translate what it throws): the
 * base of {@link BasaltMeta} (one connection; Calcite's meta behind it) and {@link ServerMeta}
 * (many connections; a {@link BasaltMeta} each). Nothing but forwarding here.
 */
public abstract class ForwardingMeta implements Meta {
  /** A call on a meta that may name a statement it does not know. */
  @FunctionalInterface
  public interface MetaCall<T> {
    T apply(Meta meta) throws NoSuchStatementException, MissingResultsException;
  }

  /** A call on a meta that returns nothing. */
  @FunctionalInterface
  public interface MetaAction {
    void apply(Meta meta) throws NoSuchStatementException, MissingResultsException;
  }

  /** The meta that serves connection {@code connectionId}. */
  protected abstract Meta delegate(String connectionId);

  /**
   * Runs {@code call} on the connection's meta: every forwarded call goes through here (a
   * subclass may translate what it throws).
   */
  protected <T> T invoke(String connectionId, MetaCall<T> call)
      throws NoSuchStatementException, MissingResultsException {
    return call.apply(delegate(connectionId));
  }

  protected final <T> T callChecked(String connectionId, MetaCall<T> call)
      throws NoSuchStatementException {
    try {
      return invoke(connectionId, call);
    } catch (MissingResultsException e) {
      throw new IllegalStateException(e); // only fetch throws it, and it calls invoke
    }
  }

  protected final <T> T call(String connectionId, MetaCall<T> call) {
    try {
      return callChecked(connectionId, call);
    } catch (NoSuchStatementException e) {
      throw new IllegalStateException(e); // not thrown by the calls made this way
    }
  }

  protected final void runChecked(String connectionId, MetaAction action)
      throws NoSuchStatementException {
    callChecked(connectionId, m -> {
      action.apply(m);
      return null;
    });
  }

  protected final void run(String connectionId, MetaAction action) {
    call(connectionId, m -> {
      action.apply(m);
      return null;
    });
  }

  @Override
  public Map<DatabaseProperty, Object> getDatabaseProperties(ConnectionHandle ch) {
    return call(ch.id, m -> m.getDatabaseProperties(ch));
  }

  @Override
  public MetaResultSet getTables(ConnectionHandle ch, String catalog, Pat schemaPattern,
      Pat tableNamePattern, List<String> typeList) {
    return call(ch.id, m -> m.getTables(ch, catalog, schemaPattern, tableNamePattern, typeList));
  }

  @Override
  public MetaResultSet getColumns(ConnectionHandle ch, String catalog, Pat schemaPattern,
      Pat tableNamePattern, Pat columnNamePattern) {
    return call(ch.id, m -> m.getColumns(ch, catalog, schemaPattern, tableNamePattern, columnNamePattern));
  }

  @Override
  public MetaResultSet getSchemas(ConnectionHandle ch, String catalog, Pat schemaPattern) {
    return call(ch.id, m -> m.getSchemas(ch, catalog, schemaPattern));
  }

  @Override
  public MetaResultSet getCatalogs(ConnectionHandle ch) {
    return call(ch.id, m -> m.getCatalogs(ch));
  }

  @Override
  public MetaResultSet getTableTypes(ConnectionHandle ch) {
    return call(ch.id, m -> m.getTableTypes(ch));
  }

  @Override
  public MetaResultSet getProcedures(ConnectionHandle ch, String catalog, Pat schemaPattern,
      Pat procedureNamePattern) {
    return call(ch.id, m -> m.getProcedures(ch, catalog, schemaPattern, procedureNamePattern));
  }

  @Override
  public MetaResultSet getProcedureColumns(ConnectionHandle ch, String catalog,
      Pat schemaPattern, Pat procedureNamePattern, Pat columnNamePattern) {
    return call(ch.id, m -> m.getProcedureColumns(ch, catalog, schemaPattern, procedureNamePattern,
        columnNamePattern));
  }

  @Override
  public MetaResultSet getColumnPrivileges(ConnectionHandle ch, String catalog, String schema,
      String table, Pat columnNamePattern) {
    return call(ch.id, m -> m.getColumnPrivileges(ch, catalog, schema, table, columnNamePattern));
  }

  @Override
  public MetaResultSet getTablePrivileges(ConnectionHandle ch, String catalog,
      Pat schemaPattern, Pat tableNamePattern) {
    return call(ch.id, m -> m.getTablePrivileges(ch, catalog, schemaPattern, tableNamePattern));
  }

  @Override
  public MetaResultSet getBestRowIdentifier(ConnectionHandle ch, String catalog, String schema,
      String table, int scope, boolean nullable) {
    return call(ch.id, m -> m.getBestRowIdentifier(ch, catalog, schema, table, scope, nullable));
  }

  @Override
  public MetaResultSet getVersionColumns(ConnectionHandle ch, String catalog, String schema,
      String table) {
    return call(ch.id, m -> m.getVersionColumns(ch, catalog, schema, table));
  }

  @Override
  public MetaResultSet getPrimaryKeys(ConnectionHandle ch, String catalog, String schema,
      String table) {
    return call(ch.id, m -> m.getPrimaryKeys(ch, catalog, schema, table));
  }

  @Override
  public MetaResultSet getImportedKeys(ConnectionHandle ch, String catalog, String schema,
      String table) {
    return call(ch.id, m -> m.getImportedKeys(ch, catalog, schema, table));
  }

  @Override
  public MetaResultSet getExportedKeys(ConnectionHandle ch, String catalog, String schema,
      String table) {
    return call(ch.id, m -> m.getExportedKeys(ch, catalog, schema, table));
  }

  @Override
  public MetaResultSet getCrossReference(ConnectionHandle ch, String parentCatalog,
      String parentSchema, String parentTable, String foreignCatalog, String foreignSchema,
      String foreignTable) {
    return call(ch.id, m -> m.getCrossReference(ch, parentCatalog, parentSchema, parentTable,
        foreignCatalog, foreignSchema, foreignTable));
  }

  @Override
  public MetaResultSet getTypeInfo(ConnectionHandle ch) {
    return call(ch.id, m -> m.getTypeInfo(ch));
  }

  @Override
  public MetaResultSet getIndexInfo(ConnectionHandle ch, String catalog, String schema,
      String table, boolean unique, boolean approximate) {
    return call(ch.id, m -> m.getIndexInfo(ch, catalog, schema, table, unique, approximate));
  }

  @Override
  public MetaResultSet getUDTs(ConnectionHandle ch, String catalog, Pat schemaPattern,
      Pat typeNamePattern, int[] types) {
    return call(ch.id, m -> m.getUDTs(ch, catalog, schemaPattern, typeNamePattern, types));
  }

  @Override
  public MetaResultSet getSuperTypes(ConnectionHandle ch, String catalog, Pat schemaPattern,
      Pat typeNamePattern) {
    return call(ch.id, m -> m.getSuperTypes(ch, catalog, schemaPattern, typeNamePattern));
  }

  @Override
  public MetaResultSet getSuperTables(ConnectionHandle ch, String catalog, Pat schemaPattern,
      Pat tableNamePattern) {
    return call(ch.id, m -> m.getSuperTables(ch, catalog, schemaPattern, tableNamePattern));
  }

  @Override
  public MetaResultSet getAttributes(ConnectionHandle ch, String catalog, Pat schemaPattern,
      Pat typeNamePattern, Pat attributeNamePattern) {
    return call(ch.id, m -> m.getAttributes(ch, catalog, schemaPattern, typeNamePattern,
        attributeNamePattern));
  }

  @Override
  public MetaResultSet getClientInfoProperties(ConnectionHandle ch) {
    return call(ch.id, m -> m.getClientInfoProperties(ch));
  }

  @Override
  public MetaResultSet getFunctions(ConnectionHandle ch, String catalog, Pat schemaPattern,
      Pat functionNamePattern) {
    return call(ch.id, m -> m.getFunctions(ch, catalog, schemaPattern, functionNamePattern));
  }

  @Override
  public MetaResultSet getFunctionColumns(ConnectionHandle ch, String catalog,
      Pat schemaPattern, Pat functionNamePattern, Pat columnNamePattern) {
    return call(ch.id, m -> m.getFunctionColumns(ch, catalog, schemaPattern, functionNamePattern,
        columnNamePattern));
  }

  @Override
  public MetaResultSet getPseudoColumns(ConnectionHandle ch, String catalog, Pat schemaPattern,
      Pat tableNamePattern, Pat columnNamePattern) {
    return call(ch.id, m -> m.getPseudoColumns(ch, catalog, schemaPattern, tableNamePattern,
        columnNamePattern));
  }

  @Override
  public Iterable<Object> createIterable(StatementHandle stmt, QueryState state,
      Signature signature, List<TypedValue> parameters, Frame firstFrame) {
    return call(stmt.connectionId, m -> m.createIterable(stmt, state, signature, parameters, firstFrame));
  }

  @Override
  public StatementHandle prepare(ConnectionHandle ch, String sql, long maxRowCount) {
    return call(ch.id, m -> m.prepare(ch, sql, maxRowCount));
  }

  @Override
  @SuppressWarnings("deprecation")
  public ExecuteResult prepareAndExecute(StatementHandle h, String sql, long maxRowCount,
      PrepareCallback callback) throws NoSuchStatementException {
    return callChecked(h.connectionId, m -> m.prepareAndExecute(h, sql, maxRowCount, callback));
  }

  @Override
  public ExecuteResult prepareAndExecute(StatementHandle h, String sql, long maxRowCount,
      int maxRowsInFirstFrame, PrepareCallback callback) throws NoSuchStatementException {
    return callChecked(h.connectionId, m -> m.prepareAndExecute(h, sql, maxRowCount, maxRowsInFirstFrame, callback));
  }

  @Override
  public ExecuteBatchResult prepareAndExecuteBatch(StatementHandle h, List<String> sqlCommands)
      throws NoSuchStatementException {
    return callChecked(h.connectionId, m -> m.prepareAndExecuteBatch(h, sqlCommands));
  }

  @Override
  public ExecuteBatchResult executeBatch(StatementHandle h,
      List<List<TypedValue>> parameterValues) throws NoSuchStatementException {
    return callChecked(h.connectionId, m -> m.executeBatch(h, parameterValues));
  }

  @Override
  public Frame fetch(StatementHandle h, long offset, int fetchMaxRowCount)
      throws NoSuchStatementException, MissingResultsException {
    return invoke(h.connectionId, m -> m.fetch(h, offset, fetchMaxRowCount));
  }

  @Override
  @SuppressWarnings("deprecation")
  public ExecuteResult execute(StatementHandle h, List<TypedValue> parameterValues,
      long maxRowCount) throws NoSuchStatementException {
    return callChecked(h.connectionId, m -> m.execute(h, parameterValues, maxRowCount));
  }

  @Override
  public ExecuteResult execute(StatementHandle h, List<TypedValue> parameterValues,
      int maxRowsInFirstFrame) throws NoSuchStatementException {
    return callChecked(h.connectionId, m -> m.execute(h, parameterValues, maxRowsInFirstFrame));
  }

  @Override
  public StatementHandle createStatement(ConnectionHandle ch) {
    return call(ch.id, m -> m.createStatement(ch));
  }

  @Override
  public void closeStatement(StatementHandle h) {
    run(h.connectionId, m -> m.closeStatement(h));
  }

  @Override
  public void openConnection(ConnectionHandle ch, Map<String, String> info) {
    run(ch.id, m -> m.openConnection(ch, info));
  }

  @Override
  public void closeConnection(ConnectionHandle ch) {
    run(ch.id, m -> m.closeConnection(ch));
  }

  @Override
  public boolean syncResults(StatementHandle sh, QueryState state, long offset)
      throws NoSuchStatementException {
    return callChecked(sh.connectionId, m -> m.syncResults(sh, state, offset));
  }

  @Override
  public void commit(ConnectionHandle ch) {
    run(ch.id, m -> m.commit(ch));
  }

  @Override
  public void rollback(ConnectionHandle ch) {
    run(ch.id, m -> m.rollback(ch));
  }

  @Override
  public ConnectionProperties connectionSync(ConnectionHandle ch,
      ConnectionProperties connProps) {
    return call(ch.id, m -> m.connectionSync(ch, connProps));
  }
}
