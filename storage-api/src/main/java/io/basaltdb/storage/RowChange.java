package io.basaltdb.storage;

import java.util.function.Consumer;

/**
 * A put, delete or {@link RowMutations} of one row of a table, part of a write of several rows
 * ({@link Database#mutateAtomically}, {@link Database#mutateAfterRead}); {@code check}, when not
 * null, sees the row's current cells under its lock and may throw to refuse the whole write.
 */
public record RowChange(Table table, Row mutation, Consumer<Result> check) {
  public RowChange(Table table, Row mutation) {
    this(table, mutation, null);
  }

  /** The change's durability: its (first) mutation's. */
  public Durability durability() {
    if (mutation instanceof RowMutations rm) {
      return rm.mutations().isEmpty() ? Durability.ASYNC : rm.mutations().get(0).durability();
    }
    return ((Mutation) mutation).durability();
  }
}
