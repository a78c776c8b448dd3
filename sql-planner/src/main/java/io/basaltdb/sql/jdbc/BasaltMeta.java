package io.basaltdb.sql.jdbc;

import io.basaltdb.sql.StatementStats;
import io.basaltdb.sql.exec.ConnectionTransaction;
import io.basaltdb.sql.exec.context.GeneratedKeys;
import io.basaltdb.sql.rel.BatchWrite;
import io.basaltdb.storage.Storage;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.calcite.DataContext;
import org.apache.calcite.avatica.AvaticaConnection;
import org.apache.calcite.avatica.AvaticaStatement;
import org.apache.calcite.avatica.Meta;
import org.apache.calcite.avatica.MetaImpl;
import org.apache.calcite.avatica.NoSuchStatementException;
import org.apache.calcite.avatica.QueryState;
import org.apache.calcite.avatica.remote.TypedValue;
import org.apache.calcite.jdbc.CalciteConnection;
import org.apache.calcite.jdbc.CalciteMetaImpl;
import org.apache.calcite.jdbc.CalcitePrepare;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Linq4j;

/**
 * The {@link Meta} of one Basalt connection: Avatica calls it for everything the connection
 * and its statements do. It owns a Calcite connection over the database (Basalt's parser,
 * planner and schemas; never seen by users) and Calcite's meta for it, to which it leaves
 * statement preparation and execution and most of the catalog metadata. Basalt's own:
 * <ul>
 *   <li>{@code commit}, {@code rollback}, auto-commit turned back on ({@code connectionSync})
 *       and {@code closeConnection}: the connection's transaction ({@link
 *       ConnectionTransaction}), and its isolation level;
 *   <li>{@code executeBatch}: a statement planned with a {@link BatchWrite} (a prepared
 *       {@code INSERT}/{@code UPSERT ... VALUES (?, ...)}) writes the whole batch at once, which
 *       Avatica hands over as an argument; others run row by row in Calcite's;
 *   <li>{@code getPrimaryKeys}: the key columns from the SQL catalog (Calcite has none).
 * </ul>
 *
 * <p>State: the Calcite connection, and the batch plans of the statements this connection
 * prepared (by statement id, from preparation until the statement closes). One meta
 * per {@link BasaltConnection}, created by Avatica as the connection is constructed.
 */
public final class BasaltMeta extends ForwardingMeta {
  private final BasaltConnection owner;
  private final Meta calciteMeta;
  private final CalciteConnection connection;
  private final Storage db;
  private final Map<Integer, BatchWrite> batches = new ConcurrentHashMap<>();
  /** Statements that asked for generated keys, by id ({@link GeneratedKeys}). */
  private final Map<Integer, GeneratedKeys> generatedKeys =
      new ConcurrentHashMap<>();
  /** The SQL of prepared statements that run only when executed (DDL, transaction control). */
  private final Map<Integer, String> deferred = new ConcurrentHashMap<>();
  private final Replans replans;
  /** The signatures of this connection's last prepared texts. */
  private final RecentPrepares recentPrepares = new RecentPrepares();
  /** The connection's time zone and locale for execution contexts, read at the first. */
  private volatile ExecutionContext.Settings executionSettings;
  /** The database's statement counts (statements, errors by SQLState). */
  private final StatementStats stats;

  private BasaltMeta(BasaltConnection owner, CalciteConnection connection, Storage db,
      Meta calciteMeta) {
    this.calciteMeta = calciteMeta;
    this.owner = owner;
    this.connection = connection;
    this.db = db;
    this.replans = new Replans(connection, db);
    this.stats = StatementStats.of(db);
  }

