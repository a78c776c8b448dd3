package io.basaltdb.tpch;

import io.trino.tpch.TpchColumn;
import io.trino.tpch.TpchColumnType;
import io.trino.tpch.TpchTable;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The eight TPC-H tables for Basalt and for H2, from the generator's own column list.
 *
 * <p>Basalt's design (why, in {@code tpc-samples/README.md}): each table keyed by its TPC-H
 * primary key; {@code lineitem} keyed by {@code (l_orderkey, l_linenumber)} so an order's
 * lines sit together after it in key order; {@code partsupp} by {@code (ps_partkey,
 * ps_suppkey)}; the two big tables, whose keys the generator produces in sequence, salted
 * ({@code SALT_BUCKETS=4}) so their rows spread over four regions scanned in parallel; the
 * long, rarely read {@code *_comment} columns in a family {@code c} of their own so that
 * scans of the others never read them, everything else in family {@code f}; each family
 * stored as one cell per row ({@code IMMUTABLE_STORAGE_SCHEME=SINGLE_CELL_ARRAY_WITH_OFFSETS}:
 * TPC-H rows are written whole, and a row costs three cells instead of one per column). Money
 * is {@code DECIMAL(15,2)} as the specification asks, dates {@code DATE}.
 */
public final class TpchSchema {
  private TpchSchema() {}

  /** Primary-key columns per table, in key order. */
  static final Map<String, List<String>> KEYS = Map.of(
      "region", List.of("r_regionkey"),
      "nation", List.of("n_nationkey"),
      "supplier", List.of("s_suppkey"),
      "customer", List.of("c_custkey"),
      "part", List.of("p_partkey"),
      "partsupp", List.of("ps_partkey", "ps_suppkey"),
      "orders", List.of("o_orderkey"),
      "lineitem", List.of("l_orderkey", "l_linenumber"));

  /** Tables salted over four buckets (their keys arrive in sequence). */
  static final List<String> SALTED = List.of("orders", "lineitem");

  /** The SQL type of a generator column. */
  static String sqlType(TpchColumn<?> c) {
    TpchColumnType t = c.getType();
    return switch (t.getBase()) {
      case IDENTIFIER -> "BIGINT";
      case INTEGER -> "INTEGER";
      case DATE -> "DATE";
      case DOUBLE -> "DECIMAL(15,2)";
      case VARCHAR -> "VARCHAR(" + t.getPrecision().orElse(255L) + ")";
    };
  }

  /** CREATE TABLE for Basalt ({@code basalt}) or H2. */
  public static String createTable(TpchTable<?> table, boolean basalt) {
    String name = table.getTableName();
    List<String> keys = KEYS.get(name);
    List<String> cols = new ArrayList<>();
    for (TpchColumn<?> c : table.getColumns()) {
      String col = c.getColumnName();
      boolean key = keys.contains(col);
      String family = !basalt || key ? "" : col.endsWith("_comment") ? "c." : "f.";
      cols.add(family + col + " " + sqlType(c) + (key ? " NOT NULL" : ""));
    }
    StringBuilder sql = new StringBuilder("CREATE TABLE " + name + " (" + String.join(", ", cols)
        + ", CONSTRAINT pk_" + name + " PRIMARY KEY (" + String.join(", ", keys) + "))");
    if (basalt) {
      sql.append(" IMMUTABLE_STORAGE_SCHEME=SINGLE_CELL_ARRAY_WITH_OFFSETS");
      if (SALTED.contains(name)) {
        sql.append(", SALT_BUCKETS=4");
      }
    }
    return sql.toString();
  }

  /** Rows of a table at scale factor {@code sf} (the specification's cardinalities). */
  public static long expectedRows(String table, double sf) {
    return switch (table) {
      case "region" -> 5;
      case "nation" -> 25;
      case "supplier" -> (long) (10_000 * sf);
      case "customer" -> (long) (150_000 * sf);
      case "part" -> (long) (200_000 * sf);
      case "partsupp" -> (long) (800_000 * sf);
      case "orders" -> (long) (1_500_000 * sf);
      case "lineitem" -> (long) (6_001_215 * sf); // about; the generator decides
      default -> throw new IllegalArgumentException(table);
    };
  }
}
