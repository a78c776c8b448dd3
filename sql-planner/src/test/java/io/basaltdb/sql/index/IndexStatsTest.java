package io.basaltdb.sql.index;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basaltdb.sql.SqlTestBase;
import io.basaltdb.sql.catalog.IndexStats;
import io.basaltdb.sql.catalog.SqlCatalog;
import io.basaltdb.storage.TableName;
import java.sql.SQLException;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A built index records its entries and the distinct values of each prefix of its columns
 * (NULL one value); the planner estimates an equality from them, so an index on a column of
 * two values is not taken for a filter that keeps half the table, one of many values is.
 */
class IndexStatsTest extends SqlTestBase {
  private static final TableName T = new TableName("default", "T");

  private IndexStats stats(String index) {
    return new SqlCatalog(db).indexes(T).stream().filter(i -> i.name().equals(index))
        .findFirst().orElseThrow().stats();
  }

  @Test
  void aBuildCountsDistinctPrefixes() throws SQLException {
    update("CREATE TABLE t (id INTEGER PRIMARY KEY, flag INTEGER, a VARCHAR(10), b INTEGER)");
    for (int i = 0; i < 1000; i++) {
      update("UPSERT INTO t VALUES (" + i + ", " + (i % 2) + ", "
          + (i % 100 == 0 ? "NULL" : "'a" + (i % 250) + "'") + ", " + (i % 3) + ")");
    }
    update("CREATE INDEX iflag ON t (flag)");
    update("CREATE INDEX ia ON t (a DESC, b)");
    update("CREATE INDEX isalted ON t (b) SALT_BUCKETS = 2");
    assertEquals(new IndexStats(1000, List.of(2L)), stats("IFLAG"));
    // a: 250 values, but i % 100 == 0 rows (ten, all a0/a100/a200 rows' ids) are NULL instead
    long aValues = java.util.stream.IntStream.range(0, 1000).filter(i -> i % 100 != 0)
        .mapToObj(i -> "a" + (i % 250)).distinct().count() + 1;
    long abValues = java.util.stream.IntStream.range(0, 1000)
        .mapToObj(i -> (i % 100 == 0 ? "null" : "a" + (i % 250)) + "/" + (i % 3)).distinct()
        .count();
    assertEquals(new IndexStats(1000, List.of(aValues, abValues)), stats("IA"));
    assertNull(stats("ISALTED"), "a salted index is in order per bucket only");

    String half = String.join("\n", rows("EXPLAIN PLAN FOR SELECT id, a FROM t WHERE flag = 1"));
    assertFalse(half.contains("index=[IFLAG"), "half the table: " + half);
    String few = String.join("\n", rows("EXPLAIN PLAN FOR SELECT id, flag FROM t WHERE a = 'a7'"));
    assertTrue(few.contains("index=[IA"), few);
    assertEquals(rows("SELECT id FROM t /*+ NO_INDEX */ WHERE a = 'a7' ORDER BY id"),
        rows("SELECT id FROM t WHERE a = 'a7' ORDER BY id"));
  }
}
