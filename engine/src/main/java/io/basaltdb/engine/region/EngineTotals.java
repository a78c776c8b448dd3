package io.basaltdb.engine.region;

import io.basaltdb.engine.store.StoreStats;
import java.util.concurrent.atomic.LongAdder;

/**
 * What every region of a database has done since it opened, counted as it happens (regions
 * come and go with splits and drops; these do not): row writes (each region part of a write),
 * reads (gets and scans), and the stores' flushes and compactions ({@link StoreStats} of every
 * store chain to {@link #stores}). Read by the database's metrics. Thread-safe.
 */
public final class EngineTotals {
  public final LongAdder writes = new LongAdder();
  public final LongAdder reads = new LongAdder();
  /** Flushes and compactions of every store, as each store counts its own. */
  public final StoreStats stores = new StoreStats(null);
}
