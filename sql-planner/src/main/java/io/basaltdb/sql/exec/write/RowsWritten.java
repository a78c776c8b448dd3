package io.basaltdb.sql.exec.write;

/**
 * How many rows a write that then failed had written and kept, carried as a suppressed
 * exception of the failure (never thrown itself): a JDBC batch reports them as the update
 * counts of its {@code BatchUpdateException}. Attached only where those rows stay written (a
 * batch written row by row), not where the failure takes them back (a statement's transaction).
 */
public final class RowsWritten extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final long count;
  /** Each row's outcome (1, or {@code EXECUTE_FAILED}) where rows after a refused one went on. */
  private final long[] outcomes;

  public RowsWritten(long count) {
    super("rows written before the failure: " + count, null, false, false);
    this.count = count;
    this.outcomes = null;
  }

  /**
   * Rows tried past a refused one ({@link InsertBatch}): {@code outcomes} holds each row's, in
   * order, 1 for a row written and {@code java.sql.Statement.EXECUTE_FAILED} for one refused.
   */
  public RowsWritten(long[] outcomes) {
    super("rows tried: " + outcomes.length, null, false, false);
    this.count = -1;
    this.outcomes = outcomes.clone();
  }

  public long count() {
    return count;
  }

  /**
   * A JDBC batch's update counts for what {@code t} (or a cause of it) carries: each row's
   * outcome, or a 1 for each row written before the failure; null when it carries none.
   */
  public static long[] updateCounts(Throwable t) {
    for (Throwable c = t; c != null; c = c.getCause()) {
      for (Throwable s : c.getSuppressed()) {
        if (s instanceof RowsWritten w) {
          if (w.outcomes != null) {
            return w.outcomes.clone();
          }
          long[] counts = new long[(int) w.count];
          java.util.Arrays.fill(counts, 1);
          return counts;
        }
      }
    }
    return null;
  }

}
