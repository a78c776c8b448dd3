package io.basaltdb.sql.jdbc;

import java.util.List;
import java.util.Map;
import org.apache.calcite.avatica.Meta;
import org.apache.calcite.avatica.MissingResultsException;
import org.apache.calcite.avatica.NoSuchStatementException;
import org.apache.calcite.avatica.QueryState;
import org.apache.calcite.avatica.remote.TypedValue;

/**
 * A {@link Meta} that passes every call to another: the base of {@link BasaltMeta}, which
 * overrides what Basalt owns and leaves the rest to Calcite's. Nothing but forwarding here.
 */
abstract class ForwardingMeta implements Meta {
  protected final Meta delegate;

  ForwardingMeta(Meta delegate) {
    this.delegate = delegate;
  }

  @Override
  public Map<DatabaseProperty, Object> getDatabaseProperties(ConnectionHandle ch) {
    return delegate.getDatabaseProperties(ch);
  }

  @Override
  public MetaResultSet getTables(ConnectionHandle ch, String catalog, Pat schemaPattern,
      Pat tableNamePattern, List<String> typeList) {
    return delegate.getTables(ch, catalog, schemaPattern, tableNamePattern, typeList);
  }

  @Override
  public MetaResultSet getColumns(ConnectionHandle ch, String catalog, Pat schemaPattern,
      Pat tableNamePattern, Pat columnNamePattern) {
    return delegate.getColumns(ch, catalog, schemaPattern, tableNamePattern, columnNamePattern);
  }

  @Override
  public MetaResultSet getSchemas(ConnectionHandle ch, String catalog, Pat schemaPattern) {
    return delegate.getSchemas(ch, catalog, schemaPattern);
  }

  @Override
  public MetaResultSet getCatalogs(ConnectionHandle ch) {
    return delegate.getCatalogs(ch);
  }

  @Override
  public MetaResultSet getTableTypes(ConnectionHandle ch) {
    return delegate.getTableTypes(ch);
  }

  @Override
  public MetaResultSet getProcedures(ConnectionHandle ch, String catalog, Pat schemaPattern,
      Pat procedureNamePattern) {
    return delegate.getProcedures(ch, catalog, schemaPattern, procedureNamePattern);
  }

  @Override
  public MetaResultSet getProcedureColumns(ConnectionHandle ch, String catalog,
      Pat schemaPattern, Pat procedureNamePattern, Pat columnNamePattern) {
    return delegate.getProcedureColumns(ch, catalog, schemaPattern, procedureNamePattern,
        columnNamePattern);
  }

  @Override
  public MetaResultSet getColumnPrivileges(ConnectionHandle ch, String catalog, String schema,
      String table, Pat columnNamePattern) {
    return delegate.getColumnPrivileges(ch, catalog, schema, table, columnNamePattern);
  }

  @Override
  public MetaResultSet getTablePrivileges(ConnectionHandle ch, String catalog,
      Pat schemaPattern, Pat tableNamePattern) {
    return delegate.getTablePrivileges(ch, catalog, schemaPattern, tableNamePattern);
  }

  @Override
  public MetaResultSet getBestRowIdentifier(ConnectionHandle ch, String catalog, String schema,
      String table, int scope, boolean nullable) {
    return delegate.getBestRowIdentifier(ch, catalog, schema, table, scope, nullable);
  }

  @Override
  public MetaResultSet getVersionColumns(ConnectionHandle ch, String catalog, String schema,
      String table) {
    return delegate.getVersionColumns(ch, catalog, schema, table);
  }

  @Override
  public MetaResultSet getPrimaryKeys(ConnectionHandle ch, String catalog, String schema,
      String table) {
    return delegate.getPrimaryKeys(ch, catalog, schema, table);
  }

  @Override
  public MetaResultSet getImportedKeys(ConnectionHandle ch, String catalog, String schema,
      String table) {
    return delegate.getImportedKeys(ch, catalog, schema, table);
  }

  @Override
  public MetaResultSet getExportedKeys(ConnectionHandle ch, String catalog, String schema,
      String table) {
    return delegate.getExportedKeys(ch, catalog, schema, table);
  }

  @Override
  public MetaResultSet getCrossReference(ConnectionHandle ch, String parentCatalog,
      String parentSchema, String parentTable, String foreignCatalog, String foreignSchema,
      String foreignTable) {
    return delegate.getCrossReference(ch, parentCatalog, parentSchema, parentTable,
        foreignCatalog, foreignSchema, foreignTable);
  }

  @Override
  public MetaResultSet getTypeInfo(ConnectionHandle ch) {
    return delegate.getTypeInfo(ch);
  }

  @Override
  public MetaResultSet getIndexInfo(ConnectionHandle ch, String catalog, String schema,
      String table, boolean unique, boolean approximate) {
    return delegate.getIndexInfo(ch, catalog, schema, table, unique, approximate);
  }

  @Override
  public MetaResultSet getUDTs(ConnectionHandle ch, String catalog, Pat schemaPattern,
      Pat typeNamePattern, int[] types) {
    return delegate.getUDTs(ch, catalog, schemaPattern, typeNamePattern, types);
  }

