package io.basaltdb.jdbc.server;

import io.basaltdb.sql.SqlStates;
import io.basaltdb.sql.jdbc.BasaltConnection;
import io.basaltdb.sql.jdbc.ForwardingMeta;
import io.basaltdb.sql.jdbc.ParameterChecks;
import io.basaltdb.sql.jdbc.SqlErrors;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.apache.calcite.avatica.AvaticaSeverity;
import org.apache.calcite.avatica.Meta;
import org.apache.calcite.avatica.MetaImpl;
import org.apache.calcite.avatica.MissingResultsException;
import org.apache.calcite.avatica.NoSuchConnectionException;
import org.apache.calcite.avatica.NoSuchStatementException;
import org.apache.calcite.avatica.proto.Requests;
import org.apache.calcite.avatica.remote.AvaticaRuntimeException;
import org.apache.calcite.avatica.remote.ProtobufMeta;
import org.apache.calcite.avatica.remote.TypedValue;

/**
 * The {@link Meta} a Basalt server serves (Avatica's {@code LocalService} over it): one
 * {@link BasaltConnection} per remote connection, each call passed to that connection's
 * {@link BasaltMeta} — the same meta embedded connections use, so remote clients get the same
 * statements, metadata and errors. What only a server needs is here:
 * <ul>
 *   <li>rows in frames: a query's first frame comes with its execution, later ones from
 *       {@link #fetch} off the statement's open row iterator; DML runs at execution and
 *       answers its count;
 *   <li>errors as {@link AvaticaRuntimeException}s carrying Basalt's SQLState (Avatica sends a
 *       state across the wire for that type only);
 *   <li>connections idle longer than the configured time closed (clients that went away);
 *   <li>who may do what: each connection belongs to the {@link Client} that opened it (the
 *       server's HTTP layer says who sent a request); only that client may use it; a read-only
 *       client's connections refuse writes and DDL with 42501; a client may hold so many
 *       connections (53300) and open statements (53400); each refusal is reported.
 * </ul>
 * State per connection: the connection and, per statement, its signature, last bound values
 * and open rows. Thread-safe: Avatica serves requests on many threads.
 */
public final class ServerMeta extends ForwardingMeta implements ProtobufMeta, AutoCloseable {
  /** Opens the embedded connection behind a remote one (the driver, with the client's info). */
  @FunctionalInterface
  public interface Opener {
    Connection open(Properties info) throws SQLException;
  }

  private static final int DEFAULT_FRAME_ROWS = 100;

  /** Who sent a request: a user name (or an address), and whether it may only read. */
  public record Client(String name, boolean readOnly) {
    public static final Client ANONYMOUS = new Client("anonymous", false);
  }

  /**
   * Limits: connections unused for {@code idleMillis} are closed; a client may hold at most
   * {@code connectionsPerClient} connections and {@code statementsPerClient} open statements;
   * a request that runs a statement (its execution and first rows, or a later fetch) is
   * cancelled after {@code statementSeconds} (0: never) with 57014, as a remote client cannot
   * cancel (Avatica's protocol has no cancel).
   */
  public record Limits(long idleMillis, int connectionsPerClient, int statementsPerClient,
      int statementSeconds) {
    public static Limits idleOnly(long idleMillis) {
      return new Limits(idleMillis, Integer.MAX_VALUE, Integer.MAX_VALUE, 0);
    }
  }

  private final Opener opener;
  private final Limits limits;
  private final long idleNanos;
  private final Supplier<Client> currentClient;
  private final Consumer<String> refusals;
  private final ServerSessions sessions = new ServerSessions();
  private final ScheduledExecutorService sweeper;

  /** Serves connections opened by {@code opener}; closes those idle for {@code idleMillis}. */
  public ServerMeta(Opener opener, long idleMillis) {
    this(opener, Limits.idleOnly(idleMillis), () -> Client.ANONYMOUS, message -> { });
  }

