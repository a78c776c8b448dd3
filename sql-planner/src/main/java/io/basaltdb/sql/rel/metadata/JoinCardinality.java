package io.basaltdb.sql.rel.metadata;

import io.basaltdb.sql.rel.BasaltScan;
import io.basaltdb.sql.rel.BasaltToEnumerableConverter;
import io.basaltdb.sql.rel.PlannedTable;
import java.util.List;
import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.core.JoinInfo;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.metadata.BuiltInMetadata;
import org.apache.calcite.rel.metadata.ChainedRelMetadataProvider;
import org.apache.calcite.rel.metadata.DefaultRelMetadataProvider;
import org.apache.calcite.rel.metadata.MetadataDef;
import org.apache.calcite.rel.metadata.MetadataHandler;
import org.apache.calcite.rel.metadata.ReflectiveRelMetadataProvider;
import org.apache.calcite.rel.metadata.RelColumnOrigin;
import org.apache.calcite.rel.metadata.RelMdUtil;
import org.apache.calcite.rel.metadata.RelMetadataProvider;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.util.ImmutableBitSet;

/**
 * Row counts of inner equi-joins that know about keys and distinct values, for the join order.
 * Calcite estimates every join as {@code left x right x 0.15} per equality, so joining two
 * tables on a many-to-many column (TPC-H Q5's customer and supplier on the nation key) looks
 * as good as joining orders to its lineitems on the order key, and it ordered Q5 that way.
 * Here an equality {@code a = b} has the textbook selectivity {@code 1 / max(values of a,
 * values of b)}: a column that is its table's primary key has as many values as the table has
 * rows (so a foreign-key join keeps one row per left row the right side kept), other columns
 * of Basalt tables the distinct values sampled from them ({@code PlannedTable
 * .distinctValues}); equalities that together make one side's whole key count once, as a
 * foreign-key join; a column equated twice with the other side counts once (the two it equals
 * are equal, an implied equality a join below applied). Unknown columns keep Calcite's guess;
 * non-equi conditions and outer joins are left to Calcite.
 */
public final class JoinCardinality implements MetadataHandler<BuiltInMetadata.RowCount> {
  private static final double GUESS = 0.15; // Calcite's selectivity of an unknown equality

  /**
   * Basalt's join row counts, its scans' column origins (Calcite finds none for a scan that
   * reads some columns only) and unique columns ({@link ScanUniqueness}), then Calcite's
   * metadata for everything else.
   */
  public static final RelMetadataProvider PROVIDER = ChainedRelMetadataProvider.of(List.of(
      ReflectiveRelMetadataProvider.reflectiveSource(new JoinCardinality(),
          BuiltInMetadata.RowCount.Handler.class),
      ReflectiveRelMetadataProvider.reflectiveSource(new ScanColumnOrigins(),
          BuiltInMetadata.ColumnOrigin.Handler.class),
      ReflectiveRelMetadataProvider.reflectiveSource(new SortCost(),
          BuiltInMetadata.NonCumulativeCost.Handler.class),
      ReflectiveRelMetadataProvider.reflectiveSource(new ScanUniqueness.Columns(),
          BuiltInMetadata.ColumnUniqueness.Handler.class),
      ReflectiveRelMetadataProvider.reflectiveSource(new ScanUniqueness.Keys(),
          BuiltInMetadata.UniqueKeys.Handler.class),
      DefaultRelMetadataProvider.INSTANCE));

  /**
   * A sort's cost as Volcano compares it (rows only): Calcite counts the rows sorted once, as
   * if sorting cost what reading does, so merge joins over whole sorted inputs (six million
   * line items sorted for TPC-H's Q9) looked cheaper than hash joins; here the rows times a
   * quarter of their binary logarithm, about what sorting Java rows costs against a Basalt
   * scan reading them.
   */
  public static final class SortCost
      implements MetadataHandler<BuiltInMetadata.NonCumulativeCost> {
    @Override
    public MetadataDef<BuiltInMetadata.NonCumulativeCost> getDef() {
      return BuiltInMetadata.NonCumulativeCost.DEF;
    }

    /** Called by Calcite's metadata dispatch. */
    public org.apache.calcite.plan.RelOptCost getNonCumulativeCost(
        org.apache.calcite.adapter.enumerable.EnumerableSort sort, RelMetadataQuery mq) {
      org.apache.calcite.plan.RelOptCost cost = sort.computeSelfCost(sort.getCluster()
          .getPlanner(), mq);
      Double in = mq.getRowCount(sort.getInput());
      double factor = in == null ? 1 : Math.max(1, Math.log(Math.max(2, in)) / Math.log(2) / 4);
      return cost == null ? null : cost.multiplyBy(factor);
    }

    /**
     * A hash join's cost; for a SEMI join without the hundredfold discount Calcite gives it
     * (to prefer semi-joins to other forms of the same query), which made a hash semi-join
     * building on all six million line items (TPC-H Q21's EXISTS) look cheaper than looking
     * up each left row's few line items by key prefix, while the ANTI join of the same shape
     * was costed in full.
     */
    public org.apache.calcite.plan.RelOptCost getNonCumulativeCost(
        org.apache.calcite.adapter.enumerable.EnumerableHashJoin join, RelMetadataQuery mq) {
      org.apache.calcite.plan.RelOptCost cost = join.computeSelfCost(join.getCluster()
          .getPlanner(), mq);
      return cost == null || !join.isSemiJoin() ? cost : cost.multiplyBy(100);
    }
  }

