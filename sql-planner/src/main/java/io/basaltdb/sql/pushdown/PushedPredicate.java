package io.basaltdb.sql.pushdown;

import io.basaltdb.storage.CompareOperator;
import io.basaltdb.storage.filter.ByteComparator;
import io.basaltdb.storage.filter.Filter;
import io.basaltdb.storage.filter.FilterList;
import io.basaltdb.storage.filter.Filters;
import io.basaltdb.sql.catalog.SqlColumn;
import io.basaltdb.sql.catalog.SqlTableDef;
import io.basaltdb.sql.type.CellArray;
import io.basaltdb.sql.type.ColumnType;
import io.basaltdb.sql.type.RowKeyCodec;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.apache.calcite.DataContext;

/**
 * A predicate evaluated inside the region scan by the engine's stock filters: a key column
 * (decoded from the row key, RowFilter) or a cell column (SingleColumnValueFilter, a missing
 * cell being NULL, for which no comparison holds) compared with an {@link Operand}, a cell
 * column IS [NOT] NULL, LIKE, and ORs of these. Comparisons decode the stored bytes and
 * compare typed values as Calcite would, so a pushed predicate keeps exactly the rows Calcite
 * would have kept. Planned once, turned into a fresh {@link Filter} per execution.
 */
public sealed interface PushedPredicate {
  /** The engine filter for one execution. */
  Filter toFilter(SqlTableDef def, DataContext ctx);

  /** The table columns (indexes) whose cells the filter must read. */
  void cellColumns(SqlTableDef def, Set<Integer> out);

  String describe(SqlTableDef def);

  /**
   * A rank of what testing a row costs, cheapest first: a comparison, two columns compared, an
   * OR of tests, a LIKE (a pattern over a decoded string).
   */
  default int cost() {
    return this instanceof Like ? 3 : this instanceof Or ? 2 : this instanceof CompareColumns ? 1 : 0;
  }

  /** {@code column <op> value}. */
  record Compare(int column, CompareOperator op, Operand value) implements PushedPredicate {
    @Override
    public Filter toFilter(SqlTableDef def, DataContext ctx) {
      SqlColumn c = def.columns().get(column);
      Object v = value.bind(ctx);
      if (v == null) {
        return NOTHING; // a comparison with NULL holds for no row
      }
      Filter f = columnFilter(def, column, op, typed(c.type(), v));
      io.basaltdb.storage.filter.FilterSpec spec = CellConditions.compare(def, column, op, v);
      return spec == null ? f : Filters.described(f, spec);
    }

    @Override
    public void cellColumns(SqlTableDef def, Set<Integer> out) {
      addIfCell(def, column, out);
    }

    @Override
    public String describe(SqlTableDef def) {
      return def.columns().get(column).name() + " " + symbol(op) + " " + value;
    }
  }

  /**
   * {@code column <op> other}, two columns of one type in the same row (TPC-H's
   * {@code l_commitdate < l_receiptdate}): compared after the row's cells are read; a NULL (a
   * missing cell) on either side passes no comparison.
   */
  record CompareColumns(int column, CompareOperator op, int other) implements PushedPredicate {
    @Override
    public Filter toFilter(SqlTableDef def, DataContext ctx) {
      SqlColumn a = def.columns().get(column);
      SqlColumn b = def.columns().get(other);
      if (a.isKey() && b.isKey()) { // decided by the key alone, before any cell is read
        RowKeyCodec codec = def.keyCodec();
        return new Filter() {
          @Override
          public boolean filterRowKey(byte[] row) {
            Object[] key = codec.decode(row);
            Object x = a.type().fromKey(key[a.keyPosition()]);
            Object y = b.type().fromKey(key[b.keyPosition()]);
            return x == null || y == null || !op.holdsFor(a.type().compare(x, y));
          }
        };
      }
      ColumnValue left = ColumnValue.of(def, column);
      ColumnValue right = ColumnValue.of(def, other);
      return new Filter() {
        @Override
        public boolean filterRow(List<io.basaltdb.storage.Cell> cells) {
          if (cells.isEmpty()) {
            return true;
          }
          Object x = left.in(cells);
          Object y = x == null ? null : right.in(cells);
          if (y == null) {
            return true;
          }
          return !op.holdsFor(a.type().compare(x, y));
        }
      };
    }

