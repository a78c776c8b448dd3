package io.basaltdb.engine;

import java.util.function.Consumer;

/**
 * A put or delete of one row of a table, part of a write of several rows
 * ({@link Database#mutateAtomically}, {@link Database#mutateAfterRead}); {@code check}, when not
 * null, sees the row's current cells under its lock and may throw to refuse the whole write.
 */
public record RowChange(Table table, Mutation mutation, Consumer<Result> check) {
  public RowChange(Table table, Mutation mutation) {
    this(table, mutation, null);
  }
}
