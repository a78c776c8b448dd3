package io.basaltdb.engine;

import io.basaltdb.storage.Cell;
import io.basaltdb.storage.ClosedException;
import io.basaltdb.storage.Result;
import io.basaltdb.storage.ResultScanner;
import io.basaltdb.engine.region.RowScanner;
import java.util.List;

/**
 * A table scan as a chain of region scans: reads the current region's rows, and when it is
 * exhausted asks the subclass for the next region (looked up in the table's current region
 * list, so splits are followed), until the range or the row limit ends. Not thread-safe.
 */
abstract class RegionChainScanner implements ResultScanner {
  private long remaining;
  private RowScanner current;
  private boolean exhausted;
  private boolean closed;

  RegionChainScanner(long limit) {
    this.remaining = limit;
  }

  /** A scanner over the next region of the range, or null when the range is done. */
  protected abstract RowScanner openNext();

  /** A row with this key was returned. */
  protected abstract void returned(byte[] row);

  /** The current region is exhausted: move past it; false when the range is done. */
  protected abstract boolean leaveRegion();

  @Override
  public final Result next() {
    if (closed) {
      throw new ClosedException("scanner");
    }
    while (remaining > 0 && !exhausted) {
      if (current == null) {
        current = openNext();
        if (current == null) {
          exhausted = true;
          break;
        }
      }
      List<Cell> row = current.next();
      if (row != null) {
        remaining--;
        byte[] key = row.get(0).row();
        returned(key);
        return Result.owning(key, row); // a scanner's row list is fresh per row
      }
      current.close();
      current = null;
      exhausted = !leaveRegion();
    }
    return null;
  }

  @Override
  public final void close() {
    if (!closed) {
      closed = true;
      if (current != null) {
        current.close();
      }
    }
  }
}
