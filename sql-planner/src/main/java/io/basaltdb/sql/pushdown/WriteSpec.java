package io.basaltdb.sql.pushdown;

import java.util.List;

/**
 * What a {@code BasaltTableModify} writes, as planned. The input rows are full table rows
 * (INSERT, UPSERT, DELETE), or for UPDATE full table rows followed by one new value per updated
 * column. Immutable.
 *
 * @param kind the statement
 * @param listed for INSERT and UPSERT, the table columns the statement names (all when it
 *     names none); an UPSERT leaves the others as they are
 * @param updated for UPDATE, the table columns it sets, in input order
 * @param increments for UPDATE, per updated column, the amount {@code n} when the new value is
 *     {@code col + n} (run as an atomic increment), else null
 * @param counterKey for an UPDATE that only adds to one column of the one row its full key
 *     names ({@code SET c = c + n WHERE k1 = .. AND k2 = ..}): that key, so the update can run
 *     as one engine increment without reading the row first; else null
 * @param onDuplicate for an UPSERT with {@code ON DUPLICATE KEY}: what happens to a row whose
 *     key exists; else null
 * @param newRowDefaults for an UPSERT, the columns it does not name that have a DEFAULT: a
 *     new row gets their defaults (the input row holds them), a row that exists keeps its
 *     values
 */
public record WriteSpec(Kind kind, List<Integer> listed, List<Integer> updated,
    List<Operand> increments, KeyConditions counterKey, OnDuplicate onDuplicate,
    List<Integer> newRowDefaults) {
  public enum Kind { INSERT, UPSERT, UPDATE, DELETE }

  /**
   * An UPSERT's {@code ON DUPLICATE KEY} clause, run per row under the row's lock.
   *
   * @param action IGNORE: an existing row is left as it is; UPDATE: it gets {@code updated}
   *     columns' new values; UPDATE_ONLY: as UPDATE, and a new key is not written at all
   * @param updated the columns assigned, in the clause's order
   * @param compute given the statement's context with the existing row (every column, internal
   *     form) as its {@code inputRecord}, the new value of each of {@code updated}, then
   *     possibly more (the table's checks, which throw); null for IGNORE
   * @param reads the columns other than the key's that {@code compute} reads
   * @param text the clause as EXPLAIN shows it
   */
  public record OnDuplicate(Action action, List<Integer> updated,
      org.apache.calcite.linq4j.function.Function1<org.apache.calcite.DataContext, Object[]>
          compute, List<Integer> reads, String text) {
    public enum Action { IGNORE, UPDATE, UPDATE_ONLY }

    public OnDuplicate {
      updated = List.copyOf(updated);
      reads = List.copyOf(reads);
    }
  }

  public WriteSpec(Kind kind, List<Integer> listed, List<Integer> updated,
      List<Operand> increments, KeyConditions counterKey) {
    this(kind, listed, updated, increments, counterKey, null, List.of());
  }

  public WriteSpec {
    newRowDefaults = List.copyOf(newRowDefaults);
    listed = List.copyOf(listed);
    updated = List.copyOf(updated);
    increments = java.util.Collections.unmodifiableList(new java.util.ArrayList<>(increments));
  }

  public WriteSpec(Kind kind, List<Integer> listed, List<Integer> updated,
      List<Operand> increments) {
    this(kind, listed, updated, increments, null);
  }

  public WriteSpec withCounterKey(KeyConditions key) {
    return new WriteSpec(kind, listed, updated, increments, key, onDuplicate, newRowDefaults);
  }

  public WriteSpec withOnDuplicate(OnDuplicate clause) {
    return new WriteSpec(kind, listed, updated, increments, counterKey, clause,
        newRowDefaults);
  }

  public WriteSpec withNewRowDefaults(List<Integer> columns) {
    return new WriteSpec(kind, listed, updated, increments, counterKey, onDuplicate, columns);
  }
}
