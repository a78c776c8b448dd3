package io.basaltdb.sql.rel;

import io.basaltdb.sql.catalog.SqlTableDef;
import io.basaltdb.sql.pushdown.AggregateSpec;
import io.basaltdb.sql.pushdown.Operand;
import io.basaltdb.sql.pushdown.ScanSpec;
import java.util.List;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptCost;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelWriter;
import org.apache.calcite.rel.core.TableScan;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;

/**
 * A scan of one Basalt SQL table, carrying everything pushed into it
 * ({@link ScanSpec}): key ranges, engine filters, projected columns, offset and limit, and
 * direction. The planner rules ({@link BasaltRules}) grow the spec by absorbing the operators
 * above the scan; a fuller spec always costs less, so the planner keeps the pushed plan.
 */
public final class BasaltScan extends TableScan implements BasaltRel {
  private final PlannedTable basaltTable;
  private final ScanSpec spec;
  /** With a pushed aggregation: the aggregate's row type (else null). */
  private final RelDataType aggregateType;
  private final IndexHint indexHint;

  public BasaltScan(RelOptCluster cluster, RelTraitSet traits, RelOptTable table,
      PlannedTable basaltTable, ScanSpec spec, RelDataType aggregateType) {
    this(cluster, traits, List.of(), table, basaltTable, spec, aggregateType);
  }

  private BasaltScan(RelOptCluster cluster, RelTraitSet traits,
      List<org.apache.calcite.rel.hint.RelHint> hints, RelOptTable table,
      PlannedTable basaltTable, ScanSpec spec, RelDataType aggregateType) {
    super(cluster, traits, hints, table);
    this.basaltTable = basaltTable;
    this.spec = spec;
    this.aggregateType = aggregateType;
    this.indexHint = hints.isEmpty() ? IndexHint.FREE : IndexHint.of(hints,
        basaltTable.definition().table().name(),
        basaltTable.indexes().stream().map(i -> i.index().name()).toList());
  }

  /**
   * The scan of a whole table, as the table first appears in a plan: logical (convention NONE)
   * while the rules push operators into it, so it shares its subsets with Calcite's logical
   * operators; the converter rule then makes a Basalt-convention copy the plan runs.
   */
  public static BasaltScan create(RelOptCluster cluster, RelOptTable table, PlannedTable t,
      List<org.apache.calcite.rel.hint.RelHint> hints) {
    return new BasaltScan(cluster, cluster.traitSetOf(org.apache.calcite.plan.Convention.NONE),
        hints, table, t, ScanSpec.all(t.definition()), null);
  }

  public PlannedTable basaltTable() {
    return basaltTable;
  }

  public SqlTableDef definition() {
    return basaltTable.definition();
  }

  public ScanSpec spec() {
    return spec;
  }

  /** What the statement's hints say about this table's indexes. */
  public IndexHint indexHint() {
    return indexHint;
  }

  /** The indexes the rules may offer for this scan: its table's, as its hints allow. */
  public List<io.basaltdb.sql.index.IndexLayout> usableIndexes() {
    return indexHint.usable(basaltTable.indexes());
  }

  /** The same scan with another spec (and traits, when it now delivers an order). */
  public BasaltScan with(ScanSpec s, RelTraitSet traits) {
    return new BasaltScan(getCluster(), traits, getHints(), getTable(), basaltTable, s,
        aggregateType);
  }

  /** The scan computing an aggregation whose output rows have {@code rowType}. */
  public BasaltScan withAggregate(AggregateSpec a, RelDataType rowType) {
    return new BasaltScan(getCluster(), getTraitSet(), getHints(), getTable(), basaltTable,
        spec.withAggregate(a), rowType);
  }