  /**
   * {@code currentClient}: who sent the request being served (called on the request's
   * thread); {@code refusals}: told of every request refused for a limit or a permission.
   */
  public ServerMeta(Opener opener, Limits limits, Supplier<Client> currentClient,
      Consumer<String> refusals) {
    this.opener = opener;
    this.limits = limits;
    this.currentClient = currentClient;
    this.refusals = refusals;
    long idleMillis = limits.idleMillis();
    this.idleNanos = TimeUnit.MILLISECONDS.toNanos(idleMillis);
    java.util.concurrent.ScheduledThreadPoolExecutor timers =
        new java.util.concurrent.ScheduledThreadPoolExecutor(1, r -> {
          Thread t = new Thread(r, "basalt-server-timers");
          t.setDaemon(true);
          return t;
        });
    timers.setRemoveOnCancelPolicy(true); // a statement's timer goes when its request ends
    this.sweeper = timers;
    long period = Math.max(1000, idleMillis / 4);
    sweeper.scheduleWithFixedDelay(() -> sessions.closeIdle(idleNanos), period, period,
        TimeUnit.MILLISECONDS);
  }

  /** How many remote connections are open. */
  public int openConnections() {
    return sessions.size();
  }

  private ServerSessions.Session session(String connectionId) {
    ServerSessions.Session s = sessions.get(connectionId);
    if (s == null) {
      throw new NoSuchConnectionException(connectionId);
    }
    Client who = currentClient.get();
    if (!s.owner.name().equals(who.name())) {
      // as if it did not exist: a connection id tells another client nothing
      refusals.accept("client '" + who.name() + "' used a connection of '" + s.owner.name()
          + "'");
      throw new NoSuchConnectionException(connectionId);
    }
    s.lastUsedNanos = System.nanoTime();
    return s;
  }

  /**
   * Runs a statement's request under the statement time limit: when the time is up the
   * statement's cancel flag (read by scans and at each row) is set, and it fails with 57014.
   */
  private <T> T timed(StatementHandle h, MetaCall<T> call) throws NoSuchStatementException {
    int seconds = limits.statementSeconds();
    if (seconds <= 0) {
      return callChecked(h.connectionId, call);
    }
    ServerSessions.Session session = session(h.connectionId);
    java.util.concurrent.atomic.AtomicBoolean flag = session.connection.getCancelFlag(h);
    flag.set(false);
    java.util.concurrent.atomic.AtomicBoolean fired =
        new java.util.concurrent.atomic.AtomicBoolean();
    java.util.concurrent.ScheduledFuture<?> timer = sweeper.schedule(() -> {
      fired.set(true);
      flag.set(true);
    }, seconds, TimeUnit.SECONDS);
    try {
      return callChecked(h.connectionId, call);
    } catch (AvaticaRuntimeException e) {
      if (fired.get() && SqlStates.QUERY_CANCELED.equals(e.getSqlState())) {
        throw refuse(SqlStates.QUERY_CANCELED,
            "statement cancelled: it ran past the server's limit of "
            + seconds + " s per request (--statement-timeout-seconds); client '"
            + session.owner.name() + "'");
      }
      throw e;
    } finally {
      timer.cancel(false);
    }
  }

  /** Refuses a request with {@code state}, reporting it. */
  private AvaticaRuntimeException refuse(String state, String message) {
    refusals.accept(message + " (SQLState " + state + ")");
    return remote(new SQLException(message, state));
  }

  /** A write refused on a read-only client's connection is a permission error (42501). */
  private AvaticaRuntimeException permission(String connectionId, AvaticaRuntimeException e) {
    ServerSessions.Session s = sessions.get(connectionId);
    if (s != null && s.owner.readOnly()
        && SqlStates.READ_ONLY_TRANSACTION.equals(e.getSqlState())) {
      return refuse(SqlStates.INSUFFICIENT_PRIVILEGE,
          "permission denied: client '" + s.owner.name() + "' may only read"
          + " (role " + READ_ROLE + "): " + e.getErrorMessage());
    }
    return e;
  }

  /** The server role that may only read. */
  public static final String READ_ROLE = "basalt-read";

  @Override
  protected Meta delegate(String connectionId) {
    return session(connectionId).connection.basaltMeta();
  }

  /** Every forwarded call: failures become errors that keep their SQLState on the wire. */
  @Override
  protected <T> T invoke(String connectionId, MetaCall<T> call)
      throws NoSuchStatementException, MissingResultsException {
    try {
      T result = super.invoke(connectionId, call);
      return result instanceof MetaResultSet r ? (T) listed(r) : result;
    } catch (NoSuchStatementException | MissingResultsException | NoSuchConnectionException e) {
      throw e;
    } catch (AvaticaRuntimeException e) {
      throw permission(connectionId, e);
    } catch (RuntimeException | StackOverflowError | OutOfMemoryError | ExceptionInInitializerError
        | NoClassDefFoundError e) {
      throw permission(connectionId, remote(e));
    }
  }

