package io.basaltdb.sql.jdbc;

import io.basaltdb.sql.exec.StatementSnapshot;
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
 * The data context of one statement execution, holding what Calcite's connection puts in one
 * ({@code CalciteConnectionImpl.enumerable}): the statement's parameters ({@code ?0, ?1, ...})
 * and internal parameters, its cancel flag, the instant it started as UTC, current, local and
 * system timestamps, the time zone, time frames, user, system user, locale and standard
 * streams; and Basalt's {@link StatementSnapshot}, released with the execution's rows. Calcite reads the connection's time zone and locale from its properties at every
 * execution (parsing them each time, with a new statement wrapper to read parameters from:
 * a tenth of a literal counter UPDATE); here they are read once per connection
 * ({@link Settings}: a connection's properties are fixed when it opens). There is no SQL
 * advisor: only Calcite's hint functions ask for one, and Basalt's schemas have none. Immutable.
 */
final class ExecutionContext implements DataContext {
  /** What every execution of one connection shares. */
  static final class Settings {
    final CalciteConnection connection;
    final TimeZone timeZone;
    final Locale locale;
    final TimeFrameSet timeFrames;

    Settings(CalciteConnection connection) {
      this.connection = connection;
      this.timeZone = ((org.apache.calcite.avatica.AvaticaConnection) connection).getTimeZone();
      String localeName = connection.config().locale();
      this.locale = localeName != null ? Util.parseLocale(localeName) : Locale.ROOT;
      this.timeFrames = connection.getTypeFactory().getTypeSystem()
          .deriveTimeFrameSet(TimeFrames.CORE);
    }
  }

  private final Settings settings;
  private final CalciteSchema rootSchema;
  private final Map<String, Object> values;

  private ExecutionContext(Settings settings, CalciteSchema rootSchema,
      Map<String, Object> values) {
    this.settings = settings;
    this.rootSchema = rootSchema;
    this.values = values;
  }

  /** Runs {@code signature} with {@code parameters}, as Calcite's meta runs it. */
  static Iterable<Object> run(Settings settings, Meta.StatementHandle h,
      CalciteSignature<Object> signature, List<TypedValue> parameters) {
    List<TypedValue> given = parameters == null ? List.of() : parameters;
    if (MetaImpl.checkParameterValueHasNull(given)) {
      // Calcite's words, and its wrapping
      throw new RuntimeException("exception while executing query: unbound parameter");
    }
    Map<String, Object> values = new HashMap<>();
    for (int i = 0; i < given.size(); i++) {
      values.put("?" + i, given.get(i).toLocal());
    }
    values.putAll(signature.internalParameters);
    try {
      values.put(Variable.CANCEL_FLAG.camelName,
          ((org.apache.calcite.avatica.AvaticaConnection) settings.connection).getCancelFlag(h));
    } catch (NoSuchStatementException e) {
      throw new RuntimeException(e);
    }
    Holder<Long> clock = Holder.of(System.currentTimeMillis());
    Hook.CURRENT_TIME.run(clock); // as Calcite: tests may set the clock
    long time = clock.get();
    long localOffset = settings.timeZone.getOffset(time);
    values.put(Variable.UTC_TIMESTAMP.camelName, time);
    values.put(Variable.CURRENT_TIMESTAMP.camelName, time + localOffset);
    values.put(Variable.LOCAL_TIMESTAMP.camelName, time + localOffset);
    values.put(Variable.SYS_TIMESTAMP.camelName, time + TimeZone.getDefault().getOffset(time));
    values.put(Variable.TIME_ZONE.camelName, settings.timeZone);
    values.put(Variable.TIME_FRAME_SET.camelName, settings.timeFrames);
    values.put(Variable.USER.camelName, "sa");
    values.put(Variable.SYSTEM_USER.camelName, System.getProperty("user.name"));
    values.put(Variable.LOCALE.camelName, settings.locale);
    values.put(Variable.STDIN.camelName, System.in);
    values.put(Variable.STDOUT.camelName, System.out);
    values.put(Variable.STDERR.camelName, System.err);
    StatementSnapshot snapshot = new StatementSnapshot();
    values.put(StatementSnapshot.VARIABLE, snapshot);
    return snapshot.around(
        signature.enumerable(new ExecutionContext(settings, signature.rootSchema, values)));
  }

  @Override
  public Object get(String name) {
    return values.get(name);
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
