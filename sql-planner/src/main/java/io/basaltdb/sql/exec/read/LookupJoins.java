package io.basaltdb.sql.exec.read;

import io.basaltdb.sql.SqlStates;
import io.basaltdb.sql.catalog.ColumnValues;
import io.basaltdb.sql.catalog.SqlColumn;
import io.basaltdb.sql.catalog.SqlTableDef;
import io.basaltdb.sql.exec.context.ConnectionSettings;
import io.basaltdb.sql.index.IndexLayout;
import io.basaltdb.sql.index.IndexRegistry;
import io.basaltdb.sql.pushdown.KeyConditions;
import io.basaltdb.sql.pushdown.KeyRange;
import io.basaltdb.sql.pushdown.Operand;
import io.basaltdb.sql.pushdown.ScanSpec;
import io.basaltdb.storage.Storage;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.calcite.DataContext;
import org.apache.calcite.linq4j.AbstractEnumerable;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Enumerator;
import org.apache.calcite.rel.core.JoinRelType;

/**
 * Runs a lookup join: the left rows are read in batches; for each batch the distinct values of
 * the lookup columns become key ranges of the right table (a prefix of its primary key, or of
 * an index), whose rows are fetched (batched gets when the whole key is given) with the right
 * side's filters, hashed by every equi-join column, and matched to the batch's rows in their
 * order: INNER, LEFT (unmatched rows padded with NULLs), SEMI (each matched left row once),
 * ANTI (each unmatched one); a SEMI or ANTI join's residual comparisons must hold for a pair to
 * match. A NULL join value matches nothing. Stateless.
 */
public final class LookupJoins {
  /** Left rows looked up at once. */
  static final int BATCH = 1024;

  private LookupJoins() {}

  /**
   * How a lookup join reads its right side, decided by the planner.
   *
   * @param index the index looked up, or null for the table's primary key
   * @param lookupColumns the table columns looked up, a prefix of the key (or of the index)
   * @param lookupLeft for each, the left field giving its value
   * @param points the lookup columns are the table's whole key: one get per value
   * @param leftKeys every equi-join pair's left field
   * @param rightKeys every equi-join pair's right field (position in the right rows)
   * @param type INNER, LEFT, SEMI or ANTI
   * @param rightWidth fields of a right row
   * @param residuals for SEMI and ANTI, comparisons each matching pair must also pass (the
   *     join's non-equi conditions, e.g. TPC-H Q21's {@code l2.l_suppkey <> l1.l_suppkey})
   */
  public record Plan(String index, int[] lookupColumns, int[] lookupLeft, boolean points,
      int[] leftKeys, int[] rightKeys, JoinRelType type, int rightWidth,
      List<Residual> residuals) {
    public Plan {
      residuals = List.copyOf(residuals);
    }
  }

  /**
   * A comparison of a left field with a right field (its position in the right rows), of one
   * type on both sides: true only when neither is NULL and the comparison holds.
   */
  public record Residual(int left, org.apache.calcite.sql.SqlKind op, int right) {
    boolean holds(Object[] l, Object[] r) {
      Object a = l[left];
      Object b = r[right];
      if (a == null || b == null) {
        return false;
      }
      @SuppressWarnings({"unchecked", "rawtypes"})
      int c = ((Comparable) normalized(a)).compareTo(normalized(b));
      return switch (op) {
        case EQUALS -> c == 0;
        case NOT_EQUALS -> c != 0;
        case LESS_THAN -> c < 0;
        case LESS_THAN_OR_EQUAL -> c <= 0;
        case GREATER_THAN -> c > 0;
        case GREATER_THAN_OR_EQUAL -> c >= 0;
        default -> throw new IllegalStateException("not a residual comparison: " + op);
      };
    }
  }

  /** Called by the generated code. */
  public static Enumerable<Object[]> join(Enumerable<Object[]> left, DataContext root,
      Storage db, SqlTableDef def, ScanSpec right, Plan plan) {
    return new AbstractEnumerable<>() {
      @Override
      public Enumerator<Object[]> enumerator() {
        return new Batches(left.enumerator(), root, db, def, right, plan);
      }
    };
  }

  /** Rows of one field as Calcite's operators read them: the values themselves. */
  public static Enumerable<Object> firstFields(Enumerable<Object[]> rows) {
    return rows.select(row -> row[0]);
  }

  /** Matches rows by value: integers as longs, decimals without trailing zeros. */
  public static Object normalized(Object v) {
    if (v instanceof Byte || v instanceof Short || v instanceof Integer || v instanceof Long) {
      return ((Number) v).longValue();
    }
    if (v instanceof Float f) {
      return f.doubleValue();
    }
    if (v instanceof BigDecimal d) {
      return d.signum() == 0 ? BigDecimal.ZERO : d.stripTrailingZeros();
    }
    return v;
  }

  private static List<Object> matchKey(Object[] row, int[] fields) {
    List<Object> key = new ArrayList<>(fields.length);
    for (int f : fields) {
      if (row[f] == null) {
        return null;
      }
      key.add(normalized(row[f]));
    }
    return key;
  }

