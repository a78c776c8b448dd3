package io.basaltdb.sql.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basaltdb.sql.SqlTestBase;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Timestamp;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.calcite.runtime.Hook;
import org.apache.calcite.util.Holder;
import org.junit.jupiter.api.Test;

/**
 * A statement's clock (CURRENT_TIMESTAMP, LOCALTIMESTAMP and the time defaults) is read once
 * per execution, when first asked, and every reference in that execution gives the same
 * instant; the next execution reads it anew; Calcite's {@code Hook.CURRENT_TIME} still sets it.
 */
class StatementClockTest extends SqlTestBase {
  @Test
  void everyReferenceInOneExecutionGivesOneInstant() throws Exception {
    update("CREATE TABLE t (id INT PRIMARY KEY, made TIMESTAMP(3) DEFAULT CURRENT_TIMESTAMP)");
    StringBuilder rows = new StringBuilder("INSERT INTO t (id) VALUES (0)");
    for (int i = 1; i < 2000; i++) {
      rows.append(", (").append(i).append(')');
    }
    update(rows.toString());
    List<String> made = rows("SELECT DISTINCT made FROM t");
    assertEquals(1, made.size(), "one default instant for the rows of one INSERT: " + made);

    Set<Timestamp> seen = new HashSet<>();
    try (PreparedStatement p = c.prepareStatement(
        "SELECT CURRENT_TIMESTAMP, id, LOCALTIMESTAMP, CURRENT_TIMESTAMP FROM t")) {
      Timestamp first = null;
      for (int run = 0; run < 2; run++) {
        Set<Timestamp> inRun = new HashSet<>();
        try (ResultSet r = p.executeQuery()) {
          int n = 0;
          while (r.next()) {
            inRun.add(r.getTimestamp(1));
            inRun.add(r.getTimestamp(3));
            inRun.add(r.getTimestamp(4));
            n++;
            if (n == 1000) {
              Thread.sleep(20); // the clock moves while the rows are read
            }
          }
          assertEquals(2000, n);
        }
        assertEquals(1, inRun.size(), "one instant in execution " + run + ": " + inRun);
        seen.addAll(inRun);
        if (first == null) {
          first = inRun.iterator().next();
          Thread.sleep(20);
        }
      }
      assertEquals(2, seen.size(), "each execution reads the clock anew: " + seen);
    }
  }

  @Test
  void calcitesClockHookStillSetsTheInstant() throws Exception {
    long fixed = 962_409_600_000L; // 2000-07-01T00:00:00Z: the year 2000 in any zone
    try (Hook.Closeable hook = Hook.CURRENT_TIME.addThread((Holder<Long> h) -> h.set(fixed))) {
      try (PreparedStatement p = c.prepareStatement("SELECT EXTRACT(YEAR FROM CURRENT_TIMESTAMP)"
          + " FROM (VALUES (1)) AS v(x)");
          ResultSet r = p.executeQuery()) {
        assertTrue(r.next());
        assertEquals(2000, r.getInt(1));
      }
    }
  }
}
