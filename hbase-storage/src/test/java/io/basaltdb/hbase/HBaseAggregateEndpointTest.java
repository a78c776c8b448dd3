package io.basaltdb.hbase;

import static io.basaltdb.sql.SqlTestSupport.rows;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basaltdb.sql.RandomQueries;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Random;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.junit.jupiter.api.Test;

/**
 * Aggregates over HBase computed by HBase's own aggregation endpoint where a table has it
 * loaded (here per table, as an operator would with the HBase shell): each query is asked of
 * a twin table without the endpoint too, whose rows Basalt reads and aggregates itself, and of
 * plain Java over the rows written; EXPLAIN ANALYZE shows which path ran. Seeded; replay with
 * {@code -Dbasalt.seed=N}.
 */
class HBaseAggregateEndpointTest {
  private static final String ENDPOINT = "org.apache.hadoop.hbase.coprocessor.AggregateImplementation";

  @Test
  void aggregatesRunOnTheRegionServersAndAgreeWithTheRows() throws Exception {
    long seed = RandomQueries.seed("HBaseAggregateEndpointTest");
    Random rnd = new Random(seed);
    Long[] v = new Long[1000];
    try (Connection c = DriverManager.getConnection(SharedCluster.url(""))) {
      for (String t : List.of("agg_ep", "agg_rows")) {
        exec(c, "CREATE TABLE " + t + " (id BIGINT NOT NULL PRIMARY KEY, v BIGINT, w INTEGER,"
            + " s VARCHAR) SPLIT ON (250, 500, 750)");
      }
      for (int i = 0; i < v.length; i++) {
        v[i] = rnd.nextInt(10) == 0 ? null : rnd.nextLong(-1_000_000_000L, 1_000_000_000L);
      }
      for (String t : List.of("agg_ep", "agg_rows")) {
        try (PreparedStatement p = c.prepareStatement("UPSERT INTO " + t + " VALUES (?, ?, ?, ?)")) {
          for (int i = 0; i < v.length; i++) {
            p.setLong(1, i);
            p.setObject(2, v[i]);
            p.setInt(3, i % 7);
            p.setString(4, "s" + i);
            p.addBatch();
          }
          p.executeBatch();
        }
      }
      loadEndpoint("AGG_EP");

      String all = "SELECT COUNT(*), COUNT(v), SUM(v), MIN(v), MAX(v) FROM ";
      assertEquals(List.of(expected(v, 0, 1000)), rows(c, all + "agg_ep"), "seed " + seed);
      assertEquals(List.of(expected(v, 100, 600)),
          rows(c, all + "agg_ep WHERE id >= 100 AND id < 600"), "seed " + seed);
      for (String where : List.of("", " WHERE id >= 100 AND id < 600", " WHERE id < 260",
          " WHERE id IN (1, 5, 400, 800, 999)", " WHERE id > 2000", " WHERE v > 0",
          " WHERE id = 7")) {
        for (String q : List.of(all, "SELECT SUM(w), COUNT(s), AVG(v) FROM ",
            "SELECT SUM(v) + 1, MAX(v) - MIN(v) FROM ")) {
          assertEquals(rows(c, q + "agg_rows" + where), rows(c, q + "agg_ep" + where),
              q + "..." + where + ", seed " + seed);
        }
      }
      String analyzed = String.join("\n",
          rows(c, "EXPLAIN ANALYZE SELECT COUNT(*), SUM(v) FROM agg_ep"));
      assertTrue(analyzed.contains("regionAggregates=8"), analyzed); // 4 regions, 2 calls
      String read = String.join("\n",
          rows(c, "EXPLAIN ANALYZE SELECT COUNT(*), SUM(v) FROM agg_rows"));
      assertFalse(read.contains("regionAggregates"), read);
      assertTrue(read.contains("rows=" + 1000), read);

      // deletes and updates are what the region servers see too
      assertEquals(250, c.createStatement().executeUpdate("DELETE FROM agg_ep WHERE id < 250"));
      exec(c, "UPDATE agg_ep SET v = 1 WHERE id >= 900");
      for (int i = 0; i < 250; i++) {
        v[i] = null;
      }
      for (int i = 900; i < 1000; i++) {
        v[i] = 1L;
      }
      assertEquals(List.of("750|" + expected(v, 0, 1000).split("\\|", 2)[1]),
          rows(c, all + "agg_ep"), "seed " + seed);
      exec(c, "DROP TABLE agg_ep");
      exec(c, "DROP TABLE agg_rows");
    }
  }

