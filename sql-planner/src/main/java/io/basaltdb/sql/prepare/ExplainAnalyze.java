package io.basaltdb.sql.prepare;

import io.basaltdb.sql.SqlStateException;
import io.basaltdb.sql.SqlStates;
import io.basaltdb.sql.exec.context.Analysis;
import io.basaltdb.sql.parser.StatementHead;
import io.basaltdb.sql.rel.AnalyzeProbe;
import io.basaltdb.sql.rel.BasaltScan;
import io.basaltdb.storage.ScanMetrics;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.calcite.DataContext;
import org.apache.calcite.avatica.ColumnMetaData;
import org.apache.calcite.avatica.Meta;
import org.apache.calcite.jdbc.CalcitePrepare.CalciteSignature;
import org.apache.calcite.jdbc.CalcitePrepare;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Enumerator;
import org.apache.calcite.linq4j.Linq4j;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.runtime.Bindable;
import org.apache.calcite.sql.SqlExplainLevel;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * {@code EXPLAIN ANALYZE <query or DML>}: runs the statement (a DML statement writes, as in
 * PostgreSQL) and returns its plan, one row per line, each operator with the rows it gave and
 * the time spent in it and below it, each Basalt scan with what the engine did for it
 * ({@link ScanMetrics}: regions, seeks, rows and cells returned, cells stepped in memstores and
 * files, files read and passed over by time range or bloom filter, blocks from the cache and
 * from files, bytes decompressed), then the statement's total. The statement is planned afresh
 * (not from the plan cache, and compiled even where a plan would run without generated code),
 * with a probe over every operator ({@link AnalyzeProbe}); parameters are the statement's.
 */
final class ExplainAnalyze {
  private static final Pattern PREFIX = Pattern.compile("(?is)^\\s*EXPLAIN\\s+ANALYZE\\s+(.+)$");
  /**
   * The plan being made for EXPLAIN ANALYZE: the physical plan before probes, and its node
   * count. The statement preparation planning it holds it (one preparation per statement).
   */
  static final class Planned {
    RelNode plan;
    int operators;
  }

  private ExplainAnalyze() {}

  /** The statement EXPLAIN ANALYZE runs, or null when {@code sql} is not one. */
  static String statement(String sql) {
    if (!StatementHead.startsWith(sql, "EXPLAIN")) {
      return null; // most statements: no matcher made
    }
    Matcher m = PREFIX.matcher(sql);
    return m.matches() ? m.group(1) : null;
  }

  /** While planning for EXPLAIN ANALYZE ({@code p} not null): {@code plan} with probes. */
  static RelNode instrument(Planned p, RelNode plan) {
    if (p == null) {
      return plan;
    }
    p.plan = plan;
    int[] count = new int[1];
    RelNode probed = AnalyzeProbe.insert(plan, count);
    p.operators = count[0];
    return probed;
  }

  /**
   * The signature of {@code EXPLAIN ANALYZE inner}; {@code plan} plans the inner statement,
   * putting its plan in the {@link Planned} it is given.
   */
  static <T> CalciteSignature<T> prepare(CalcitePrepare.Context context, String sql,
      String inner,
      java.util.function.BiFunction<String, Planned, CalciteSignature<Object>> plan) {
    Planned planned = new Planned();
    long t0 = System.nanoTime();
    CalciteSignature<Object> s = plan.apply(inner, planned);
    long planNanos = System.nanoTime() - t0;
    if (planned.plan == null) {
      throw new SqlStateException(SqlStates.FEATURE_NOT_SUPPORTED,
          "EXPLAIN ANALYZE runs a query or a DML statement, "
          + "not: " + inner);
    }
    var types = context.getTypeFactory();
    RelDataType rowType = types.builder().add("PLAN", types.createTypeWithNullability(
        types.createSqlType(SqlTypeName.VARCHAR), false)).build();
    List<ColumnMetaData> columns = CalciteColumns.of(types, rowType,
        Collections.singletonList(null));
    Bindable<Object> run = ctx -> run(s, planned, planNanos, ctx);
    @SuppressWarnings("unchecked")
    Bindable<T> typed = (Bindable<T>) (Bindable<?>) run;
    return new CalciteSignature<>(sql, s.parameters, s.internalParameters, rowType, columns,
        Meta.CursorFactory.deduce(columns, Object.class), context.getRootSchema(), List.of(),
        -1, typed, Meta.StatementType.SELECT);
  }