  @Override
  public MetaResultSet getSuperTypes(ConnectionHandle ch, String catalog, Pat schemaPattern,
      Pat typeNamePattern) {
    return delegate.getSuperTypes(ch, catalog, schemaPattern, typeNamePattern);
  }

  @Override
  public MetaResultSet getSuperTables(ConnectionHandle ch, String catalog, Pat schemaPattern,
      Pat tableNamePattern) {
    return delegate.getSuperTables(ch, catalog, schemaPattern, tableNamePattern);
  }

  @Override
  public MetaResultSet getAttributes(ConnectionHandle ch, String catalog, Pat schemaPattern,
      Pat typeNamePattern, Pat attributeNamePattern) {
    return delegate.getAttributes(ch, catalog, schemaPattern, typeNamePattern,
        attributeNamePattern);
  }

  @Override
  public MetaResultSet getClientInfoProperties(ConnectionHandle ch) {
    return delegate.getClientInfoProperties(ch);
  }

  @Override
  public MetaResultSet getFunctions(ConnectionHandle ch, String catalog, Pat schemaPattern,
      Pat functionNamePattern) {
    return delegate.getFunctions(ch, catalog, schemaPattern, functionNamePattern);
  }

  @Override
  public MetaResultSet getFunctionColumns(ConnectionHandle ch, String catalog,
      Pat schemaPattern, Pat functionNamePattern, Pat columnNamePattern) {
    return delegate.getFunctionColumns(ch, catalog, schemaPattern, functionNamePattern,
        columnNamePattern);
  }

  @Override
  public MetaResultSet getPseudoColumns(ConnectionHandle ch, String catalog, Pat schemaPattern,
      Pat tableNamePattern, Pat columnNamePattern) {
    return delegate.getPseudoColumns(ch, catalog, schemaPattern, tableNamePattern,
        columnNamePattern);
  }

  @Override
  public Iterable<Object> createIterable(StatementHandle stmt, QueryState state,
      Signature signature, List<TypedValue> parameters, Frame firstFrame) {
    return delegate.createIterable(stmt, state, signature, parameters, firstFrame);
  }

  @Override
  public StatementHandle prepare(ConnectionHandle ch, String sql, long maxRowCount) {
    return delegate.prepare(ch, sql, maxRowCount);
  }

  @Override
  @SuppressWarnings("deprecation")
  public ExecuteResult prepareAndExecute(StatementHandle h, String sql, long maxRowCount,
      PrepareCallback callback) throws NoSuchStatementException {
    return delegate.prepareAndExecute(h, sql, maxRowCount, callback);
  }

  @Override
  public ExecuteResult prepareAndExecute(StatementHandle h, String sql, long maxRowCount,
      int maxRowsInFirstFrame, PrepareCallback callback) throws NoSuchStatementException {
    return delegate.prepareAndExecute(h, sql, maxRowCount, maxRowsInFirstFrame, callback);
  }

  @Override
  public ExecuteBatchResult prepareAndExecuteBatch(StatementHandle h, List<String> sqlCommands)
      throws NoSuchStatementException {
    return delegate.prepareAndExecuteBatch(h, sqlCommands);
  }

  @Override
  public ExecuteBatchResult executeBatch(StatementHandle h,
      List<List<TypedValue>> parameterValues) throws NoSuchStatementException {
    return delegate.executeBatch(h, parameterValues);
  }

  @Override
  public Frame fetch(StatementHandle h, long offset, int fetchMaxRowCount)
      throws NoSuchStatementException, MissingResultsException {
    return delegate.fetch(h, offset, fetchMaxRowCount);
  }

  @Override
  @SuppressWarnings("deprecation")
  public ExecuteResult execute(StatementHandle h, List<TypedValue> parameterValues,
      long maxRowCount) throws NoSuchStatementException {
    return delegate.execute(h, parameterValues, maxRowCount);
  }

  @Override
  public ExecuteResult execute(StatementHandle h, List<TypedValue> parameterValues,
      int maxRowsInFirstFrame) throws NoSuchStatementException {
    return delegate.execute(h, parameterValues, maxRowsInFirstFrame);
  }

  @Override
  public StatementHandle createStatement(ConnectionHandle ch) {
    return delegate.createStatement(ch);
  }

  @Override
  public void closeStatement(StatementHandle h) {
    delegate.closeStatement(h);
  }

  @Override
  public void openConnection(ConnectionHandle ch, Map<String, String> info) {
    delegate.openConnection(ch, info);
  }

  @Override
  public void closeConnection(ConnectionHandle ch) {
    delegate.closeConnection(ch);
  }

  @Override
  public boolean syncResults(StatementHandle sh, QueryState state, long offset)
      throws NoSuchStatementException {
    return delegate.syncResults(sh, state, offset);
  }

  @Override
  public void commit(ConnectionHandle ch) {
    delegate.commit(ch);
  }

  @Override
  public void rollback(ConnectionHandle ch) {
    delegate.rollback(ch);
  }

  @Override
  public ConnectionProperties connectionSync(ConnectionHandle ch,
      ConnectionProperties connProps) {
    return delegate.connectionSync(ch, connProps);
  }
}