  static AvaticaRuntimeException remote(Throwable e) {
    SQLException s = SqlErrors.toSqlException(e);
    return new AvaticaRuntimeException(s.getMessage(), s.getErrorCode(), s.getSQLState(),
        AvaticaSeverity.ERROR);
  }

  /** A metadata result's rows as lists (what the wire format carries for every row style). */
  private static MetaResultSet listed(MetaResultSet r) {
    if (r.firstFrame == null || r.signature == null
        || r.signature.cursorFactory.style == CursorFactory.LIST.style) {
      return r;
    }
    List<Object> rows = new ArrayList<>(
        MetaImpl.collect(r.signature.cursorFactory, r.firstFrame.rows, new ArrayList<>()));
    return MetaResultSet.create(r.connectionId, r.statementId, r.ownStatement,
        r.signature.setCursorFactory(CursorFactory.LIST),
        new Frame(r.firstFrame.offset, r.firstFrame.done, rows), r.updateCount);
  }

  @Override
  public void openConnection(ConnectionHandle ch, Map<String, String> info) {
    Client who = currentClient.get();
    Properties p = new Properties();
    if (info != null) {
      p.putAll(info);
    }
    if (who.readOnly()) {
      p.setProperty(io.basaltdb.sql.ConnectionProperty.READ_ONLY.camelName(), "true");
    }
    synchronized (sessions) { // the count and the new session agree
      if (sessions.containsKey(ch.id)) {
        return;
      }
      long mine = sessions.of(who).count();
      if (mine >= limits.connectionsPerClient()) {
        throw refuse(SqlStates.TOO_MANY_CONNECTIONS,
            "too many connections: client '" + who.name() + "' holds " + mine
            + ", the server's limit per client is " + limits.connectionsPerClient());
      }
      try {
        Connection c = opener.open(p);
        sessions.put(ch.id, new ServerSessions.Session(c.unwrap(BasaltConnection.class), who));
      } catch (SQLException | RuntimeException e) {
        throw remote(e);
      }
    }
  }

  @Override
  public StatementHandle createStatement(ConnectionHandle ch) {
    ServerSessions.Session s = session(ch.id);
    StatementHandle h = call(ch.id, m -> m.createStatement(ch));
    opened(s, h);
    return h;
  }

  /** Counts a new open statement against its client's limit; closes it if past the limit. */
  private void opened(ServerSessions.Session s, StatementHandle h) {
    if (!s.openStatements.add(h.id)) {
      return; // prepared on a statement the client created: counted once
    }
    long mine = sessions.of(s.owner).mapToLong(x -> x.openStatements.size()).sum();
    if (mine > limits.statementsPerClient()) {
      closeStatement(h);
      throw refuse(SqlStates.CONFIGURATION_LIMIT_EXCEEDED,
          "too many open statements: client '" + s.owner.name() + "' holds "
          + (mine - 1) + ", the server's limit per client is " + limits.statementsPerClient()
          + " (close statements when done)");
    }
  }

  @Override
  public void closeConnection(ConnectionHandle ch) {
    if (sessions.containsKey(ch.id)) {
      ServerSessions.Session s = session(ch.id); // only its own client closes it
      if (sessions.remove(ch.id, s)) {
        ServerSessions.close(s);
      }
    }
  }

  @Override
  public StatementHandle prepare(ConnectionHandle ch, String sql, long maxRowCount) {
    ServerSessions.Session s = session(ch.id);
    StatementHandle h = call(ch.id, m -> m.prepare(ch, sql, maxRowCount));
    opened(s, h);
    ServerSessions.Statement state = s.statement(h.id);
    state.signature = h.signature;
    state.checks = new ParameterChecks(h.signature);
    return h;
  }

