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
 */
public record WriteSpec(Kind kind, List<Integer> listed, List<Integer> updated,
    List<Operand> increments, KeyConditions counterKey) {
  public enum Kind { INSERT, UPSERT, UPDATE, DELETE }

  public WriteSpec {
    listed = List.copyOf(listed);
    updated = List.copyOf(updated);
    increments = java.util.Collections.unmodifiableList(new java.util.ArrayList<>(increments));
  }

  public WriteSpec(Kind kind, List<Integer> listed, List<Integer> updated,
      List<Operand> increments) {
    this(kind, listed, updated, increments, null);
  }

  public WriteSpec withCounterKey(KeyConditions key) {
    return new WriteSpec(kind, listed, updated, increments, key);
  }
}
