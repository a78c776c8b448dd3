package io.basaltdb.sql.exec.write;

import io.basaltdb.storage.Put;
import io.basaltdb.storage.Table;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * The puts of a statement's rows that need no read (an UPSERT of a table without indexes, no
 * NULL to delete), held and sent {@value #SIZE} at a time in one call. A row counts as written
 * once its batch was sent; a batch that failed in the storage leaves which of its rows were
 * written unknown. Invariant: {@code puts} and {@code rows} are parallel, in row order.
 */
final class PutBatch {
  /** Rows sent in one call. */
  static final int SIZE = 256;

  private final Table table;
  /** Run just before a batch is sent: may refuse to send it (IndexListLease#confirm). */
  private final Runnable beforeSend;
  private final List<Put> puts = new ArrayList<>();
  private final List<Object[]> rows = new ArrayList<>();
  private long written;
  private boolean uncertain;

  PutBatch(Table table, Runnable beforeSend) {
    this.table = table;
    this.beforeSend = beforeSend;
  }

  /** Holds {@code put} of {@code row}; sends the batch once full ({@link #flush}). */
  void add(Put put, Object[] row, Consumer<Object[]> onWritten) {
    puts.add(put);
    rows.add(row);
    if (puts.size() >= SIZE) {
      flush(onWritten);
    }
  }

  /** Sends the puts held; each row written then goes to {@code onWritten}, in row order. */
  void flush(Consumer<Object[]> onWritten) {
    if (puts.isEmpty()) {
      return;
    }
    beforeSend.run();
    List<Put> batch = List.copyOf(puts);
    List<Object[]> batchRows = List.copyOf(rows);
    puts.clear();
    rows.clear();
    try {
      table.put(batch);
    } catch (RuntimeException e) {
      uncertain = true; // any of the batch's rows may have been written
      throw e;
    }
    written += batch.size();
    batchRows.forEach(onWritten);
  }

  /** Takes back the rows held, unsent (to be written for another index list), in row order. */
  List<Object[]> takeHeld() {
    List<Object[]> held = new ArrayList<>(rows);
    puts.clear();
    rows.clear();
    return held;
  }

  /** Rows written so far. */
  long written() {
    return written;
  }

  /** Whether a batch failed in the storage, so the rows it wrote are not known. */
  boolean uncertain() {
    return uncertain;
  }
}
