package io.basaltdb.sql.jdbc;

import io.basaltdb.sql.StatementStats;
import io.basaltdb.sql.exec.context.Analysis;
import io.basaltdb.sql.exec.context.GeneratedKeys;
import io.basaltdb.sql.exec.context.QueryGuard;
import io.basaltdb.sql.exec.context.StatementSnapshot;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TimeZone;
import org.apache.calcite.DataContext;
import org.apache.calcite.adapter.java.JavaTypeFactory;
import org.apache.calcite.avatica.Meta;
import org.apache.calcite.avatica.MetaImpl;
import org.apache.calcite.avatica.NoSuchStatementException;
import org.apache.calcite.avatica.remote.TypedValue;
import org.apache.calcite.jdbc.CalciteConnection;
import org.apache.calcite.jdbc.CalcitePrepare.CalciteSignature;
import org.apache.calcite.jdbc.CalciteSchema;
import org.apache.calcite.linq4j.QueryProvider;
import org.apache.calcite.rel.type.TimeFrameSet;
import org.apache.calcite.rel.type.TimeFrames;
import org.apache.calcite.runtime.Hook;
import org.apache.calcite.schema.SchemaPlus;
import org.apache.calcite.util.Holder;
import org.apache.calcite.util.Util;

/**
 * The data context of one statement execution, answering what Calcite's connection puts in
 * one ({@code CalciteConnectionImpl.enumerable}), each value looked up when generated code
 * asks for it rather than a map of sixteen filled per execution: the statement's parameters
 * ({@code ?0, ?1, ...}) and internal parameters, its cancel flag, the statement's instant
 * (read from the clock when first asked, then fixed) as UTC, current, local and system
 * timestamps, the time zone, time frames, user, system user, locale and standard streams; and
 * Basalt's {@link StatementSnapshot}, released with the execution's rows. Calcite reads the
 * connection's time zone and locale from its properties at every execution (parsing them each
 * time, with a new statement wrapper to read parameters from: a tenth of a literal counter
 * UPDATE); here they are read once per connection ({@link Settings}: a connection's properties
 * are fixed when it opens). There is no SQL advisor: only Calcite's hint functions ask for
 * one, and Basalt's schemas have none. Thread-safe.
 */
final class ExecutionContext implements DataContext {
  /** What every execution of one connection shares. */
  static final class Settings {
    final CalciteConnection connection;
    final TimeZone timeZone;
    final Locale locale;
    final TimeFrameSet timeFrames;
    final StatementStats stats;
    final SlowStatementLog slowLog;
    /** The connection's {@code slowStatementMillis} in nanoseconds; 0: none. */
    final long slowNanos;

    Settings(CalciteConnection connection, io.basaltdb.storage.Storage db) {
      this.connection = connection;
      this.stats = StatementStats.of(db);
      this.slowLog = db == null ? null : SlowStatementLog.of(db);
      String slow = io.basaltdb.sql.ConnectionProperty.SLOW_STATEMENT_MILLIS.valueIn(
          connection.getProperties());
      this.slowNanos = slow == null || slowLog == null ? 0 : Long.parseLong(slow) * 1_000_000L;
      this.timeZone = ((org.apache.calcite.avatica.AvaticaConnection) connection).getTimeZone();
      String localeName = connection.config().locale();
      this.locale = localeName != null ? Util.parseLocale(localeName) : Locale.ROOT;
      this.timeFrames = connection.getTypeFactory().getTypeSystem()
          .deriveTimeFrameSet(TimeFrames.CORE);
    }
  }

  /** Calcite's variables by the names generated code asks for. */
  private static final Map<String, Variable> VARIABLES = variables();

  private static Map<String, Variable> variables() {
    Map<String, Variable> byName = new HashMap<>();
    for (Variable v : Variable.values()) {
      byName.put(v.camelName, v);
    }
    return Map.copyOf(byName);
  }

  private final Settings settings;
  private final CalciteSchema rootSchema;
  private final Object[] parameters;
  private final Map<String, Object> internal;
  private final Object cancelFlag;
  /**
   * The statement's instant (UTC millis), read from the clock when first asked (most statements
   * never ask: a clock read per execution was ~1% of a point SELECT), then fixed.
   */
  private long time;
  private boolean timeRead;
  /** The statement's generated keys, when it asked for them; else null. */
  private GeneratedKeys generatedKeys;
  private final StatementSnapshot snapshot = new StatementSnapshot();
  /** Where the execution's scans count their reads when it is watched for slowness; or null. */
  private Analysis analysis;
  private volatile QueryGuard.Account account; // made when an operator first keeps rows

  private ExecutionContext(Settings settings, CalciteSchema rootSchema, Object[] parameters,
      Map<String, Object> internal, Object cancelFlag) {
    this.settings = settings;
    this.rootSchema = rootSchema;
    this.parameters = parameters;
    this.internal = internal;
    this.cancelFlag = cancelFlag;
  }

  /** The statement's instant: every variable of time in one execution gives the same. */
  private synchronized long time() {
    if (!timeRead) {
      Holder<Long> clock = Holder.of(System.currentTimeMillis());
      Hook.CURRENT_TIME.run(clock); // as Calcite: tests may set the clock
      time = clock.get();
      timeRead = true;
    }
    return time;
  }

