package io.basaltdb.sql.rel;

import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.TableScan;

/**
 * Finds a plan's only read of storage: a statement snapshot ({@code StatementSnapshot}) exists
 * to read every table, index and region a statement reads at one cut, which a statement that
 * reads one scan's rows, a point read above all (one get, atomic by itself), does not need.
 * The plan has exactly one table scan, a {@link BasaltScan} under its converter, and no
 * lookup join (which reads a table of its own); an UPDATE or DELETE of rows found by key is
 * the usual case. Its converter is then marked ({@link BasaltToEnumerableConverter#asSoleRead}).
 * A write reads what it changes under the row's lock at its newest, apart from the scan.
 */
public final class SoleRead {
  private SoleRead() {}

  /** {@code root} with its only storage read marked, or itself when it has not exactly one. */
  public static RelNode mark(RelNode root) {
    List<RelNode> reads = new ArrayList<>();
    collect(root, reads);
    return reads.size() == 1 && reads.get(0) instanceof BasaltScan scan
        ? markConverterOf(root, scan) : root;
  }

  /** The nodes under {@code node} that read storage: table scans and lookup joins. */
  private static void collect(RelNode node, List<RelNode> reads) {
    if (node instanceof TableScan || node instanceof BasaltLookupJoin) {
      reads.add(node);
    }
    for (RelNode in : node.getInputs()) {
      collect(in, reads);
    }
  }

  /** {@code node} with the converter right above {@code scan} marked (none: itself). */
  private static RelNode markConverterOf(RelNode node, BasaltScan scan) {
    if (node instanceof BasaltToEnumerableConverter c && c.getInput() == scan) {
      return c.asSoleRead();
    }
    List<RelNode> inputs = node.getInputs();
    List<RelNode> marked = new ArrayList<>(inputs.size());
    boolean changed = false;
    for (RelNode in : inputs) {
      RelNode r = markConverterOf(in, scan);
      changed |= r != in;
      marked.add(r);
    }
    return changed ? node.copy(node.getTraitSet(), marked) : node;
  }
}