    @Override
    public void cellColumns(SqlTableDef def, Set<Integer> out) {
      addIfCell(def, column, out);
      addIfCell(def, other, out);
    }

    @Override
    public String describe(SqlTableDef def) {
      return def.columns().get(column).name() + " " + symbol(op) + " "
          + def.columns().get(other).name();
    }
  }

  /** Reads one column's decoded value from a row's kept cells (null: missing or NULL). */
  @FunctionalInterface
  interface ColumnValue {
    Object in(List<io.basaltdb.storage.Cell> cells);

    static ColumnValue of(SqlTableDef def, int column) {
      SqlColumn c = def.columns().get(column);
      if (c.isKey()) {
        RowKeyCodec codec = def.keyCodec();
        int pos = c.keyPosition();
        return cells -> c.type().fromKey(codec.decode(cells.get(0).row())[pos]);
      }
      byte[] family = bytes(c.family());
      byte[] qualifier = qualifier(def, c);
      int slot = def.slot(column);
      return cells -> {
        for (io.basaltdb.storage.Cell cell : cells) {
          if (java.util.Arrays.equals(cell.family(), family)
              && java.util.Arrays.equals(cell.qualifier(), qualifier)) {
            byte[] v = cell.value();
            if (slot >= 0) {
              v = CellArray.get(v, slot);
            }
            return v == null ? null : c.fromCell(v);
          }
        }
        return null;
      };
    }
  }

  /** {@code column IS NULL} or {@code IS NOT NULL} on a cell column. */
  record IsNull(int column, boolean isNull) implements PushedPredicate {
    @Override
    public Filter toFilter(SqlTableDef def, DataContext ctx) {
      SqlColumn c = def.columns().get(column);
      int slot = def.slot(column);
      ByteComparator nullIsEqual = new ByteComparator() {
        @Override
        public int compareTo(byte[] stored) {
          // a stored value is "not equal": present fails EQUAL, passes NOT_EQUAL; in a packed
          // family's cell, a NULL slot is "equal"
          return slot >= 0 && CellArray.get(stored, slot) == null ? 0 : 1;
        }
      };
      Filter f = Filters.singleColumnValue(bytes(c.family()), qualifier(def, c),
          isNull ? CompareOperator.EQUAL : CompareOperator.NOT_EQUAL, nullIsEqual, !isNull);
      io.basaltdb.storage.filter.FilterSpec spec = isNull ? null
          : CellConditions.present(def, column);
      return spec == null ? f : Filters.described(f, spec);
    }

    @Override
    public void cellColumns(SqlTableDef def, Set<Integer> out) {
      out.add(column);
    }

    @Override
    public String describe(SqlTableDef def) {
      return def.columns().get(column).name() + (isNull ? " IS NULL" : " IS NOT NULL");
    }
  }

  /** {@code column LIKE pattern} (no escape clause) on a character column. */
  record Like(int column, Operand pattern) implements PushedPredicate {
    @Override
    public Filter toFilter(SqlTableDef def, DataContext ctx) {
      Object p = pattern.bind(ctx);
      if (p == null) {
        return NOTHING;
      }
      java.util.function.Predicate<String> like = LikeMatcher.of(p.toString());
      return columnFilter(def, column, CompareOperator.EQUAL,
          v -> like.test(v.toString()) ? 0 : 1);
    }

    @Override
    public void cellColumns(SqlTableDef def, Set<Integer> out) {
      addIfCell(def, column, out);
    }

    @Override
    public String describe(SqlTableDef def) {
      return def.columns().get(column).name() + " LIKE " + pattern;
    }
  }

  /** A disjunction: rows passing any of the predicates. */
  record Or(List<PushedPredicate> operands) implements PushedPredicate {
    @Override
    public Filter toFilter(SqlTableDef def, DataContext ctx) {
      List<Filter> fs = new ArrayList<>();
      for (PushedPredicate p : operands) {
        fs.add(p.toFilter(def, ctx));
      }
      return new FilterList(FilterList.Operator.MUST_PASS_ONE, fs);
    }