  @Override
  public ExecuteResult prepareAndExecute(StatementHandle h, String sql, long maxRowCount,
      int maxRowsInFirstFrame, PrepareCallback callback) throws NoSuchStatementException {
    ExecuteResult prepared = timed(h,
        m -> m.prepareAndExecute(h, sql, maxRowCount, maxRowsInFirstFrame, callback));
    MetaResultSet r = prepared.resultSets.get(0);
    ServerSessions.Statement state = session(h.connectionId).statement(h.id);
    state.signature = r.signature;
    state.parameters = List.of();
    return r.updateCount != -1 ? prepared : run(h, state, maxRowsInFirstFrame);
  }

  @Override
  @SuppressWarnings("deprecation")
  public ExecuteResult prepareAndExecute(StatementHandle h, String sql, long maxRowCount,
      PrepareCallback callback) throws NoSuchStatementException {
    return prepareAndExecute(h, sql, maxRowCount, DEFAULT_FRAME_ROWS, callback);
  }

  @Override
  public ExecuteResult execute(StatementHandle h, List<TypedValue> parameterValues,
      int maxRowsInFirstFrame) throws NoSuchStatementException {
    ServerSessions.Statement state = session(h.connectionId).statement(h.id);
    if (state.signature == null) {
      throw new NoSuchStatementException(h);
    }
    List<TypedValue> values = localValues(state.signature,
        parameterValues == null ? List.of() : parameterValues);
    check(state, values);
    state.parameters = values;
    beforeExecution(h, state);
    return run(h, state, maxRowsInFirstFrame);
  }

  @Override
  @SuppressWarnings("deprecation")
  public ExecuteResult execute(StatementHandle h, List<TypedValue> parameterValues,
      long maxRowCount) throws NoSuchStatementException {
    return execute(h, parameterValues, DEFAULT_FRAME_ROWS);
  }

  /** Runs a prepared statement: DML answers its count, a query its first frame. */
  private ExecuteResult run(StatementHandle h, ServerSessions.Statement state, int firstFrameRows)
      throws NoSuchStatementException {
    Signature signature = state.signature;
    synchronized (state) {
      state.rows = null;
    }
    if (!(signature instanceof org.apache.calcite.jdbc.CalcitePrepare.CalciteSignature<?>)) {
      // prepared DDL or transaction control, deferred by the connection's meta to each
      // execution (it has no plan to iterate): run as the embedded driver runs it
      return timed(h, m -> m.execute(h, state.parameters, firstFrameRows));
    }
    if (signature.statementType != null && signature.statementType.canUpdate()) {
      long count = timed(h, m -> {
        Iterator<Object> rows = m.createIterable(h, null, signature, state.parameters, null)
            .iterator();
        Object row = rows.next();
        Object n = row instanceof Object[] a ? a[0] : row instanceof List<?> l ? l.get(0) : row;
        return ((Number) n).longValue();
      });
      return new ExecuteResult(List.of(MetaResultSet.count(h.connectionId, h.id, count)));
    }
    Frame first = frame(h, state, 0, firstFrameRows);
    return new ExecuteResult(List.of(MetaResultSet.create(h.connectionId, h.id, false,
        signature.setCursorFactory(CursorFactory.LIST), first)));
  }

  @Override
  public Frame fetch(StatementHandle h, long offset, int fetchMaxRowCount)
      throws NoSuchStatementException, MissingResultsException {
    ServerSessions.Statement state = session(h.connectionId).statements.get(h.id);
    if (state == null || state.signature == null) {
      throw new NoSuchStatementException(h);
    }
    return frame(h, state, offset, fetchMaxRowCount);
  }

  /** The next rows of the statement's open result (opened at the first frame), as lists. */
  private Frame frame(StatementHandle h, ServerSessions.Statement state, long offset, int maxRows)
      throws NoSuchStatementException {
    int n = maxRows > 0 ? maxRows : DEFAULT_FRAME_ROWS;
    return timed(h, m -> {
      synchronized (state) {
        if (state.rows == null) {
          state.rows = m.createIterable(h, null, state.signature, state.parameters, null)
              .iterator();
        }
        List<Object> batch = new ArrayList<>(Math.min(n, 1024));
        while (batch.size() < n && state.rows.hasNext()) {
          batch.add(state.rows.next());
        }
        boolean done = !state.rows.hasNext();
        if (done) {
          state.rows = null;
        }
        List<Object> rows = new ArrayList<>(MetaImpl.collect(state.signature.cursorFactory,
            batch, new ArrayList<>()));
        return new Frame(offset, done, wireValues(state.signature, rows));
      }
    });
  }