  private static final class Batches implements Enumerator<Object[]> {
    private final Enumerator<Object[]> left;
    private final DataContext root;
    private final SqlTableDef def;
    private final Plan plan;
    private final ScanExecutor executor;
    private final SqlTableDef keyed; // the table, or the index seen as a table
    private final boolean throughIndex;
    private Iterator<Object[]> out = java.util.Collections.emptyIterator();
    private Object[] current;
    private boolean leftDone;

    Batches(Enumerator<Object[]> left, DataContext root, Storage db, SqlTableDef def,
        ScanSpec right, Plan plan) {
      this.left = left;
      this.root = root;
      this.def = def;
      this.plan = plan;
      this.executor = new ScanExecutor(db, def, right, root,
          ConnectionSettings.of(root).readTimestamp());
      IndexLayout index = plan.index() == null ? null
          : IndexRegistry.of(db).active(def, plan.index());
      keyed = plan.index() == null ? def : index == null ? null : index.keyDefinition();
      throughIndex = plan.index() != null;
    }

    @Override
    public Object[] current() {
      return current;
    }

    @Override
    public boolean moveNext() {
      while (!out.hasNext()) {
        if (leftDone) {
          return false;
        }
        List<Object[]> batch = new ArrayList<>(BATCH);
        while (batch.size() < BATCH && left.moveNext()) {
          batch.add(left.current());
        }
        leftDone = batch.size() < BATCH;
        if (batch.isEmpty()) {
          return false;
        }
        out = joinBatch(batch).iterator();
      }
      current = out.next();
      return true;
    }

    private List<Object[]> joinBatch(List<Object[]> batch) {
      Map<List<Object>, List<Object[]>> matches = fetch(batch);
      List<Object[]> rows = new ArrayList<>();
      for (Object[] l : batch) {
        List<Object> key = matchKey(l, plan.leftKeys());
        List<Object[]> found = key == null ? null : matches.get(key);
        boolean any = found != null && !found.isEmpty();
        if (any && !plan.residuals().isEmpty()) {
          any = false;
          for (int i = 0; i < found.size() && !any; i++) {
            any = holdAll(l, found.get(i));
          }
        }
        switch (plan.type()) {
          case SEMI -> {
            if (any) {
              rows.add(l);
            }
          }
          case ANTI -> {
            if (!any) {
              rows.add(l);
            }
          }
          default -> {
            if (any) {
              for (Object[] r : found) {
                rows.add(concat(l, r));
              }
            } else if (plan.type() == JoinRelType.LEFT) {
              rows.add(concat(l, new Object[plan.rightWidth()]));
            }
          }
        }
      }
      return rows;
    }

    private boolean holdAll(Object[] l, Object[] r) {
      for (Residual c : plan.residuals()) {
        if (!c.holds(l, r)) {
          return false;
        }
      }
      return true;
    }

    private static Object[] concat(Object[] l, Object[] r) {
      Object[] row = Arrays.copyOf(l, l.length + r.length);
      System.arraycopy(r, 0, row, l.length, r.length);
      return row;
    }

    /** The right rows matching the batch's lookup values, by their equi-join values. */
    private Map<List<Object>, List<Object[]>> fetch(List<Object[]> batch) {
      List<SqlColumn> cols = def.columns();
      Set<List<Object>> tuples = new LinkedHashSet<>();
      for (Object[] l : batch) {
        List<Object> t = new ArrayList<>(plan.lookupLeft().length);
        for (int f : plan.lookupLeft()) {
          t.add(l[f]);
        }
        if (!t.contains(null)) {
          tuples.add(t);
        }
      }
      List<KeyRange> ranges = new ArrayList<>();
      for (List<Object> t : tuples) {
        List<List<Operand>> eq = new ArrayList<>();
        try {
          for (int i = 0; i < t.size(); i++) {
            SqlColumn c = cols.get(plan.lookupColumns()[i]);
            eq.add(List.of(Operand.constant(c.type(), ColumnValues.fit(c, t.get(i)))));
          }
          ranges.addAll(new KeyConditions(eq, List.of()).bind(keyed == null ? def : keyed,
              root));
        } catch (RuntimeException e) {
          // a value the column cannot hold (out of its range, say) matches no row
        }
      }
      Map<List<Object>, List<Object[]>> byKey = new HashMap<>();
      if (ranges.isEmpty()) {
        return byKey;
      }
      ranges = KeyConditions.merge(ranges);
      Enumerator<Object[]> rows = keyed == null ? null
          : executor.lookup(ranges, plan.points() && !throughIndex,
              throughIndex ? plan.index() : null);
      if (rows == null) {
        throw new io.basaltdb.sql.SqlStateException(SqlStates.OBJECT_NOT_IN_PREREQUISITE_STATE,
            "index " + plan.index() + " of "
            + def.table() + " was dropped or is being rebuilt; run the statement again");
      }
      try (Enumerator<Object[]> r = rows) {
        while (r.moveNext()) {
          Object[] row = r.current();
          List<Object> key = matchKey(row, plan.rightKeys());
          if (key != null) {
            byKey.computeIfAbsent(key, k -> new ArrayList<>(1)).add(row);
          }
        }
      }
      return byKey;
    }

    @Override
    public void reset() {
      throw new UnsupportedOperationException("reset");
    }

    @Override
    public void close() {
      left.close();
    }
  }
}