  /**
   * The meta of a {@link BasaltConnection} being constructed: opens the Calcite connection
   * with the same properties (the database under the key {@code Storage.class}).
   */
  static BasaltMeta create(AvaticaConnection avatica) {
    BasaltConnection owner = (BasaltConnection) avatica;
    Properties info = owner.properties();
    Storage db = (Storage) info.get(Storage.class);
    try {
      CalciteConnection c = BasaltConnections.calcite((Properties) info.clone());
      return new BasaltMeta(owner, c, db,
          (Meta) c.getProperties().get(CalciteMetaImpl.class));
    } catch (SQLException e) {
      throw new IllegalStateException("cannot open the SQL layer: " + e.getMessage(), e);
    }
  }

  @Override
  protected Meta delegate(String connectionId) {
    return calciteMeta;
  }

  /** Catalog metadata reads the connection's schemas: brought up to date with DDL first. */
  private void refreshSchemas() {
    io.basaltdb.sql.schema.BasaltSchema.refresh(db, connection.getRootSchema()
        .unwrap(org.apache.calcite.jdbc.CalciteSchema.class));
  }

  @Override
  public MetaResultSet getTables(ConnectionHandle ch, String catalog, Pat schemaPattern,
      Pat tableNamePattern, List<String> typeList) {
    refreshSchemas();
    return super.getTables(ch, catalog, schemaPattern, tableNamePattern, typeList);
  }

  @Override
  public MetaResultSet getColumns(ConnectionHandle ch, String catalog, Pat schemaPattern,
      Pat tableNamePattern, Pat columnNamePattern) {
    refreshSchemas();
    return super.getColumns(ch, catalog, schemaPattern, tableNamePattern, columnNamePattern);
  }

  @Override
  public MetaResultSet getSchemas(ConnectionHandle ch, String catalog, Pat schemaPattern) {
    refreshSchemas();
    return super.getSchemas(ch, catalog, schemaPattern);
  }

  /** The Calcite connection inside (for {@code unwrap(CalciteConnection.class)}). */
  CalciteConnection calcite() {
    return connection;
  }

  /** The flag {@code Statement.cancel()} sets, which the statement's execution reads. */
  AtomicBoolean cancelFlag(StatementHandle h) throws NoSuchStatementException {
    return ((AvaticaConnection) connection).getCancelFlag(h);
  }

  /**
   * Prepares with Calcite's meta and keeps the statement's batch plan, if it has one: every
   * prepared statement passes here, embedded ones and those of the server's clients.
   */
  @Override
  public StatementHandle prepare(ConnectionHandle ch, String sql, long maxRowCount) {
    if (io.basaltdb.sql.prepare.BasaltPrepare.mayRunWhenPrepared(sql)
        && new io.basaltdb.sql.prepare.BasaltPrepare().runsWhenPrepared(connection.createPrepareContext(),
            sql)) {
      // DDL and transaction control change things as they run: checked now, run at each execute
      StatementHandle h = calciteMeta.createStatement(ch);
      h.signature = Signature.create(List.of(), sql, List.of(), CursorFactory.OBJECT,
          StatementType.OTHER_DDL);
      deferred.put(h.id, sql);
      return h;
    }
    long version = io.basaltdb.sql.catalog.CatalogVersion.current(db);
    boolean keeps = io.basaltdb.sql.prepare.PlanCache.keepsPlans(db)
        && io.basaltdb.sql.prepare.CalciteInternals.hasConnectionSteps();
    String schema = keeps ? schema() : null;
    CalcitePrepare.CalciteSignature<?> again = keeps
        ? recentPrepares.get(sql, maxRowCount, version, schema) : null;
    StatementHandle h;
    if (again != null) {
      h = calciteMeta.createStatement(ch);
      try {
        io.basaltdb.sql.prepare.CalciteInternals.server(connection).getStatement(h)
            .setSignature(again);
      } catch (NoSuchStatementException e) {
        throw new AssertionError("a statement just made is missing", e);
      }
      h.signature = again;
      io.basaltdb.sql.prepare.PlanCache.countReuse(db);
    } else {
      h = calciteMeta.prepare(ch, sql, maxRowCount);
      if (keeps) {
        recentPrepares.keep(sql, maxRowCount, h.signature, version, schema);
      }
    }
    replans.planned(h.id, version);
    findBatchWrite(h.id, h.signature);
    return h;
  }

