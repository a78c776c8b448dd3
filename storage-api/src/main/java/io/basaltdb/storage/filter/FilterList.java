package io.basaltdb.storage.filter;

import io.basaltdb.storage.Cell;
import io.basaltdb.storage.InvalidArgumentException;
import java.util.Arrays;
import java.util.List;

/**
 * Filters combined with AND ({@link Operator#MUST_PASS_ALL}) or OR
 * ({@link Operator#MUST_PASS_ONE}); lists nest. Row hints combine safely: under AND the scan
 * may skip to the furthest hint of the filters that exclude the row, under OR only to the
 * nearest, and only when every filter excludes it.
 */
public final class FilterList implements Filter {
  public enum Operator { MUST_PASS_ALL, MUST_PASS_ONE }

  private final Operator op;
  private final List<Filter> filters;
  /** The same filters, walked by index on every row (no iterator per call). */
  private final Filter[] members;
  /** Under OR: which filters excluded the current row by its key (they pass nothing of it). */
  private final boolean[] keyExcluded;

  public FilterList(Operator op, Filter... filters) {
    this(op, List.of(filters));
  }

  public FilterList(Operator op, List<Filter> filters) {
    if (op == null || filters == null || filters.isEmpty()) {
      throw new InvalidArgumentException("a filter list needs an operator and at least one filter");
    }
    this.op = op;
    this.filters = List.copyOf(filters);
    this.members = this.filters.toArray(new Filter[0]);
    this.keyExcluded = new boolean[this.filters.size()];
  }

  private boolean all() {
    return op == Operator.MUST_PASS_ALL;
  }

  @Override
  public void reset() {
    for (Filter f : members) {
      f.reset();
    }
    java.util.Arrays.fill(keyExcluded, false);
  }

  @Override
  public boolean filterRowKey(byte[] row) {
    boolean anyExcludes = false;
    boolean allExclude = true;
    for (int i = 0; i < members.length; i++) {
      boolean ex = members[i].filterRowKey(row);
      keyExcluded[i] = ex;
      anyExcludes |= ex;
      allExclude &= ex;
    }
    return all() ? anyExcludes : allExclude;
  }

  @Override
  public byte[] nextRowHint(byte[] row) {
    byte[] best = null;
    for (Filter f : members) {
      if (!f.filterRowKey(row)) {
        if (!all()) {
          return null; // under OR a passing filter means no skip
        }
        continue;
      }
      byte[] h = f.nextRowHint(row);
      if (h == null) {
        if (!all()) {
          return null;
        }
        continue;
      }
      if (best == null || (all() ? Arrays.compareUnsigned(h, best) > 0
          : Arrays.compareUnsigned(h, best) < 0)) {
        best = h;
      }
    }
    return best;
  }

  @Override
  public boolean filterCell(Cell c) {
    if (all()) {
      for (Filter f : members) {
        if (!f.filterCell(c)) {
          return false;
        }
      }
      return true;
    }
    boolean any = false;
    for (int i = 0; i < members.length; i++) {
      if (!keyExcluded[i]) {
        any |= members[i].filterCell(c); // each live filter sees every cell
      }
    }
    return any;
  }

  @Override
  public Cell transformCell(Cell c) {
    for (Filter f : members) {
      c = f.transformCell(c);
    }
    return c;
  }

  @Override
  public boolean filterRow(List<Cell> cells) {
    // decided by the first filter that decides it, as HBase's lists do: for ALL the first that
    // excludes the row, for ONE the first that keeps it (a row's filters are pure tests; rows
    // are counted in rowReturned); the later ones, often dearer (a LIKE), are not asked
    boolean all = all();
    for (int i = 0; i < members.length; i++) {
      boolean ex = keyExcluded[i] || members[i].filterRow(cells);
      if (ex == all) {
        return all;
      }
    }
    return !all;
  }

  @Override
  public void rowReturned() {
    for (Filter f : members) {
      f.rowReturned();
    }
  }

  /** Under AND, the rows of the first filter that names them; under OR, none named. */
  @Override
  public List<byte[]> onlyRows() {
    if (op == Operator.MUST_PASS_ALL) {
      for (Filter f : filters) {
        List<byte[]> rows = f.onlyRows();
        if (rows != null) {
          return rows;
        }
      }
    }
    return null;
  }

  /**
   * AND: the specs of the members that have one (each is necessary); OR: the members' specs
   * when every member has one, else none.
   */
  @Override
  public FilterSpec spec() {
    List<FilterSpec> specs = new java.util.ArrayList<>();
    for (Filter f : filters) {
      FilterSpec s = f.spec();
      if (s != null) {
        specs.add(s);
      } else if (op != Operator.MUST_PASS_ALL) {
        return null;
      }
    }
    if (specs.isEmpty()) {
      return null;
    }
    return op == Operator.MUST_PASS_ALL ? new FilterSpec.AllOf(List.copyOf(specs))
        : new FilterSpec.AnyOf(List.copyOf(specs));
  }

  @Override
  public List<Filters.RowRange> onlyRanges() {
    if (op == Operator.MUST_PASS_ALL) {
      for (Filter f : filters) {
        List<Filters.RowRange> ranges = f.onlyRanges();
        if (ranges != null) {
          return ranges;
        }
      }
    }
    return null;
  }

  @Override
  public boolean filterAllRemaining() {
    if (all()) {
      for (Filter f : members) {
        if (f.filterAllRemaining()) {
          return true;
        }
      }
      return false;
    }
    for (Filter f : members) {
      if (!f.filterAllRemaining()) {
        return false;
      }
    }
    return true;
  }
}