  /**
   * Runs {@code signature} with {@code parameters}, as Calcite's meta runs it; {@code
   * statementCancelFlag} is the statement's cancel flag when its caller holds it (else it is
   * looked up by the handle, as Calcite does).
   */
  static Iterable<Object> run(Settings settings, Meta.StatementHandle h,
      Object statementCancelFlag, CalciteSignature<Object> signature,
      List<TypedValue> parameters, GeneratedKeys keys) {
    List<TypedValue> given = parameters == null ? List.of() : parameters;
    if (MetaImpl.checkParameterValueHasNull(given)) {
      // Calcite's words, and its wrapping
      throw new RuntimeException("exception while executing query: unbound parameter");
    }
    Object[] values = new Object[given.size()];
    List<org.apache.calcite.avatica.AvaticaParameter> declared = signature.parameters;
    for (int i = 0; i < values.length; i++) {
      Object v = given.get(i).toLocal();
      values[i] = i < declared.size() ? asDeclared(v, declared.get(i).parameterType) : v;
    }
    Object cancelFlag = statementCancelFlag;
    if (cancelFlag == null) {
      try {
        cancelFlag =
            ((org.apache.calcite.avatica.AvaticaConnection) settings.connection).getCancelFlag(h);
      } catch (NoSuchStatementException e) {
        throw new RuntimeException(e);
      }
    }
    ExecutionContext ctx = new ExecutionContext(settings, signature.rootSchema, values,
        signature.internalParameters, cancelFlag);
    ctx.generatedKeys = keys;
    StatementWatch watch = new StatementWatch(settings.stats, settings.slowLog,
        settings.slowNanos, signature.sql == null ? "" : signature.sql,
        signature.statementType != null && signature.statementType.canUpdate());
    ctx.analysis = watch.analysis();
    return watch.around(signature.enumerable(ctx), ctx.snapshot);
  }

  /**
   * A number bound to a parameter as the parameter's own class (a {@code setLong} of a LIMIT,
   * an INTEGER parameter: Calcite's code above a sort casts it to Integer). Its range was
   * checked when bound ({@link ParameterChecks}).
   */
  private static Object asDeclared(Object v, int sqlType) {
    if (!(v instanceof Long || v instanceof Integer || v instanceof Short || v instanceof Byte)) {
      return v;
    }
    Number n = (Number) v;
    return switch (sqlType) {
      case java.sql.Types.INTEGER -> v instanceof Integer ? v : (Object) n.intValue();
      case java.sql.Types.BIGINT -> v instanceof Long ? v : (Object) n.longValue();
      case java.sql.Types.SMALLINT -> v instanceof Short ? v : (Object) n.shortValue();
      case java.sql.Types.TINYINT -> v instanceof Byte ? v : (Object) n.byteValue();
      default -> v;
    };
  }

  private QueryGuard.Account account() {
    QueryGuard.Account a = account;
    if (a == null) {
      synchronized (this) {
        a = account;
        if (a == null) {
          account = a = QueryGuard.Account.of(this);
        }
      }
    }
    return a;
  }

  /** The number after the {@code ?} of a statement parameter's name; -1 if not all digits. */
  private static int parameterIndex(String name) {
    int i = 0;
    for (int k = 1; k < name.length(); k++) {
      int d = name.charAt(k) - '0';
      if (d < 0 || d > 9 || i > (Integer.MAX_VALUE - d) / 10) {
        return -1;
      }
      i = i * 10 + d;
    }
    return i;
  }

  /**
   * A variable this context provides, else an internal parameter, else a statement parameter
   * ({@code ?0, ?1, ...}): the order in which Calcite's connection fills its map, each
   * overriding the one before. Looked up when asked: a statement reads two or three of them.
   */
  @Override
  public Object get(String name) {
    if (StatementSnapshot.VARIABLE.equals(name)) {
      return snapshot;
    }
    if (QueryGuard.ACCOUNT_VARIABLE.equals(name)) {
      return account();
    }
    if (Analysis.VARIABLE.equals(name)) {
      return analysis;
    }
    if (GeneratedKeys.VARIABLE.equals(name)) {
      return generatedKeys;
    }
    Variable v = VARIABLES.get(name);
    if (v != null) {
      switch (v) {
        case CANCEL_FLAG:
          return cancelFlag;
        case UTC_TIMESTAMP:
          return time();
        case CURRENT_TIMESTAMP:
        case LOCAL_TIMESTAMP: {
          long t = time();
          return t + settings.timeZone.getOffset(t);
        }
        case SYS_TIMESTAMP: {
          long t = time();
          return t + TimeZone.getDefault().getOffset(t);
        }
        case TIME_ZONE:
          return settings.timeZone;
        case TIME_FRAME_SET:
          return settings.timeFrames;
        case USER:
          return "sa";
        case SYSTEM_USER:
          return System.getProperty("user.name");
        case LOCALE:
          return settings.locale;
        case STDIN:
          return System.in;
        case STDOUT:
          return System.out;
        case STDERR:
          return System.err;
        default:
          break; // not one of this context's: an internal parameter's name, if any
      }
    }
    Object held = internal.get(name);
    if (held != null || internal.containsKey(name)) {
      return held;
    }
    if (name.length() > 1 && name.charAt(0) == '?') {
      int i = parameterIndex(name);
      return i >= 0 && i < parameters.length ? parameters[i] : null;
    }
    return null;
  }

  @Override
  public SchemaPlus getRootSchema() {
    return rootSchema == null ? null : rootSchema.plus();
  }

  @Override
  public JavaTypeFactory getTypeFactory() {
    return settings.connection.getTypeFactory();
  }

  @Override
  public QueryProvider getQueryProvider() {
    return settings.connection;
  }
}