  /** The connection's default schema, or null. */
  private String schema() {
    try {
      return connection.getSchema();
    } catch (java.sql.SQLException e) {
      return null; // a closed connection: its preparation fails anyway
    }
  }

  private void findBatchWrite(int id, Signature signature) {
    batches.remove(id);
    if (signature instanceof CalcitePrepare.CalciteSignature<?> s) {
      for (Object v : s.internalParameters.values()) {
        if (v instanceof BatchWrite b) {
          batches.put(id, b);
        }
      }
    }
  }

  /**
   * Before an execution of prepared statement {@code h}: the keys of its last execution are
   * forgotten, and it is planned again if DDL moved the catalog since
   * ({@link Replans#replanIfStale}: the new signature, or null).
   */
  public Signature beforeExecution(StatementHandle h, Signature current)
      throws NoSuchStatementException {
    GeneratedKeys keys = generatedKeys.get(h.id);
    if (keys != null) {
      keys.clear();
    }
    Signature replanned = replans.replanIfStale(h, current);
    if (replanned != null) {
      findBatchWrite(h.id, replanned);
    }
    return replanned;
  }

  /** Calcite's prepare-and-execute, without its per-statement hook configuration. */
  @Override
  public ExecuteResult prepareAndExecute(StatementHandle h, String sql, long maxRowCount,
      PrepareCallback callback) throws NoSuchStatementException {
    return prepareAndExecute(h, sql, maxRowCount, -1, callback);
  }

  @Override
  public ExecuteResult prepareAndExecute(StatementHandle h, String sql, long maxRowCount,
      int maxRowsInFirstFrame, PrepareCallback callback) throws NoSuchStatementException {
    stats.statement(StatementKinds.of(sql));
    try {
      if (!PrepareAndExecute.AVAILABLE) {
        return super.prepareAndExecute(h, sql, maxRowCount, maxRowsInFirstFrame, callback);
      }
      return callChecked(h.connectionId,
          m -> PrepareAndExecute.run(connection, h, sql, maxRowCount, callback));
    } catch (RuntimeException e) {
      throw failed(e);
    }
  }

  /** {@code e}, a statement's failure, counted by its SQLState ({@link StatementStats}). */
  private RuntimeException failed(RuntimeException e) {
    stats.error(e, SqlErrors.sqlState(e));
    return e;
  }

  /** The batch plan of the prepared statement with this id, or null. */
  BatchWrite batchWrite(int statementId) {
    return batches.get(statementId);
  }

  /**
   * The rows of a statement. Avatica's result set asks without parameter values; Calcite's
   * meta would then read them from a statement of its own connection, which has none: those
   * of the Basalt prepared statement are passed.
   */
  @Override
  public Iterable<Object> createIterable(StatementHandle h, QueryState state,
      Signature signature, List<TypedValue> parameters, Frame firstFrame) {
    org.apache.calcite.avatica.AvaticaStatement statement = owner.statementMap.get(h.id);
    if ((parameters == null || parameters.isEmpty())
        && statement instanceof BasaltPreparedStatement p) {
      parameters = p.boundValues();
    }
    if (!(signature instanceof CalcitePrepare.CalciteSignature<?> s)) {
      return calciteMeta.createIterable(h, state, signature, parameters, firstFrame);
    }
    ExecutionContext.Settings settings = executionSettings;
    if (settings == null) {
      executionSettings = settings = new ExecutionContext.Settings(connection, db);
    }
    @SuppressWarnings("unchecked")
    CalcitePrepare.CalciteSignature<Object> run = (CalcitePrepare.CalciteSignature<Object>) s;
    return ExecutionContext.run(settings, h,
        statement instanceof TimedStatement t ? t.cancelFlag() : null, run, parameters,
        generatedKeys.get(h.id));
  }