    @Override
    public void cellColumns(SqlTableDef def, Set<Integer> out) {
      operands.forEach(p -> p.cellColumns(def, out));
    }

    @Override
    public String describe(SqlTableDef def) {
      List<String> parts = new ArrayList<>();
      operands.forEach(p -> parts.add(p.describe(def)));
      return "(" + String.join(" OR ", parts) + ")";
    }
  }

  /** The AND of {@code predicates} as one engine filter for an execution, or null if none. */
  static Filter all(List<PushedPredicate> predicates, SqlTableDef def, DataContext ctx) {
    if (predicates.isEmpty()) {
      return null;
    }
    if (predicates.size() == 1) {
      return predicates.get(0).toFilter(def, ctx);
    }
    // the cheaper tests first: the list stops at the first that excludes the row
    List<PushedPredicate> ordered = new ArrayList<>(predicates);
    ordered.sort(java.util.Comparator.comparingInt(PushedPredicate::cost));
    List<Filter> fs = new ArrayList<>();
    for (PushedPredicate p : ordered) {
      fs.add(p.toFilter(def, ctx));
    }
    return new FilterList(FilterList.Operator.MUST_PASS_ALL, fs);
  }

  /** The cell columns all of {@code predicates} read. */
  static Set<Integer> cellColumns(List<PushedPredicate> predicates, SqlTableDef def) {
    Set<Integer> out = new TreeSet<>();
    predicates.forEach(p -> p.cellColumns(def, out));
    return out;
  }

  /** A filter no row passes. */
  Filter NOTHING = new Filter() {
    @Override
    public boolean filterRowKey(byte[] row) {
      return true;
    }
  };

  /** Compares a decoded, non-null column value with the operand: {@code <0, 0, >0}. */
  @FunctionalInterface
  interface ValueTest {
    int compare(Object value);
  }

  private static ValueTest typed(ColumnType type, Object operand) {
    return v -> type.compare(v, operand);
  }

  /**
   * A filter comparing column {@code c}'s value through {@code test} with {@code op}: on the
   * decoded row key for a key column, on the newest cell (missing = filtered out) otherwise.
   */
  private static Filter columnFilter(SqlTableDef def, int column, CompareOperator op,
      ValueTest test) {
    SqlColumn c = def.columns().get(column);
    if (c.isKey()) {
      RowKeyCodec codec = def.keyCodec();
      int pos = c.keyPosition();
      return Filters.row(op, new ByteComparator() {
        @Override
        public int compareTo(byte[] row) {
          return test.compare(c.type().fromKey(codec.decode(row)[pos]));
        }
      });
    }
    int slot = def.slot(column);
    return Filters.singleColumnValue(bytes(c.family()), qualifier(def, c), op,
        new ByteComparator() {
          @Override
          public int compareTo(byte[] stored) {
            if (slot < 0) {
              return test.compare(c.fromCell(stored));
            }
            byte[] v = CellArray.get(stored, slot);
            return v == null ? failing(op) : test.compare(c.fromCell(v));
          }
        }, true);
  }

  /** A comparison result {@code op} does not accept: a NULL in a packed cell passes nothing. */
  private static int failing(CompareOperator op) {
    return switch (op) {
      case EQUAL, LESS_OR_EQUAL -> 1;
      case NOT_EQUAL, LESS, GREATER -> 0;
      case GREATER_OR_EQUAL -> -1;
    };
  }

  /** The qualifier of column {@code c}'s cell: its name, or its family's packed cell. */
  private static byte[] qualifier(SqlTableDef def, SqlColumn c) {
    return bytes(def.packed() ? SqlTableDef.PACKED_QUALIFIER : c.name());
  }

  private static void addIfCell(SqlTableDef def, int column, Set<Integer> out) {
    if (!def.columns().get(column).isKey()) {
      out.add(column);
    }
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private static String symbol(CompareOperator op) {
    return switch (op) {
      case LESS -> "<";
      case LESS_OR_EQUAL -> "<=";
      case EQUAL -> "=";
      case NOT_EQUAL -> "<>";
      case GREATER_OR_EQUAL -> ">=";
      case GREATER -> ">";
    };
  }
}