  /**
   * The values of a statement's parameters as its execution takes them: a UUID parameter's text
   * (Avatica's wire format has no UUID) as a UUID; 22018 for text that is none.
   */
  private static List<TypedValue> localValues(Signature signature, List<TypedValue> values) {
    List<TypedValue> out = null;
    for (int i = 0; i < values.size() && signature != null
        && i < signature.parameters.size(); i++) {
      TypedValue v = values.get(i);
      if (v != null && v.value instanceof String text
          && "UUID".equals(signature.parameters.get(i).typeName)) {
        out = out == null ? new ArrayList<>(values) : out;
        try {
          out.set(i, TypedValue.ofLocal(org.apache.calcite.avatica.ColumnMetaData.Rep.OBJECT,
              java.util.UUID.fromString(text.trim())));
        } catch (IllegalArgumentException e) {
          throw remote(new java.sql.SQLException("'" + text + "' is not a UUID, for parameter "
              + (i + 1), io.basaltdb.sql.SqlStates.INVALID_CHARACTER_VALUE_FOR_CAST, e));
        }
      }
    }
    return out == null ? values : out;
  }

  /**
   * The rows with each value in a form Avatica's wire format carries: a UUID as its text (the
   * format has no UUID, and refused the whole frame). Rows without such a column as they are.
   */
  private static List<Object> wireValues(Signature signature, List<Object> rows) {
    boolean uuid = false;
    for (org.apache.calcite.avatica.ColumnMetaData c : signature.columns) {
      uuid |= "UUID".equals(c.type.name);
    }
    if (!uuid) {
      return rows;
    }
    List<Object> out = new ArrayList<>(rows.size());
    for (Object row : rows) {
      List<Object> values = new ArrayList<>((List<?>) row);
      values.replaceAll(v -> v instanceof java.util.UUID u ? u.toString() : v);
      out.add(values);
    }
    return out;
  }

  @Override
  public void closeStatement(StatementHandle h) {
    ServerSessions.Session s =
        sessions.containsKey(h.connectionId) ? session(h.connectionId) : null;
    if (s != null) {
      s.statements.remove(h.id);
      s.openStatements.remove(h.id);
      run(h.connectionId, m -> m.closeStatement(h));
    }
  }

  @Override
  public ExecuteBatchResult executeBatchProtobuf(StatementHandle h,
      List<Requests.UpdateBatch> batches) throws NoSuchStatementException {
    List<List<TypedValue>> rows = new ArrayList<>(batches.size());
    for (Requests.UpdateBatch b : batches) {
      rows.add(b.getParameterValuesList().stream().map(TypedValue::fromProto).toList());
    }
    return executeBatch(h, rows);
  }

  /** A batch's values are checked as embedded ones are when bound, before any row is written. */
  @Override
  public ExecuteBatchResult executeBatch(StatementHandle h,
      List<List<TypedValue>> parameterValues) throws NoSuchStatementException {
    ServerSessions.Statement state = session(h.connectionId).statements.get(h.id);
    List<List<TypedValue>> rows = parameterValues;
    if (state != null) {
      rows = new ArrayList<>(parameterValues.size());
      for (List<TypedValue> row : parameterValues) {
        rows.add(localValues(state.signature, row));
        check(state, rows.get(rows.size() - 1));
      }
      beforeExecution(h, state);
    }
    List<List<TypedValue>> values = rows;
    return timed(h, m -> m.executeBatch(h, values));
  }

  /** A statement planned before DDL moved the catalog is planned again (BasaltMeta's rule). */
  private void beforeExecution(StatementHandle h, ServerSessions.Statement state)
      throws NoSuchStatementException {
    Meta.Signature current = state.signature;
    Meta.Signature replanned = callChecked(h.connectionId,
        m -> ((io.basaltdb.sql.jdbc.BasaltMeta) m).beforeExecution(h, current));
    if (replanned != null) {
      state.signature = replanned;
    }
  }

  private static void check(ServerSessions.Statement state, List<TypedValue> values) {
    if (state.checks != null) {
      try {
        state.checks.check(values);
      } catch (SQLException e) {
        throw remote(e);
      }
    }
  }

  /** Closes every remote connection (the server is stopping). */
  @Override
  public void close() {
    sweeper.shutdownNow();
    sessions.closeAll();
  }
}
