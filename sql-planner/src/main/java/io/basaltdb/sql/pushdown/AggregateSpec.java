package io.basaltdb.sql.pushdown;

import java.util.List;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * An aggregation pushed into a scan: group by some of the scan's columns (a prefix of the key,
 * so groups arrive in key order and need no hash table), then COUNT, SUM, MIN and MAX of its
 * columns. Output rows are the group values (in scan column order) followed by the calls'
 * results. Immutable.
 *
 * @param groups scan output fields grouped by (ascending)
 * @param calls the aggregate calls
 */
public record AggregateSpec(List<Integer> groups, List<Call> calls) {
  public enum Kind { COUNT, SUM, SUM0, MIN, MAX }

  /**
   * One call: its kind, its argument (a scan output field; -1 for {@code COUNT(*)}) and the
   * SQL type of its result.
   */
  public record Call(Kind kind, int arg, SqlTypeName resultType, String name) {}

  public AggregateSpec {
    groups = List.copyOf(groups);
    calls = List.copyOf(calls);
  }
}
