package io.basaltdb.sql.rel;

import io.basaltdb.sql.SqlStates;
import io.basaltdb.sql.SqlStateException;
import io.basaltdb.sql.index.IndexLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.calcite.rel.hint.HintPredicates;
import org.apache.calcite.rel.hint.HintStrategyTable;
import org.apache.calcite.rel.hint.RelHint;

/**
 * What a scan's hints say about its table's indexes, in Phoenix's words:
 * {@code SELECT /*+ INDEX(t i [j ...]) *}{@code /} prefers the named indexes of table {@code t}
 * (its scans without one cost a million times more; the other indexes are not offered), and
 * {@code NO_INDEX} (every table) or {@code NO_INDEX(t)} reads the table itself, never an index,
 * in filters, sorts and lookup joins. Hints may also follow a table, naming only indexes:
 * {@code FROM t /*+ INDEX(i) *}{@code /}. Names are matched ignoring case; Phoenix's spaces
 * between names are read as commas ({@link io.basaltdb.sql.parser.LimitedParser}). A hint
 * naming an index the table does not have is refused (42S12), not ignored; a hint naming
 * another table is that table's.
 */
public record IndexHint(boolean none, List<String> only) {
  static final IndexHint FREE = new IndexHint(false, List.of());

  /** Calcite's strategies for Basalt's hints: each goes to the table scans below it. */
  public static final HintStrategyTable STRATEGIES = HintStrategyTable.builder()
      .hintStrategy("INDEX", HintPredicates.TABLE_SCAN)
      .hintStrategy("NO_INDEX", HintPredicates.TABLE_SCAN)
      .build();

  /** Whether the hints ask for particular indexes. */
  public boolean forced() {
    return !only.isEmpty();
  }

  /** The indexes a scan with these hints may use, of those the table has. */
  List<IndexLayout> usable(List<IndexLayout> indexes) {
    if (none) {
      return List.of();
    }
    if (only.isEmpty()) {
      return indexes;
    }
    List<IndexLayout> out = new ArrayList<>();
    for (IndexLayout index : indexes) {
      if (only.contains(index.index().name().toUpperCase(Locale.ROOT))) {
        out.add(index);
      }
    }
    return out;
  }

  /**
   * The hints of a scan of {@code table} (its simple name) whose indexes are
   * {@code indexNames} (any case).
   */
  static IndexHint of(List<RelHint> hints, String table, List<String> indexNames) {
    if (hints.isEmpty()) {
      return FREE;
    }
    boolean none = false;
    List<String> only = new ArrayList<>();
    for (RelHint hint : hints) {
      String name = hint.hintName.toUpperCase(Locale.ROOT);
      List<String> options = hint.listOptions;
      boolean onTable = hint.inheritPath.isEmpty(); // written after the table itself
      boolean namesTable = !options.isEmpty() && options.get(0).equalsIgnoreCase(table);
      if (name.equals("NO_INDEX")) {
        none |= options.isEmpty() || namesTable || onTable;
      } else if (name.equals("INDEX") && (namesTable || onTable)) {
        List<String> named = namesTable ? options.subList(1, options.size()) : options;
        for (String index : named) {
          String upper = index.toUpperCase(Locale.ROOT);
          if (indexNames.stream().noneMatch(n -> n.equalsIgnoreCase(upper))) {
            throw new SqlStateException(SqlStates.INDEX_NOT_FOUND, "hint INDEX: table " + table
                + " has no index " + index + " (its indexes: " + indexNames + ")");
          }
          only.add(upper);
        }
      }
    }
    return none || !only.isEmpty() ? new IndexHint(none, List.copyOf(only)) : FREE;
  }
}