  /**
   * A prepared statement deferred at preparation runs now; a prepared INSERT, UPSERT, UPDATE,
   * DELETE or MERGE runs in an {@link ExecutionContext}, as queries do; others run as Calcite's
   * meta runs them.
   */
  @Override
  public ExecuteResult execute(StatementHandle h, List<TypedValue> parameterValues,
      long maxRowCount) throws NoSuchStatementException {
    return execute(h, parameterValues, () -> super.execute(h, parameterValues, maxRowCount));
  }

  @Override
  public ExecuteResult execute(StatementHandle h, List<TypedValue> parameterValues,
      int maxRowsInFirstFrame) throws NoSuchStatementException {
    return execute(h, parameterValues,
        () -> super.execute(h, parameterValues, maxRowsInFirstFrame));
  }

  /** An execution by Calcite's meta, for the statements this one does not run itself. */
  private interface CalciteExecution {
    ExecuteResult run() throws NoSuchStatementException;
  }

  private ExecuteResult execute(StatementHandle h, List<TypedValue> parameterValues,
      CalciteExecution calcite) throws NoSuchStatementException {
    stats.statement(StatementKinds.of(h));
    try {
      return deferred.containsKey(h.id) ? runDeferred(h)
          : signature(h) instanceof CalcitePrepare.CalciteSignature<?> s && updates(s)
          ? runUpdate(h, s, parameterValues)
          : calcite.run();
    } catch (RuntimeException e) {
      throw failed(e);
    }
  }

  /** The signature of a Basalt prepared statement of this connection, else null. */
  private Signature signature(StatementHandle h) {
    return owner.statementMap.get(h.id) instanceof BasaltPreparedStatement p ? p.signature()
        : null;
  }

  private static boolean updates(Signature s) {
    return s.statementType != null && s.statementType.canUpdate();
  }

  /**
   * Runs a prepared data change as Calcite's meta would (its one row is the update count), but
   * in an {@link ExecutionContext}: Calcite's own data context parses the connection's time
   * zone and locale properties and fills a map of sixteen values at every execution.
   */
  private ExecuteResult runUpdate(StatementHandle h, Signature s, List<TypedValue> parameters) {
    java.util.Iterator<Object> rows = createIterable(h, null, s, parameters, null).iterator();
    long count = ((Number) rows.next()).longValue();
    while (rows.hasNext()) { // to the end: the execution's snapshot is released there
      rows.next();
    }
    return new ExecuteResult(List.of(MetaResultSet.count(h.connectionId, h.id, count)));
  }

  private ExecuteResult runDeferred(StatementHandle h) {
    try (java.sql.Statement s = connection.createStatement()) {
      s.execute(deferred.get(h.id));
    } catch (java.sql.SQLException e) {
      throw new io.basaltdb.sql.SqlStateException(SqlErrors.sqlState(e), e.getMessage(), e);
    }
    return new ExecuteResult(List.of(MetaResultSet.count(h.connectionId, h.id, 0)));
  }

  /** Statement {@code id} returns {@code keys} (null: none) from its next executions. */
  void askGeneratedKeys(int id, GeneratedKeys keys) {
    if (keys == null) {
      generatedKeys.remove(id);
    } else {
      generatedKeys.put(id, keys);
    }
  }

  /** The generated keys statement {@code id} asked for, or null. */
  GeneratedKeys generatedKeys(int id) {
    return generatedKeys.get(id);
  }

  /**
   * {@code getGeneratedKeys}: a result set of the rows {@code keys} holds (columns named and
   * typed as the table's; none when it asked by default and no row was written).
   */
  MetaResultSet generatedKeysResultSet(GeneratedKeys keys) {
    List<org.apache.calcite.avatica.ColumnMetaData> columns = new ArrayList<>();
    List<Map.Entry<String, Class<?>>> labels = keys == null ? List.of() : keys.labels();
    for (int i = 0; i < labels.size(); i++) {
      columns.add(MetaImpl.columnMetaData(labels.get(i).getKey(), i, labels.get(i).getValue(),
          true));
    }
    return resultSet(new ArrayList<>(keys == null ? List.of() : keys.rows()), columns);
  }

