package io.basaltdb.storage;

import java.util.List;

/**
 * A handle on one table of a {@link Storage}, in the manner of HBase's {@code Table}: puts,
 * gets, deletes, scans across regions, increments, appends, check-and-mutate, row mutations and
 * batches. Each operation is atomic within its row. Implementations are thread-safe and cheap
 * to make; a missing row reads as an empty {@link Result}.
 */
public interface Table {
  TableName name();

  /** The table's families and options as they are now. */
  TableDescriptor descriptor();

  void put(Put put);

  void put(List<Put> puts);

  void delete(Delete delete);

  void delete(List<Delete> deletes);

  /** Applies the puts and deletes in order, as one atomic change of the row. */
  void mutateRow(RowMutations rm);

  /** Adds to 8-byte counters atomically; returns the new values. Reads only its columns. */
  Result increment(Increment inc);

  /** Adds {@code amount} to one 8-byte counter atomically; returns its new value. */
  long incrementColumnValue(byte[] row, byte[] family, byte[] qualifier, long amount);

  /** Appends to cells atomically; returns the new values. */
  Result append(Append app);

  /** Applies the action if the condition holds, atomically; returns whether it did. */
  boolean checkAndMutate(CheckAndMutate cam);

  /**
   * Check-and-mutates applied as {@link #checkAndMutate(CheckAndMutate)} applies each, in their
   * order (one of a row given twice sees the earlier one's write); whether each applied, at its
   * index. Each is atomic on its row; together they are not: all are tried whatever the others'
   * outcomes (HBase sends them in one call per region server). On a failure (not a false
   * condition) any of them may have been applied.
   */
  default boolean[] checkAndMutate(List<CheckAndMutate> cams) {
    boolean[] applied = new boolean[cams.size()];
    for (int i = 0; i < applied.length; i++) {
      applied[i] = checkAndMutate(cams.get(i));
    }
    return applied;
  }

  Result get(Get get);

  /** One result per get, in their order (an empty result for a missing row). */
  List<Result> get(List<Get> gets);

  boolean exists(Get get);

  /** Rows of the scan in key order (or reversed), across regions. Close the scanner. */
  ResultScanner getScanner(Scan scan);

  /**
   * The scan's rows with every cell stored, as HBase's raw scan gives them: delete markers and
   * the versions they or newer ones hide, each column newest first (the filter, versions and
   * TTL of reads not applied). Null when this table offers no such read (the embedded
   * engine). For a caller that resolves what it reads itself where no marker is in the row,
   * at a fraction of the region server's work of a read (an index build, over HBase).
   */
  default ResultScanner getRawScanner(Scan scan) {
    return null;
  }

  /**
   * The aggregate computed where the rows are, one small answer per region crossing to the
   * caller. Null when this table cannot (the embedded engine, whose caller reads rows in
   * process as fast; an HBase table without HBase's aggregation endpoint): the caller then
   * reads the rows itself.
   */
  default ColumnAggregate.Answer aggregate(ColumnAggregate request) {
    return null;
  }

  /**
   * Actions (puts, deletes, gets, increments, appends, row mutations, check-and-mutates) in
   * order; each one's result at its index. A failure names the action; those before it stay
   * applied.
   */
  default Object[] batch(List<? extends Row> actions) {
    Object[] results = new Object[actions.size()];
    for (int i = 0; i < actions.size(); i++) {
      Row a = actions.get(i);
      try {
        results[i] = applyOne(a);
      } catch (BasaltException e) {
        throw new BasaltException("batch action #" + i + " (" + a.getClass().getSimpleName()
            + " of row " + Cell.printable(a.row()) + ") failed; actions before it were applied: "
            + e.getMessage(), e);
      }
    }
    return results;
  }

  private Object applyOne(Row a) {
    if (a instanceof Put p) {
      put(p);
      return Result.EMPTY;
    } else if (a instanceof Delete d) {
      delete(d);
      return Result.EMPTY;
    } else if (a instanceof Get g) {
      return get(g);
    } else if (a instanceof Increment i) {
      return increment(i);
    } else if (a instanceof Append ap) {
      return append(ap);
    } else if (a instanceof RowMutations rm) {
      mutateRow(rm);
      return Result.EMPTY;
    } else if (a instanceof CheckAndMutate cam) {
      return checkAndMutate(cam);
    }
    throw new InvalidArgumentException("unsupported batch action " + a.getClass().getName());
  }
}
