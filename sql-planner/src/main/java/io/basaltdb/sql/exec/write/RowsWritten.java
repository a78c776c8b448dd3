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

  public RowsWritten(long count) {
    super("rows written before the failure: " + count, null, false, false);
    this.count = count;
  }

  public long count() {
    return count;
  }

  /** The count {@code t} or a cause of it carries, or -1 when none does. */
  public static long of(Throwable t) {
    for (Throwable c = t; c != null; c = c.getCause()) {
      for (Throwable s : c.getSuppressed()) {
        if (s instanceof RowsWritten w) {
          return w.count;
        }
      }
    }
    return -1;
  }
}
