package io.basaltdb.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The cluster workload runs end to end on an embedded database (its answers are checked as it
 * runs: counts, sums, range sizes, the counter against the increments made, counts through
 * indexes built while a writer ran) and reports every measure.
 */
class ClusterBenchTest {
  @Test
  void everyMeasureRunsAndIsChecked() throws Exception {
    Path dir = Files.createTempDirectory("cluster-bench");
    try {
      Class.forName("io.basaltdb.jdbc.BasaltDriver");
      Map<String, ClusterBench.Measure> r = new ClusterBench("jdbc:basalt:" + dir.resolve("db"),
          false, 5000, 0.3, "bench").run();
      assertEquals(List.of("batched UPSERT load", "batched INSERT load", "batched INSERT load, again",
          "point SELECT by key",
          "100-row key range",
          "COUNT(*) + SUM over all rows", "non-key filter scan", "counter +1 from 2 threads",
          "CREATE covering INDEX, 1 writer", "CREATE non-covering INDEX, 1 writer",
          "rows missing from the 2 indexes",
          "lookup by index (10 rows, covered)", "lookup by index (1 row, fetched)",
          "batched UPSERT, 2 indexes"),
          List.copyOf(r.keySet()));
      assertEquals(0, r.get("rows missing from the 2 indexes").value(), 0.0);
      for (ClusterBench.Measure m : r.values()) {
        if (m.unit().equals("rows")) {
          continue;
        }
        assertTrue(m.value() > 0, m.line());
        ClusterBench.Measure back = ClusterBench.Measure.parse("  " + m.line() + " ");
        assertEquals(m.name() + " " + m.unit(), back.name() + " " + back.unit());
        assertEquals(m.value(), back.value(), 0.0005, "read back: " + m.line());
      }
      assertNull(ClusterBench.Measure.parse("basalt: building tpc-samples..."));
    } finally {
      EngineBench.deleteRecursively(dir);
    }
  }
}
