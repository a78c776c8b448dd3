package io.basaltdb.engine.region;

import io.basaltdb.engine.EngineOptions;
import io.basaltdb.engine.compaction.CompactionPolicy;
import io.basaltdb.engine.store.Store;
import io.basaltdb.engine.store.StoreFile;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;

/**
 * Which files of a region's stores a compaction merges ({@link CompactionPolicy}, or all of
 * them for a major one), and running it store by store ({@code Store.compact}); the region holds
 * its compaction lock meanwhile. Stateless.
 */
final class StoreCompactions {
  private StoreCompactions() {}

  /** True when a store has as many files as a minor compaction starts at. */
  static boolean needed(Collection<Store> stores, EngineOptions o) {
    for (Store s : stores) {
      if (s.filesSnapshot().size() >= o.compactionMinFiles()) {
        return true;
      }
    }
    return false;
  }

  /** Compacts each store (until the region closes); returns how many were compacted. */
  static int run(Collection<Store> stores, boolean major, EngineOptions o,
      BooleanSupplier closed, LongSupplier smallestReadPoint) {
    int done = 0;
    CompactionPolicy policy = new CompactionPolicy(o.compactionMinFiles(), o.compactionMaxFiles(),
        o.compactionRatio(), o.compactionMaxFiles() + 6);
    for (Store s : stores) {
      if (closed.getAsBoolean()) {
        break;
      }
      List<StoreFile> files = s.filesSnapshot();
      List<StoreFile> inputs;
      if (major) {
        inputs = files;
      } else {
        List<Long> sizes = new ArrayList<>();
        files.forEach(f -> sizes.add(f.length()));
        inputs = CompactionPolicy.window(files, policy.select(sizes));
      }
      if (inputs.isEmpty() || (!major && inputs.size() < 2)) {
        continue;
      }
      s.compact(inputs, major && inputs.size() == files.size(), smallestReadPoint.getAsLong());
      done++;
    }
    return done;
  }
}
