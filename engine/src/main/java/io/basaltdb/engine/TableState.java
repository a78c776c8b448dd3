package io.basaltdb.engine;

import io.basaltdb.storage.TableDescriptor;
import io.basaltdb.engine.region.Region;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * A table's live state: its descriptor, enabled flag and open regions in row order. Changed
 * only under the admin lock (schema changes, splits); read by any thread (volatile fields).
 */
final class TableState {
  volatile TableDescriptor descriptor;
  /** The descriptor's family names as bytes, sorted (kept with the descriptor). */
  volatile Set<byte[]> familyBytes;
  volatile boolean enabled;
  volatile List<Region> regions;
  /** The regions' start rows, made with {@link #regions} (a reader may see one a split behind). */
  volatile List<byte[]> startRows;

  TableState(TableDescriptor descriptor, boolean enabled, List<Region> regions) {
    setDescriptor(descriptor);
    this.enabled = enabled;
    setRegions(regions);
  }

  void setRegions(List<Region> regions) {
    List<Region> copy = List.copyOf(regions);
    byte[][] starts = new byte[copy.size()][];
    for (int i = 0; i < starts.length; i++) {
      starts[i] = copy.get(i).descriptor().startRow();
    }
    this.startRows = List.of(starts);
    this.regions = copy;
  }

  void setDescriptor(TableDescriptor d) {
    TreeSet<byte[]> f = new TreeSet<>(Arrays::compareUnsigned);
    for (String name : d.families().keySet()) {
      f.add(name.getBytes(StandardCharsets.UTF_8));
    }
    familyBytes = Collections.unmodifiableSet(f);
    descriptor = d;
  }
}
