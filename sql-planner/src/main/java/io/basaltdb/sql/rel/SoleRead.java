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
    if (reads.size() != 1 || !(reads.get(0) instanceof BasaltToEnumerableConverter c)
        || !(c.getInput() instanceof BasaltScan)) {
      return root;
    }
    return replace(root, c, c.asSoleRead());
  }

  /** The nodes under {@code node} that read storage: converters of scans, other table scans, lookup joins. */
  private static void collect(RelNode node, List<RelNode> reads) {
    if (node instanceof BasaltToEnumerableConverter || node instanceof TableScan
        || node instanceof BasaltLookupJoin) {
      reads.add(node);
      if (node instanceof BasaltToEnumerableConverter c && !(c.getInput() instanceof BasaltScan)) {
        reads.add(c.getInput()); // not a lone scan: never marked
      }
      if (!(node instanceof BasaltLookupJoin)) {
        return;
      }
    }
    for (RelNode in : node.getInputs()) {
      collect(in, reads);
    }
  }

  private static RelNode replace(RelNode node, RelNode from, RelNode to) {
    if (node == from) {
      return to;
    }
    List<RelNode> inputs = node.getInputs();
    List<RelNode> replaced = new ArrayList<>(inputs.size());
    boolean changed = false;
    for (RelNode in : inputs) {
      RelNode r = replace(in, from, to);
      changed |= r != in;
      replaced.add(r);
    }
    return changed ? node.copy(node.getTraitSet(), replaced) : node;
  }
}