  /** Where a Basalt scan's output columns come from: its table's columns, as it reads them. */
  public static final class ScanColumnOrigins
      implements MetadataHandler<BuiltInMetadata.ColumnOrigin> {
    private ScanColumnOrigins() {}

    @Override
    public MetadataDef<BuiltInMetadata.ColumnOrigin> getDef() {
      return BuiltInMetadata.ColumnOrigin.DEF;
    }

    /** Called by Calcite's metadata dispatch. */
    public java.util.Set<RelColumnOrigin> getColumnOrigins(BasaltScan scan, RelMetadataQuery mq,
        int column) {
      if (scan.spec().aggregate() != null || column >= scan.spec().columns().size()) {
        return null;
      }
      return java.util.Set.of(new RelColumnOrigin(scan.getTable(),
          scan.spec().columns().get(column), false));
    }

    /** Called by Calcite's metadata dispatch. */
    public java.util.Set<RelColumnOrigin> getColumnOrigins(BasaltToEnumerableConverter c,
        RelMetadataQuery mq, int column) {
      return mq.getColumnOrigins(c.getInput(), column);
    }

    /**
     * A set of equivalent plans while Volcano plans (a join's inputs then): the origins its
     * best or first plan reports. Calcite reports none, so no join estimate found its keys
     * while join orders were compared, only in the finished plan.
     */
    public java.util.Set<RelColumnOrigin> getColumnOrigins(
        org.apache.calcite.plan.volcano.RelSubset subset, RelMetadataQuery mq, int column) {
      RelNode rel = subset.getBest() != null ? subset.getBest() : subset.getOriginal();
      return rel == null ? null : mq.getColumnOrigins(rel, column);
    }

    /** A plan vertex while a Hep program runs: the origins of its current plan. */
    public java.util.Set<RelColumnOrigin> getColumnOrigins(
        org.apache.calcite.plan.hep.HepRelVertex vertex, RelMetadataQuery mq, int column) {
      return mq.getColumnOrigins(vertex.getCurrentRel(), column);
    }
  }

  private JoinCardinality() {}

  @Override
  public MetadataDef<BuiltInMetadata.RowCount> getDef() {
    return BuiltInMetadata.RowCount.DEF;
  }

  /** Called by Calcite's metadata dispatch for every join. */
  public Double getRowCount(Join join, RelMetadataQuery mq) {
    JoinInfo info = join.analyzeCondition();
    if (join.getJoinType() != JoinRelType.INNER || !info.isEqui() || info.leftKeys.isEmpty()) {
      return RelMdUtil.getJoinRowCount(mq, join, join.getCondition());
    }
    Double left = mq.getRowCount(join.getLeft());
    Double right = mq.getRowCount(join.getRight());
    if (left == null || right == null) {
      return RelMdUtil.getJoinRowCount(mq, join, join.getCondition());
    }
    double rows = left * right;
    // all the equalities together on one side's whole key (partsupp's two columns in Q9)
    double keyRows = Math.max(keyRows(mq, join.getLeft(), info.leftSet()),
        keyRows(mq, join.getRight(), info.rightSet()));
    if (keyRows > 0 && info.leftKeys.size() > 1) {
      return Math.max(1, rows / keyRows);
    }
    java.util.Set<Integer> seenLeft = new java.util.HashSet<>();
    java.util.Set<Integer> seenRight = new java.util.HashSet<>();
    for (int i = 0; i < info.leftKeys.size(); i++) {
      if (!seenLeft.add(info.leftKeys.get(i)) | !seenRight.add(info.rightKeys.get(i))) {
        // a column equal to two columns of the other side: those two are equal, which the
        // implied equalities (JoinEqualityClosureRule) already made a condition below
        continue;
      }
      // a column equal to another table's whole key takes at most that table's values (a
      // foreign key): its sampled estimate, scaled from a sample of mostly distinct values,
      // must not make l_suppkey = s_suppkey keep a 500th of the line items
      double key = Math.max(keyRows(mq, join.getLeft(), ImmutableBitSet.of(info.leftKeys.get(i))),
          keyRows(mq, join.getRight(), ImmutableBitSet.of(info.rightKeys.get(i))));
      double domain = key > 0 ? key : Math.max(domain(mq, join.getLeft(), info.leftKeys.get(i)),
          domain(mq, join.getRight(), info.rightKeys.get(i)));
      rows *= domain > 0 ? 1 / domain : GUESS;
    }
    return Math.max(1, rows);
  }

  /**
   * The rows of the table whose primary key {@code columns} of {@code rel} are, all from that
   * one table; else 0.
   */
  private static double keyRows(RelMetadataQuery mq, RelNode rel, ImmutableBitSet columns) {
    RelOptTable table = null;
    ImmutableBitSet.Builder ordinals = ImmutableBitSet.builder();
    for (int c : columns) {
      RelColumnOrigin origin = mq.getColumnOrigin(rel, c);
      if (origin == null || origin.isDerived()
          || table != null && table != origin.getOriginTable()) {
        return 0;
      }
      table = origin.getOriginTable();
      ordinals.set(origin.getOriginColumnOrdinal());
    }
    return table != null && table.isKey(ordinals.build()) ? table.getRowCount() : 0;
  }

  /**
   * The number of values column {@code column} of {@code rel} can take: its table's row count
   * when it is the table's primary key, else the distinct values sampled from a Basalt table;
   * 0 when unknown.
   */
  private static double domain(RelMetadataQuery mq, RelNode rel, int column) {
    RelColumnOrigin origin = mq.getColumnOrigin(rel, column);
    if (origin == null || origin.isDerived()) {
      return 0;
    }
    RelOptTable table = origin.getOriginTable();
    int ordinal = origin.getOriginColumnOrdinal();
    if (table.isKey(ImmutableBitSet.of(ordinal))) {
      return table.getRowCount();
    }
    PlannedTable basalt = table.unwrap(PlannedTable.class);
    return basalt == null ? 0 : basalt.distinctValues(ordinal);
  }
}
