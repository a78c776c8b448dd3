package io.basaltdb.engine.region;

import io.basaltdb.storage.Cell;
import io.basaltdb.storage.InvalidArgumentException;
import io.basaltdb.storage.Row;
import java.util.Arrays;
import java.util.List;

/**
 * The checks a row mutation passes before anything is written: a usable row key inside the
 * region, cells of that row with a type, a non-negative timestamp and a size within the limit.
 * (Known families are checked by the region, which holds them.) Stateless.
 */
final class MutationChecks {
  private MutationChecks() {}

  static void checkRow(RegionDescriptor d, byte[] row) {
    Row.checkRow(row);
    if (row.length > Short.MAX_VALUE) {
      throw new InvalidArgumentException("row key of " + row.length + " bytes exceeds "
          + Short.MAX_VALUE);
    }
    if (!d.containsRow(row)) {
      throw new InvalidArgumentException("row " + Cell.printable(row) + " is outside region "
          + d.name());
    }
  }

  static void checkCells(byte[] row, List<Cell> cells, int maxCellSize) {
    for (int i = 0; i < cells.size(); i++) { // per row of a load: no iterator
      Cell c = cells.get(i);
      if (c.type() == null) {
        throw new InvalidArgumentException("cell without a type");
      }
      if (c.row() != null && c.row() != row && !Arrays.equals(c.row(), row)) {
        throw new InvalidArgumentException("a row mutation's cells must all be of row "
            + Cell.printable(row) + ", got " + Cell.printable(c.row()));
      }
      if (c.timestamp() < 0) {
        throw new InvalidArgumentException("timestamp must be >= 0, got " + c.timestamp());
      }
      long size = (long) row.length + c.qualifier().length + c.value().length;
      if (size > maxCellSize) {
        throw new InvalidArgumentException("cell of " + size + " bytes in row "
            + Cell.printable(row) + " exceeds the maximum cell size of " + maxCellSize + " bytes");
      }
    }
  }
}
