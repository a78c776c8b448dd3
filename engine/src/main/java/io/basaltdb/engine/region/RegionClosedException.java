package io.basaltdb.engine.region;

import io.basaltdb.storage.ClosedException;

/**
 * The region is closed or is being split: the operation did nothing and may be retried on
 * the table's current regions (the {@code Table} API does so by itself).
 */
public class RegionClosedException extends ClosedException {
  private static final long serialVersionUID = 1L;

  public RegionClosedException(String what) {
    super(what);
  }
}
