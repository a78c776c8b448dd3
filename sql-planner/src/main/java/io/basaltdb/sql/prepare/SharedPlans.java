package io.basaltdb.sql.prepare;

import io.basaltdb.sql.PlannerStats;
import io.basaltdb.sql.Switches;
import io.basaltdb.sql.parser.LiteralParameters;
import io.basaltdb.sql.parser.StatementShape;
import io.basaltdb.sql.parser.impl.LimitedParser;
import io.basaltdb.storage.Storage;
import java.math.BigDecimal;
import java.sql.Types;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.apache.calcite.DataContext;
import org.apache.calcite.avatica.AvaticaParameter;
import org.apache.calcite.config.CalciteConnectionConfig;
import org.apache.calcite.jdbc.CalcitePrepare.CalciteSignature;
import org.apache.calcite.jdbc.CalcitePrepare;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.parser.SqlParseException;
import org.apache.calcite.sql.parser.SqlParser;

/**
 * Plans shared across literal values (issue 11): a statement without parameters of its own
 * whose literals can be parameters ({@link LiteralParameters}) is planned as its normalized
 * text, each such literal a {@code ?} (so {@code WHERE id = 5} and {@code WHERE id = 6} share
 * one plan, cached by that text in the {@link PlanCache}), and runs with its own values bound
 * to those hidden parameters: its signature is a copy of the shared one whose internal
 * parameters carry them (Calcite puts internal parameters in the execution's data context,
 * where the plan reads {@code ?0, ?1, ...}) and which shows no parameters to the user.
 *
 * <p>A normalized text Calcite cannot plan (a parameter where it cannot type or convert one)
 * is remembered per database and its statements planned with their literals. A value is
 * bound only when it is exactly the value of its parameter's type (an integer
 * within range for an integer column, a decimal within precision and scale, a string within a
 * VARCHAR's length, a number for a floating-point column); otherwise the statement is planned
 * with its literals, as before, so a shared plan never answers for a cut or rounded value.
 * A number in an expression (an <em>exact</em> site) becomes {@code CAST(? AS T)}, {@code T}
 * the literal's own type ({@link #ownType}); a shape where such a parameter cannot be planned or
 * bound keeps that number a literal from then on (its template is made again without it).
 */
final class SharedPlans {
  /**
   * At most this many literals become parameters: a long OR or IN list of literal keys is
   * folded into key ranges at planning, which parameters would prevent (and the generated
   * code for a thousand parameters does not compile).
   */
  static final int MAX_PARAMETERS = 32;

  /**
   * The values of an {@code INSERT} or {@code UPSERT} of many rows may all become parameters,
   * up to this many, when the statement then has a plan made without Calcite's planner and
   * code ({@link DirectPlans}: work per row, no search, nothing compiled); otherwise such a
   * statement is planned with its literals, as one of more than {@link #MAX_PARAMETERS}.
   */
  static final int MAX_ROW_PARAMETERS = 1 << 16;

  private SharedPlans() {}

