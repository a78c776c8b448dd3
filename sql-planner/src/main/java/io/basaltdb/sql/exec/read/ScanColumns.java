package io.basaltdb.sql.exec.read;

import io.basaltdb.sql.catalog.CellNames;
import io.basaltdb.sql.catalog.SqlTableDef;
import io.basaltdb.sql.pushdown.PushedPredicate;
import io.basaltdb.sql.pushdown.ScanSpec;
import io.basaltdb.storage.Get;
import io.basaltdb.storage.ReadRequest;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * What every execution of one planned scan reads of its table, worked out once per plan
 * instead of per execution: the table columns its rows need (the spec's own and those its
 * filters test) and a read of their cells (the row marker, each column's family and
 * qualifier) whose column map the executions' scans and gets share ({@link
 * ReadRequest#readColumnsOf}) rather than build. A read through an index, which leaves some of
 * the spec's filters out, works out its own for the filters it applies. Immutable; shared by
 * the executions of a plan, on any thread.
 */
public final class ScanColumns {
  private final SqlTableDef def;
  private final ScanSpec spec;
  /** Table column indexes read, in index order. */
  final Set<Integer> columns;
  /** A get of those columns' cells, frozen: read by executions, never changed. */
  private final Get cells;

  private ScanColumns(SqlTableDef def, ScanSpec spec, List<PushedPredicate> filters) {
    this.def = def;
    this.spec = spec;
    Set<Integer> read = new TreeSet<>(spec.columns());
    read.addAll(PushedPredicate.cellColumns(filters, def));
    this.columns = Collections.unmodifiableSet(read);
    Get g = new Get(new byte[] {0});
    PointRead.addColumns(g, def, CellNames.of(def), read);
    this.cells = new Get(new byte[] {0}).readColumnsOf(g);
  }

  /** The columns a scan of {@code spec} over {@code def} reads. */
  public static ScanColumns of(SqlTableDef def, ScanSpec spec) {
    return new ScanColumns(def, spec, spec.filters());
  }

  /** The columns rows of {@code spec} passing {@code filters} (not the spec's own) need. */
  static ScanColumns of(SqlTableDef def, ScanSpec spec, List<PushedPredicate> filters) {
    return new ScanColumns(def, spec, filters);
  }

  /** Whether these are the columns of {@code spec} over {@code def} (the same objects). */
  public boolean isFor(SqlTableDef def, ScanSpec spec) {
    return this.def == def && this.spec == spec;
  }

  /** Asks {@code read} for these columns' cells, sharing their map. */
  void addTo(ReadRequest<?> read) {
    read.readColumnsOf(cells);
  }
}
