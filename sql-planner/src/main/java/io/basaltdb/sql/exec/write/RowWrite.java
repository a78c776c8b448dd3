package io.basaltdb.sql.exec.write;

import io.basaltdb.storage.Put;
import java.util.function.BooleanSupplier;

/**
 * One row's write, made by {@link WriteExecutor} for a table without indexes: a put, which the
 * writer batches with its neighbours' (an UPSERT or INSERT ... SELECT of plain rows), or an
 * action run on its own, in row order after the batch before it (a check-and-put INSERT, a row
 * mutation that deletes cells, an UPDATE with its increments, a DELETE, an ON DUPLICATE KEY
 * write, which may leave the row alone).
 */
sealed interface RowWrite {
  /** A put, batched. */
  record Batched(Put put) implements RowWrite {}

  /** An action; {@code run} says whether it wrote the row. */
  record Action(BooleanSupplier run) implements RowWrite {}

  /** An action that always writes. */
  static RowWrite of(Runnable action) {
    return new Action(() -> {
      action.run();
      return true;
    });
  }
}