  @Test
  void aSumTheEndpointCannotProveIsLeftToTheRowsAndAnOverflowRefused() throws Exception {
    try (Connection c = DriverManager.getConnection(SharedCluster.url(""))) {
      exec(c, "CREATE TABLE agg_big (id INTEGER NOT NULL PRIMARY KEY, v BIGINT)"
          + " SPLIT ON (10)");
      loadEndpoint("AGG_BIG");
      exec(c, "UPSERT INTO agg_big VALUES (1, 1125899906842624), (2, 1125899906842624),"
          + " (11, -3), (12, 1125899906842624)");
      assertEquals(List.of("3377699720527869|-3|1125899906842624"),
          rows(c, "SELECT SUM(v), MIN(v), MAX(v) FROM agg_big"), "3 x 2^50 - 3, exact");
      exec(c, "UPSERT INTO agg_big VALUES (3, 9223372036854775806), (13, 9223372036854775806)");
      SQLException e = assertThrows(SQLException.class,
          () -> rows(c, "SELECT SUM(v) FROM agg_big"));
      assertEquals("22003", e.getSQLState(), e.getMessage());
      assertEquals(List.of("6|9223372036854775806"),
          rows(c, "SELECT COUNT(v), MAX(v) FROM agg_big"));
      exec(c, "DELETE FROM agg_big WHERE id IN (3, 13)");
      assertEquals(List.of("3377699720527869"), rows(c, "SELECT SUM(v) FROM agg_big"));
      exec(c, "DROP TABLE agg_big");
    }
  }

  @Test
  void asOfReadsTheCellsOfItsTimeOnTheRegionServers() throws Exception {
    try (Connection c = DriverManager.getConnection(SharedCluster.url(""))) {
      exec(c, "CREATE TABLE agg_time (id INTEGER NOT NULL PRIMARY KEY, v BIGINT) VERSIONS=5");
      loadEndpoint("AGG_TIME");
      try (Connection at = DriverManager.getConnection(SharedCluster.url(";writeTimestamp=1000"))) {
        exec(at, "UPSERT INTO agg_time VALUES (1, 10), (2, 20), (3, 30)");
      }
      try (Connection at = DriverManager.getConnection(SharedCluster.url(";writeTimestamp=2000"))) {
        exec(at, "UPSERT INTO agg_time VALUES (1, 100), (4, 40)");
      }
      assertEquals(List.of("4|190|100"), rows(c, "SELECT COUNT(*), SUM(v), MAX(v) FROM agg_time"));
      String asOf = " FOR SYSTEM_TIME AS OF TIMESTAMP '1970-01-01 00:00:01.5'";
      assertEquals(List.of("3|60|30"),
          rows(c, "SELECT COUNT(*), SUM(v), MAX(v) FROM agg_time" + asOf));
      String analyzed = String.join("\n",
          rows(c, "EXPLAIN ANALYZE SELECT COUNT(*), SUM(v) FROM agg_time" + asOf));
      assertTrue(analyzed.contains("regionAggregates=2"), analyzed);
      exec(c, "DROP TABLE agg_time");
    }
  }

  /** COUNT(*) | COUNT(v) | SUM(v) | MIN(v) | MAX(v) over ids [from, to). */
  private static String expected(Long[] v, int from, int to) {
    long n = 0;
    long sum = 0;
    Long min = null;
    Long max = null;
    long rowsThere = 0;
    for (int i = from; i < to; i++) {
      rowsThere++;
      if (v[i] != null) {
        n++;
        sum += v[i];
        min = min == null ? v[i] : Math.min(min, v[i]);
        max = max == null ? v[i] : Math.max(max, v[i]);
      }
    }
    return rowsThere + "|" + n + "|" + (n == 0 ? "null" : sum) + "|" + min + "|" + max;
  }

  /** What an HBase operator does per table: the endpoint as a table coprocessor. */
  private static void loadEndpoint(String table) throws Exception {
    try (org.apache.hadoop.hbase.client.Connection h = ConnectionFactory.createConnection(
        SharedCluster.get().configuration()); Admin a = h.getAdmin()) {
      TableName n = TableName.valueOf("default", table);
      a.modifyTable(TableDescriptorBuilder.newBuilder(a.getDescriptor(n))
          .setCoprocessor(ENDPOINT).build());
    }
  }

  private static void exec(Connection c, String sql) throws SQLException {
    try (Statement st = c.createStatement()) {
      st.execute(sql);
    }
  }
}