  private static Enumerable<Object> run(CalciteSignature<Object> s, Planned planned,
      long planNanos, DataContext ctx) {
    Analysis analysis = new Analysis(planned.operators);
    long t0 = System.nanoTime();
    long rows = 0;
    Object last = null;
    try (Enumerator<Object> e = s.enumerable(analysis.wrap(ctx)).enumerator()) {
      while (e.moveNext()) {
        rows++;
        last = e.current();
      }
    }
    long nanos = System.nanoTime() - t0;
    List<Object> lines = new ArrayList<>(lines(planned.plan, analysis, nanos));
    boolean dml = s.statementType != null && s.statementType.canUpdate();
    lines.add(dml ? String.format(Locale.ROOT, "Execution: %s rows written, %s ms (planning %s"
            + " ms)", last instanceof Object[] a ? a[0] : last, ms(nanos), ms(planNanos))
        : String.format(Locale.ROOT, "Execution: %d rows, %s ms (planning %s ms)", rows,
            ms(nanos), ms(planNanos)));
    return Linq4j.asEnumerable(lines);
  }

  /**
   * The plan as EXPLAIN prints it, each line followed by what its operator did. A write at the
   * root does its work as the statement starts, before it gives its count: its time is the
   * statement's ({@code total}).
   */
  static List<String> lines(RelNode plan, Analysis analysis, long total) {
    String[] text = RelOptUtil.toString(plan, SqlExplainLevel.EXPPLAN_ATTRIBUTES).split("\n");
    List<RelNode> nodes = new ArrayList<>();
    preOrder(plan, nodes);
    List<String> out = new ArrayList<>();
    for (int i = 0; i < text.length; i++) {
      if (text[i].isBlank()) {
        continue;
      }
      RelNode n = i < nodes.size() ? nodes.get(i) : null;
      String line = text[i];
      if (n instanceof BasaltScan scan) {
        ScanMetrics m = analysis.scan(scan.spec());
        line += m == null ? "  (not run)" : "  " + scan(m);
      } else if (n != null && n instanceof org.apache.calcite.adapter.enumerable.EnumerableRel) {
        boolean write = i == 0 && n instanceof org.apache.calcite.rel.core.TableModify;
        line += String.format(Locale.ROOT, "  (rows=%d time=%s ms)", analysis.rows(i),
            ms(write ? total : analysis.nanos(i)));
      }
      out.add(line);
    }
    return out;
  }

  private static void preOrder(RelNode n, List<RelNode> out) {
    out.add(n);
    for (RelNode in : n.getInputs()) {
      preOrder(in, out);
    }
  }

  private static String scan(ScanMetrics m) {
    if (!m.storeReadsCounted()) {
      String onServers = m.regionAggregates.get() == 0 ? ""
          : String.format(Locale.ROOT, " regionAggregates=%d", m.regionAggregates.get());
      return String.format(Locale.ROOT, "(regions=%d rows=%d cells=%d%s; the storage's own "
          + "reads are not counted)", m.regions.get(), m.rowsReturned.get(),
          m.cellsReturned.get(), onServers);
    }
    return String.format(Locale.ROOT, "(regions=%d seeks=%d rows=%d cells=%d; read: "
        + "memstoreCells=%d fileCells=%d; files=%d skippedByTime=%d skippedByBloom=%d; "
        + "blocksCached=%d blocksRead=%d; decompressedBytes=%d)", m.regions.get(), m.seeks.get(),
        m.rowsReturned.get(), m.cellsReturned.get(), m.memstoreCells.get(), m.fileCells.get(),
        m.filesRead.get(), m.filesSkippedByTime.get(), m.filesSkippedByBloom.get(),
        m.blocksFromCache.get(), m.blocksFromFile.get(), m.bytesDecompressed.get());
  }

  private static String ms(long nanos) {
    return String.format(Locale.ROOT, "%.3f", nanos / 1e6);
  }
}
