package io.basaltdb.sql.exec.write;

import io.basaltdb.sql.SqlStateException;
import io.basaltdb.sql.SqlStates;
import io.basaltdb.sql.index.IndexListLease;
import io.basaltdb.storage.CheckAndMutate;
import io.basaltdb.storage.Table;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * The rows of an INSERT into a table of a storage that writes one row atomically and no more
 * (HBase), sent as batched check-and-puts ({@link Table#checkAndMutate(List)}: one call per
 * region server for {@value #SIZE} rows) instead of one round trip per row. Each row is a
 * check-and-put on its marker cell, so a stored key is refused even against a concurrent
 * insert, as the row-by-row INSERT refuses it.
 *
 * <p>A batch's rows are all tried whatever the others' outcomes, so a duplicate key does not stop
 * the statement: every row is written but the duplicates, and the statement then fails with
 * 23505 naming the first duplicate, its {@link RowsWritten} telling each row's outcome (a JDBC
 * batch's update counts: 1, or {@code EXECUTE_FAILED} for a duplicate), as a JDBC driver that
 * continues past a failed command reports it. Invariant: {@link #outcomes} holds one entry per
 * row sent, in row order, and {@link #written} counts its 1s.
 */
final class InsertBatch {
  /** Rows sent in one call. */
  static final int SIZE = 1000;

  /** {@code java.sql.Statement.EXECUTE_FAILED}: a row refused as a duplicate. */
  static final long REFUSED = -3;

  private final Table table;
  /** Run just before a batch is sent: may refuse to send it ({@link IndexListLease#confirm}). */
  private final Runnable beforeSend;
  private final List<CheckAndMutate> cams = new ArrayList<>();
  private final List<Object[]> rows = new ArrayList<>();
  private long[] outcomes = new long[16];
  private int sent;
  private long written;
  private byte[] firstDuplicate;
  /** Whether a batch failed in the storage: which of its rows were written is not known. */
  private boolean uncertain;
  /** The refusal last made ({@link #refusal}), or null. */
  private SqlStateException refusal;

  InsertBatch(Table table, Runnable beforeSend) {
    this.table = table;
    this.beforeSend = beforeSend;
  }

  /**
   * Holds the check-and-put {@code cam} of {@code row}; sends the batch once it is full, each row
   * written then going to {@code onWritten}.
   */
  void add(CheckAndMutate cam, Object[] row, Consumer<Object[]> onWritten) {
    cams.add(cam);
    rows.add(row);
    if (cams.size() >= SIZE) {
      flush(onWritten);
    }
  }

  /** Sends the rows held; each one written goes to {@code onWritten}, in row order. */
  void flush(Consumer<Object[]> onWritten) {
    if (cams.isEmpty()) {
      return;
    }
    beforeSend.run();
    List<CheckAndMutate> batch = List.copyOf(cams);
    List<Object[]> batchRows = List.copyOf(rows);
    cams.clear();
    rows.clear();
    boolean[] applied;
    try {
      applied = table.checkAndMutate(batch);
    } catch (RuntimeException e) {
      uncertain = true; // any of the batch's rows may have been written
      throw e;
    }
    if (sent + applied.length > outcomes.length) {
      outcomes = Arrays.copyOf(outcomes, Math.max(2 * outcomes.length, sent + applied.length));
    }
    for (int i = 0; i < applied.length; i++) {
      outcomes[sent++] = applied[i] ? 1 : REFUSED;
      if (applied[i]) {
        written++;
        onWritten.accept(batchRows.get(i));
      } else if (firstDuplicate == null) {
        firstDuplicate = batch.get(i).row();
      }
    }
  }

  /**
   * Takes back the rows held, unsent (to be written for another index list, {@link
   * IndexListLease}), in row order.
   */
  List<Object[]> takeHeld() {
    List<Object[]> held = new ArrayList<>(rows);
    cams.clear();
    rows.clear();
    return held;
  }

  /**
   * Whether a batch failed in the storage (not a refused row), after which which rows were
   * written is not known and no count may be claimed.
   */
  boolean uncertain() {
    return uncertain;
  }

  /**
   * The statement's failure once rows were refused: 23505 naming the first duplicate ({@code
   * duplicate} makes its message), how many more there were and how many rows were written.
   */
  SqlStateException refusal(Function<byte[], ? extends RuntimeException> duplicate) {
    long refused = sent - written;
    return refusal = new SqlStateException(SqlStates.UNIQUE_VIOLATION,
        duplicate.apply(firstDuplicate).getMessage()
        + (refused > 1 ? " (and " + (refused - 1) + " more)" : "") + "; " + written
        + " of the statement's " + sent + " rows tried were written");
  }

  /**
   * What the statement throws when {@code failure} stopped it before a row was sent: the rows
   * held are sent first (unless a batch failed in the storage), and a duplicate among them, a
   * row before the failing one, is the statement's failure ({@code failure} suppressed).
   */
  RuntimeException afterFailure(RuntimeException failure, Consumer<Object[]> onWritten,
      Function<byte[], ? extends RuntimeException> duplicate) {
    if (uncertain || failure == refusal) {
      return failure; // a batch's fate unknown, or the statement stopped at this refusal
    }
    flush(onWritten);
    if (firstDuplicate == null) {
      return failure;
    }
    RuntimeException refused = refusal(duplicate);
    refused.addSuppressed(failure);
    return refused;
  }

  /**
   * The rows this statement kept, as a JDBC batch reports them: each row's outcome once one was
   * refused, else how many were written; null when a batch failed in the storage.
   */
  RowsWritten rowsWritten() {
    return uncertain ? null : firstDuplicate != null ? new RowsWritten(outcomes())
        : new RowsWritten(written);
  }

  /** Rows written so far. */
  long written() {
    return written;
  }

  /** The key of the first row refused as a duplicate, or null. */
  byte[] firstDuplicate() {
    return firstDuplicate;
  }

  /** Each row sent so far: 1 written, {@link #REFUSED} a duplicate. */
  long[] outcomes() {
    return Arrays.copyOf(outcomes, sent);
  }
}