  /**
   * The statement's signature on the plan of its normalized text ({@code plan} makes or
   * reuses that), or null when it has nothing to share or a value does not fit.
   */
  static <T> CalciteSignature<T> prepare(Storage db, CalcitePrepare.Context context,
      String sql, Function<String, CalciteSignature<T>> plan,
      Function<String, CalciteSignature<T>> planDirect) {
    if (!Switches.SHARED_PLANS.on()) {
      return null;
    }
    if (sql.indexOf('?') >= 0 && sql.indexOf('\'') < 0 && sql.indexOf('-') < 0
        && sql.indexOf('/') < 0) {
      return null; // a parameter of its own outside any string or comment: never shared
    }
    ParserSettings settings = ParserSettings.of(context);
    StatementShape shape = StatementShape.of(sql, settings.quoting());
    if (shape == null) {
      return null;
    }
    Templates templates = db.extension(Templates.class, Templates::new);
    String key = settings.key() + "\n" + shape.key();
    Template template = templates.get(key);
    if (template == null) {
      template = Template.of(shape, sites(context.config(), sql), DirectPlans.writesRows(sql));
      templates.put(key, template);
    }
    if (template.literals.length == 0) {
      return null;
    }
    List<int[]> spans = new java.util.ArrayList<>(template.literals.length);
    List<String> texts = new java.util.ArrayList<>(template.literals.length);
    Object[] literals = new Object[template.literals.length];
    for (int i = 0; i < literals.length; i++) {
      StatementShape.Literal l = shape.literals().get(template.literals[i]);
      Object v = l.value(sql);
      int sign = template.negative[i] ? shape.signBefore(l, '-') : l.start();
      if (sign < 0) {
        return null; // cannot be: the shape is the template's
      }
      literals[i] = template.negative[i] ? negate(v) : v;
      spans.add(new int[] {sign, l.end()});
      String type = template.exact[i] ? ownType(literals[i]) : null;
      if (template.exact[i] && type == null) {
        templates.put(key, template.without(i)); // a number no SQL type of its own holds
        return null;
      }
      texts.add(type == null ? null : "CAST(? AS " + type + ")");
    }
    String normalized = shape.normalized(spans, texts);
    Unplannable unplannable = db.extension(Unplannable.class, Unplannable::new);
    if (unplannable.get(normalized) != null) {
      return null;
    }
    CalciteSignature<T> planned;
    try {
      planned = literals.length > MAX_PARAMETERS ? planDirect.apply(normalized)
          : plan.apply(normalized);
    } catch (RuntimeException | StackOverflowError e) {
      planned = null;
    }
    CalciteSignature<T> shared = planned;
    if (shared == null) {
      if (template.hasExact()) {
        // a number in an expression made a parameter Calcite cannot plan (GROUP BY a + 1
        // with a + 1 selected): the shape keeps its numbers in expressions from now on
        templates.put(key, template.without(template.exact));
        return null;
      }
      // Calcite cannot plan a parameter there (e.g. inside a CASE of an aggregate), or a
      // statement of many rows has no direct plan: it is planned with its literals, now and
      // next time
      unplannable.put(normalized, true);
      return null;
    }
    if (shared.parameters.size() != literals.length) {
      return null;
    }
    Map<String, Object> values = new HashMap<>(shared.internalParameters);
    // the shared plan's batch path writes bound rows; this statement's values are hidden
    // parameters, so its batches run row by row
    values.values().removeIf(v -> v instanceof io.basaltdb.sql.rel.BatchWrite);
    for (int i = 0; i < literals.length; i++) {
      Object local = bind(shared.parameters.get(i), literals[i]);
      if (local == null) {
        if (template.exact[i]) { // not bound as its own type: it stays a number in this shape
          templates.put(key, template.without(i));
        }
        return null;
      }
      values.put("?" + i, local);
    }
    PlannerStats.of(db).sharedLiteralStatements.incrementAndGet();
    return new CalciteSignature<T>(sql, List.of(), values, shared.rowType, shared.columns,
        shared.cursorFactory, shared.rootSchema, shared.getCollationList(), -1, null,
        shared.statementType) {
      @Override
      public Enumerable<T> enumerable(DataContext dataContext) {
        return shared.enumerable(dataContext); // the shared plan, its row limit included
      }
    };
  }

  /** A bounded map, least recently used entries dropped first, read by threads without a lock. */
  private static class Lru<V> {
    private final com.google.common.cache.Cache<String, V> map;

    Lru(int capacity) {
      map = com.google.common.cache.CacheBuilder.newBuilder().maximumSize(capacity).build();
    }

    V get(String key) {
      return map.getIfPresent(key);
    }

    void put(String key, V value) {
      map.put(key, value);
    }
  }

  /** Normalized texts Calcite could not plan, per database. */
  private static final class Unplannable extends Lru<Boolean> {
    Unplannable() {
      super(1024);
    }
  }

  /** Templates by statement shape, per database. */
  private static final class Templates extends Lru<Template> {
    Templates() {
      super(4096);
    }
  }

  private static Object negate(Object v) {
    return v instanceof BigDecimal d ? d.negate() : (Object) (-(Double) v);
  }

  /**
   * Which literals of a statement shape become parameters, as found in the parse of the first
   * statement of that shape: indexes into {@link StatementShape#literals}, each maybe with the
   * minus sign before it. The parser builds the same tree for every text of one shape, so
   * the same literals are parameters in all of them. No literals: nothing to share.
   */
  private static final class Template {
    static final Template NONE = new Template(new int[0], new boolean[0], new boolean[0]);
    final int[] literals;
    final boolean[] negative;
    /** The literal's parameter must have the literal's own type ({@link LiteralParameters}). */
    final boolean[] exact;

    private Template(int[] literals, boolean[] negative, boolean[] exact) {
      this.literals = literals;
      this.negative = negative;
      this.exact = exact;
    }

    boolean hasExact() {
      for (boolean e : exact) {
        if (e) {
          return true;
        }
      }
      return false;
    }

    /** This template but its literal {@code i}, which stays a literal. */
    Template without(int i) {
      boolean[] drop = new boolean[literals.length];
      drop[i] = true;
      return without(drop);
    }

    /** This template but the literals marked in {@code drop}, which stay literals. */
    Template without(boolean[] drop) {
      int n = 0;
      for (boolean d : drop) {
        n += d ? 0 : 1;
      }
      int[] l = new int[n];
      boolean[] neg = new boolean[n];
      boolean[] ex = new boolean[n];
      for (int i = 0, j = 0; i < literals.length; i++) {
        if (!drop[i]) {
          l[j] = literals[i];
          neg[j] = negative[i];
          ex[j++] = exact[i];
        }
      }
      return new Template(l, neg, ex);
    }