  @Override
  public void closeStatement(StatementHandle h) {
    generatedKeys.remove(h.id);
    replans.forget(h.id);
    deferred.remove(h.id);
    batches.remove(h.id);
    calciteMeta.closeStatement(h);
  }

  @Override
  public void commit(ConnectionHandle ch) {
    try {
      ConnectionTransaction.commit(connection);
    } catch (RuntimeException e) {
      throw failed(e);
    }
  }

  @Override
  public void rollback(ConnectionHandle ch) {
    ConnectionTransaction.rollback(connection); // Calcite's own rollback is unsupported
  }

  /**
   * Turning auto-commit back on commits what waits, as JDBC asks. The isolation level is
   * REPEATABLE READ until set (TRANSACTION_NONE over a storage without transactions);
   * READ UNCOMMITTED is raised to READ COMMITTED, as JDBC allows. A level set while a
   * transaction is open applies from the next one.
   */
  @Override
  public ConnectionProperties connectionSync(ConnectionHandle ch,
      ConnectionProperties connProps) {
    if (Boolean.TRUE.equals(connProps.isAutoCommit())
        && Boolean.FALSE.equals(calciteMeta.connectionSync(ch, new org.apache.calcite.avatica
            .ConnectionPropertiesImpl()).isAutoCommit())) {
      ConnectionTransaction.commit(connection);
    }
    Integer level = connProps.getTransactionIsolation();
    if (level != null && level == java.sql.Connection.TRANSACTION_READ_UNCOMMITTED) {
      connProps.setTransactionIsolation(java.sql.Connection.TRANSACTION_READ_COMMITTED);
    }
    ConnectionProperties p = calciteMeta.connectionSync(ch, connProps);
    if (p.getTransactionIsolation() == null
        || p.getTransactionIsolation() == java.sql.Connection.TRANSACTION_NONE
        && db.keepsTransactions()) {
      p = calciteMeta.connectionSync(ch, new org.apache.calcite.avatica.ConnectionPropertiesImpl()
          .setTransactionIsolation(defaultIsolation(db)));
    }
    return p;
  }

  /** The isolation level of a new connection to {@code db}. */
  static int defaultIsolation(Storage db) {
    return db.keepsTransactions() ? java.sql.Connection.TRANSACTION_REPEATABLE_READ
        : java.sql.Connection.TRANSACTION_NONE;
  }

  /** A savepoint in the connection's transaction (JDBC's and SQL's); its name. */
  String setSavepoint(String name) {
    return ConnectionTransaction.setSavepoint(connection, db, name);
  }

  void rollbackToSavepoint(String name) {
    ConnectionTransaction.rollbackTo(connection, db, name);
  }

  void releaseSavepoint(String name) {
    ConnectionTransaction.release(connection, db, name);
  }

  Storage storage() {
    return db;
  }