  @Override
  public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
    return new BasaltScan(getCluster(), traitSet, getHints(), getTable(), basaltTable, spec,
        aggregateType);
  }

  @Override
  public RelNode withHints(List<org.apache.calcite.rel.hint.RelHint> hintList) {
    return new BasaltScan(getCluster(), getTraitSet(), hintList, getTable(), basaltTable, spec,
        aggregateType);
  }

  @Override
  public RelDataType deriveRowType() {
    if (aggregateType != null) {
      return aggregateType;
    }
    RelDataTypeFactory f = getCluster().getTypeFactory();
    RelDataTypeFactory.Builder b = f.builder();
    for (int c : spec.columns()) {
      var col = definition().columns().get(c);
      b.add(col.name(), col.sqlType(f));
    }
    return b.build();
  }

  @Override
  public RelWriter explainTerms(RelWriter pw) {
    RelWriter w = super.explainTerms(pw);
    if (spec.index() != null) {
      var index = basaltTable.index(spec.index().name());
      w = w.item("index", spec.index().name() + (coveringIndex() ? " (covering)" : "") + ": "
          + (index == null ? "(dropped)" : spec.index().keys().describe(index.keyDefinition())));
    }
    for (String[] item : spec.describe(definition())) {
      w = w.item(item[0], item[1]);
    }
    return w;
  }

  /** True when the scan's index holds every column it returns or filters on. */
  private boolean coveringIndex() {
    var index = spec.index() == null ? null : basaltTable.index(spec.index().name());
    if (index == null || definition().packed()) {
      return false;
    }
    java.util.Set<Integer> read = new java.util.TreeSet<>(spec.columns());
    read.addAll(io.basaltdb.sql.pushdown.PushedPredicate.cellColumns(spec.filters(),
        definition()));
    return read.stream().allMatch(index::covers);
  }

  @Override
  public double estimateRowCount(RelMetadataQuery mq) {
    if (spec.aggregate() != null) {
      return spec.aggregate().groups().isEmpty() ? 1 : Math.max(1, rowsRead() / 10);
    }
    double rows = rowsRead() * selectivity(spec.filters(), this::equalityShare);
    Double limit = limitRows();
    return Math.max(1, limit == null ? rows : Math.min(rows, limit));
  }

  /** Rows the engine reads: the table's rows narrowed by the key conditions (or an index's). */
  /**
   * The share of rows that pass {@code filters}, without statistics: a half each, but a column
   * bounded on both sides ({@code d >= x AND d < y}: a date range) keeps a sixteenth, as
   * engines without statistics guess a bounded range far below its two halves (SQLite 1/64,
   * PostgreSQL 0.005); a quarter made TPC-H's one quarter of seven years of orders look like
   * 375,000 orders instead of 57,000, and a lookup join into their line items look dearer
   * than reading all six million.
   */
  static double selectivity(List<io.basaltdb.sql.pushdown.PushedPredicate> filters,
      java.util.function.IntToDoubleFunction equality) {
    java.util.Map<Integer, Integer> sides = new java.util.HashMap<>(); // column -> 1 low, 2 high
    double share = 1;
    for (var p : filters) {
      if (p instanceof io.basaltdb.sql.pushdown.PushedPredicate.Compare c
          && c.op() != io.basaltdb.storage.CompareOperator.EQUAL
          && c.op() != io.basaltdb.storage.CompareOperator.NOT_EQUAL) {
        boolean low = c.op() == io.basaltdb.storage.CompareOperator.GREATER
            || c.op() == io.basaltdb.storage.CompareOperator.GREATER_OR_EQUAL;
        int before = sides.getOrDefault(c.column(), 0);
        int now = before | (low ? 1 : 2);
        sides.put(c.column(), now);
        share *= before != 3 && now == 3 ? 0.125 : 0.5; // both sides: 1/2 * 1/8 = 1/16
      } else if (p instanceof io.basaltdb.sql.pushdown.PushedPredicate.Compare c
          && c.op() == io.basaltdb.storage.CompareOperator.EQUAL) {
        share *= equality.applyAsDouble(c.column());
      } else {
        share *= 0.5;
      }
    }
    return share;
  }

  /** Tables this small are read whole to count a column's distinct values. */
  static final double SMALL_TABLE_ROWS = 1000;
  /** Fewer distinct values than this in a column's sample: a small domain, seen whole. */
  static final double SMALL_DOMAIN = 200;

  /**
   * The share of rows an equality on {@code column} keeps: one of its distinct values in a
   * small table (a dimension such as TPC-H's 25 nations, where a half made one nation's
   * suppliers look like half of them, and the join order read every finished order's line
   * items before the one nation narrowed them) or in a column of few values (50 part sizes);
   * a half elsewhere (the sampled distinct values of big columns, scaled to the table,
   * misled more plans than they mended). {@code -Dbasalt.equalityDistinct=false}: a half
   * always.
   */
  private double equalityShare(int column) {
    if (!io.basaltdb.sql.Switches.EQUALITY_DISTINCT.on()) {
      return 0.5;
    }
    double rows = table.getRowCount();
    double distinct = Math.max(1, Math.min(rows, basaltTable.distinctValues(column)));
    return rows <= SMALL_TABLE_ROWS || distinct < SMALL_DOMAIN ? 1 / distinct : 0.5;
  }

  private double rowsRead() {
    double total = Math.max(1, table.getRowCount());
    var keys = spec.keys();
    if (spec.index() != null) {
      keys = spec.index().keys();
      var index = basaltTable.index(spec.index().name());
      if (index != null && index.index().unique()
          && keys.equalities().size() >= index.index().columns().size()) {
        return keys.rangeCount();
      }
    } else if (keys.isPointLookup(definition())) {
      return keys.rangeCount();
    }
    double rows = total;
    var stats = spec.index() == null ? null
        : java.util.Optional.ofNullable(basaltTable.index(spec.index().name()))
            .map(l -> l.index().stats()).orElse(null);
    int equal = keys.equalities().size();
    if (stats != null && equal > 0 && stats.rows() > 0) {
      // what an equality on the leading columns finds, from the counts of the last build
      rows = total * stats.rowsPerValue(equal) / stats.rows();
      for (int i = 0; i < equal; i++) {
        rows *= keys.equalities().get(i).size();
      }
    } else {
      for (int i = 0; i < equal; i++) {
        rows *= 0.1 * keys.equalities().get(i).size();
      }
    }
    if (!keys.intervals().isEmpty()) {
      double share = 0;
      for (var i : keys.intervals()) {
        share += (i.lower() == null ? 1 : 0.5) * (i.upper() == null ? 1 : 0.5);
      }
      rows *= Math.min(1, share);
    }
    return Math.max(1, Math.min(total, rows));
  }

  private Double limitRows() {
    Operand f = spec.fetch();
    if (f == null) {
      return null;
    }
    if (f.isParameter()) {
      return 100.0;
    }
    Operand o = spec.offset();
    double off = o == null || o.isParameter() ? 0 : ((Number) o.bind(null)).doubleValue();
    return ((Number) f.bind(null)).doubleValue() + off;
  }

  @Override
  public RelOptCost computeSelfCost(RelOptPlanner planner, RelMetadataQuery mq) {
    double read = rowsRead();
    Double limit = limitRows();
    if (limit != null) {
      double pass = Math.pow(0.5, spec.filters().size());
      read = Math.min(read, limit / pass);
    }
    int total = definition().columns().size();
    double width = 0.5 + 0.5 * spec.columns().size() / total;
    // Volcano compares costs by their row component only: it carries the work, rows read
    // weighted by the columns decoded, cheaper than Calcite's own operators over those rows
    double work = read * width * (spec.aggregate() == null ? 0.5 : 0.4);
    if (spec.index() != null && !coveringIndex()) {
      work *= 3; // an index entry read, then the row fetched by its key
    }
    if (indexHint.forced() && spec.index() == null) {
      work = work * 1e6 + 1e6; // INDEX(..): the table read only when no named index serves
    }
    return planner.getCostFactory().makeCost(work, work, read * width);
  }

  @Override
  public void register(RelOptPlanner planner) {
    basaltTable.rules().forEach(planner::addRule);
  }
}
