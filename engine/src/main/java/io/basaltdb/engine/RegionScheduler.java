package io.basaltdb.engine;

import io.basaltdb.engine.region.MemstoreBudget;
import io.basaltdb.engine.region.Region;
import io.basaltdb.engine.region.RegionContext;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;

/**
 * What regions ask of their database in the background: flushes (and, past the global memstore
 * budget, a flush of the largest memstore too), compactions, freezes of idle memstores, splits,
 * and the log retention a finished flush allows. Nothing runs once the database is closed.
 *
 * <p>Invariant: at most one split of a region is queued or running at a time.
 */
final class RegionScheduler implements RegionContext.Scheduler {
  private final BackgroundWork background;
  private final MemstoreBudget budget;
  private final TableRegistry registry;
  private final DatabaseLog log;
  private final Predicate<Region> split;
  private final BooleanSupplier closed;
  private final Set<String> splitsInFlight = ConcurrentHashMap.newKeySet();

  /** {@code split} splits a region now (false when it cannot); {@code closed} stops the rest. */
  RegionScheduler(BackgroundWork background, MemstoreBudget budget, TableRegistry registry,
      DatabaseLog log, Predicate<Region> split, BooleanSupplier closed) {
    this.background = background;
    this.budget = budget;
    this.registry = registry;
    this.log = log;
    this.split = split;
    this.closed = closed;
  }

  @Override
  public void requestFlush(Region r) {
    background.run("flush of " + r.name(), false, closed, () -> {
      r.flush();
      if (budget.used() >= budget.limit()) {
        Region largest = registry.largestMemstore();
        if (largest != null) {
          largest.flush();
        }
      }
    });
  }

  @Override
  public void requestCompaction(Region r) {
    background.run("compaction of " + r.name(), true, closed, () -> r.compact(false));
  }

  @Override
  public void requestFreeze(Region r) {
    background.run("freeze of " + r.name(), true, closed, r::freeze);
  }

  @Override
  public void requestSplit(Region r) {
    if (splitsInFlight.add(r.name())) {
      background.run("split of " + r.name(), false, closed, () -> {
        try {
          split.test(r);
        } finally {
          splitsInFlight.remove(r.name());
        }
      });
    }
  }

  @Override
  public void flushed(Region r) {
    log.deleteObsolete();
  }

  @Override
  public Throwable failure() {
    return background.failure();
  }
}