    static Template of(StatementShape shape, List<LiteralParameters.Site> sites,
        boolean writesRows) {
      int limit = writesRows ? MAX_ROW_PARAMETERS : MAX_PARAMETERS;
      if (sites.size() > limit) { // numbers in expressions stay literals first
        sites = sites.stream().filter(site -> !site.exact()).toList();
      }
      if (sites.isEmpty() || sites.size() > limit) {
        return NONE;
      }
      int[] literals = new int[sites.size()];
      boolean[] negative = new boolean[sites.size()];
      boolean[] exact = new boolean[sites.size()];
      List<StatementShape.Literal> all = shape.literals();
      int next = 0;
      for (int i = 0; i < sites.size(); i++) {
        LiteralParameters.Site site = sites.get(i);
        while (next < all.size() && all.get(next).end() < site.end()) {
          next++;
        }
        if (next == all.size() || all.get(next).end() != site.end()) {
          return NONE; // a literal the shape does not see as one: not shared
        }
        StatementShape.Literal l = all.get(next);
        negative[i] = l.start() != site.start();
        if (negative[i] && shape.signBefore(l, '-') != site.start()) {
          return NONE;
        }
        literals[i] = next++;
        exact[i] = site.exact();
      }
      return new Template(literals, negative, exact);
    }
  }

  private static List<LiteralParameters.Site> sites(CalciteConnectionConfig config, String sql) {
    SqlNode stmt;
    try {
      stmt = SqlParser.create(sql, SqlParser.config()
          .withQuotedCasing(config.quotedCasing())
          .withUnquotedCasing(config.unquotedCasing())
          .withQuoting(config.quoting())
          .withConformance(config.conformance())
          .withCaseSensitive(config.caseSensitive())
          .withParserFactory(LimitedParser.FACTORY)).parseStmt();
    } catch (SqlParseException | RuntimeException | StackOverflowError e) {
      return List.of(); // the statement's own preparation reports it
    }
    return LiteralParameters.find(stmt, sql);
  }

  /**
   * The SQL type Calcite gives the number {@code v} written as a literal: INTEGER for an integer
   * an INTEGER holds (its sign included), BIGINT for a larger one a BIGINT holds, DECIMAL(p, s) of
   * its digits for one with a fraction, DOUBLE for one with an exponent; null for any other
   * (an integer past BIGINT). An exact site's parameter is cast to it, so every type derived
   * from it, the result's included, is the literal's.
   */
  static String ownType(Object v) {
    if (v instanceof Double) {
      return "DOUBLE";
    }
    if (!(v instanceof BigDecimal d)) {
      return null;
    }
    if (d.scale() > 0) {
      return d.precision() >= d.scale()
          ? "DECIMAL(" + d.precision() + ", " + d.scale() + ")" : null;
    }
    if (d.compareTo(BigDecimal.valueOf(Integer.MIN_VALUE)) >= 0
        && d.compareTo(BigDecimal.valueOf(Integer.MAX_VALUE)) <= 0) {
      return "INTEGER";
    }
    return d.compareTo(BigDecimal.valueOf(Long.MIN_VALUE)) >= 0
        && d.compareTo(BigDecimal.valueOf(Long.MAX_VALUE)) <= 0 ? "BIGINT" : null;
  }

  /**
   * The literal as its parameter's internal value, or null when it is not exactly one. For
   * the types bound here (integers, DECIMAL, DOUBLE, VARCHAR) the internal value is the JDBC
   * value itself (what {@code TypedValue.ofJdbc(v, calendar).toLocal()} returns for them).
   */
  private static Object bind(AvaticaParameter p, Object literal) {
    try {
      switch (p.parameterType) {
        case Types.TINYINT, Types.SMALLINT, Types.INTEGER, Types.BIGINT -> {
          if (!(literal instanceof BigDecimal d)) {
            return null;
          }
          long v = d.longValueExact(); // throws for a fraction or out of long's range
          return switch (p.parameterType) {
            case Types.TINYINT -> v == (byte) v ? (Object) (byte) v : null;
            case Types.SMALLINT -> v == (short) v ? (Object) (short) v : null;
            case Types.INTEGER -> v == (int) v ? (Object) (int) v : null;
            default -> v;
          };
        }
        case Types.DECIMAL, Types.NUMERIC -> {
          if (!(literal instanceof BigDecimal d) || d.scale() > p.scale) {
            return null;
          }
          BigDecimal v = d.setScale(p.scale);
          return v.precision() - v.scale() <= p.precision - p.scale ? v : null;
        }
        case Types.DOUBLE, Types.FLOAT -> {
          return literal instanceof Number n ? n.doubleValue() : null;
        }
        case Types.VARCHAR -> {
          return literal instanceof String s && (p.precision <= 0 || s.length() <= p.precision)
              ? s : null;
        }
        default -> {
          return null;
        }
      }
    } catch (ArithmeticException e) {
      return null;
    }
  }
}
