package io.basaltdb.engine.region;

import io.basaltdb.storage.Cell;
import java.util.List;

/** Rows of one region, one at a time, forward or reversed. Must be closed. */
public interface RowScanner extends AutoCloseable {
  /** The next row's cells, or null at the end. */
  List<Cell> next();

  @Override
  void close();
}