  @Override
  public void closeConnection(ConnectionHandle ch) {
    ConnectionTransaction.rollback(connection);
    batches.clear();
    try {
      connection.close();
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * A batch of a statement planned with a {@link BatchWrite} is written at once; update
   * counts are 1 per row, and errors and the rows written before one are as row by row.
   */
  @Override
  public ExecuteBatchResult executeBatch(StatementHandle h,
      List<List<TypedValue>> parameterValues) throws NoSuchStatementException {
    try {
      return runBatch(h, parameterValues);
    } catch (RuntimeException e) {
      throw failed(e);
    }
  }

  private ExecuteBatchResult runBatch(StatementHandle h, List<List<TypedValue>> parameterValues)
      throws NoSuchStatementException {
    BatchWrite batch = batches.get(h.id);
    if ((generatedKeys.containsKey(h.id) || batch != null && batch.rowsPerExecution() > 1)
        && signature(h) != null) {
      // execution by execution in this meta, whose executions collect the keys (Calcite's
      // would not); a statement of several rows is one statement each time
      long[] counts = new long[parameterValues.size()];
      for (int i = 0; i < counts.length; i++) {
        try {
          counts[i] = execute(h, parameterValues.get(i), -1L).resultSets.get(0).updateCount;
        } catch (RuntimeException e) {
          e.addSuppressed(new io.basaltdb.sql.exec.write.RowsWritten(i)); // each its own commit
          throw e;
        }
      }
      return new ExecuteBatchResult(counts);
    }
    if (batch == null) {
      return calciteMeta.executeBatch(h, parameterValues);
    }
    if (!parameterValues.isEmpty()) {
      DataContext ctx = CalciteMetaImpl.createDataContext(connection);
      batch.run(ctx, parameterValues);
    }
    long[] counts = new long[parameterValues.size()];
    Arrays.fill(counts, 1);
    return new ExecuteBatchResult(counts);
  }

  /** The key columns of the matching tables ({@link KeyRows}). */
  @Override
  public MetaResultSet getPrimaryKeys(ConnectionHandle ch, String catalog, String schema,
      String table) {
    return resultSet(KeyRows.primaryKeys(db, schema, table), KeyRows.PRIMARY_KEY_COLUMNS);
  }

  /**
   * The indexes of a table ({@link KeyRows}); {@code unique}: only unique ones;
   * {@code approximate} changes nothing.
   */
  @Override
  public MetaResultSet getIndexInfo(ConnectionHandle ch, String catalog, String schema,
      String table, boolean unique, boolean approximate) {
    return resultSet(KeyRows.indexes(db, schema, table, unique), KeyRows.INDEX_COLUMNS);
  }

  /** The foreign keys of table {@code table} (its parents'), as JDBC lists them. */
  @Override
  public MetaResultSet getImportedKeys(ConnectionHandle ch, String catalog, String schema,
      String table) {
    return resultSet(ForeignKeyRows.of(db, schema, table, null, null, true),
        ForeignKeyRows.COLUMNS);
  }

  /** The foreign keys that reference table {@code table}. */
  @Override
  public MetaResultSet getExportedKeys(ConnectionHandle ch, String catalog, String schema,
      String table) {
    return resultSet(ForeignKeyRows.of(db, null, null, schema, table, false),
        ForeignKeyRows.COLUMNS);
  }

  /** The foreign keys of {@code foreignTable} that reference {@code parentTable}. */
  @Override
  public MetaResultSet getCrossReference(ConnectionHandle ch, String parentCatalog,
      String parentSchema, String parentTable, String foreignCatalog, String foreignSchema,
      String foreignTable) {
    return resultSet(ForeignKeyRows.of(db, foreignSchema, foreignTable, parentSchema,
        parentTable, false), ForeignKeyRows.COLUMNS);
  }

  /** A metadata result set of {@code rows} (arrays), on a statement of its own. */
  private MetaResultSet resultSet(List<Object> rows,
      List<org.apache.calcite.avatica.ColumnMetaData> columns) {
    try {
      AvaticaStatement statement = (AvaticaStatement) connection.createStatement();
      CalcitePrepare.CalciteSignature<Object> signature =
          new CalcitePrepare.CalciteSignature<>("", List.of(), Map.of(), null, columns,
              CursorFactory.ARRAY, null, List.of(), -1, null, StatementType.SELECT) {
            @Override
            public Enumerable<Object> enumerable(DataContext dataContext) {
              return Linq4j.asEnumerable(rows);
            }
          };
      return MetaResultSet.create(statement.connection.id, statement.getId(), true, signature,
          new Frame(0, true, rows));
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
  }
}
