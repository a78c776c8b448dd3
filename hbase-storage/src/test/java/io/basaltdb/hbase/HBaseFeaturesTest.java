package io.basaltdb.hbase;

import static io.basaltdb.sql.SqlTestSupport.rows;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.junit.jupiter.api.Test;

/**
 * What Basalt's SQL does with HBase's own primitives: counters as Increments (exact under
 * concurrency), AS OF as a scan's time range, sequences, pre-split and salted tables as HBase
 * regions, JDBC metadata, and tables other HBase users made, read as ROW_KEY plus a MAP per
 * family.
 */
class HBaseFeaturesTest {
  private static void exec(Connection c, String sql) throws SQLException {
    try (Statement st = c.createStatement()) {
      st.execute(sql);
    }
  }

  @Test
  void countersFromFourThreadsAreExact() throws Exception {
    try (Connection c = DriverManager.getConnection(SharedCluster.url(""))) {
      exec(c, "CREATE TABLE hits (page VARCHAR NOT NULL PRIMARY KEY, n BIGINT)");
      exec(c, "UPSERT INTO hits VALUES ('home', 0), ('about', 0)");
      ExecutorService pool = Executors.newFixedThreadPool(4);
      List<Future<Integer>> done = new ArrayList<>();
      for (int t = 0; t < 4; t++) {
        done.add(pool.submit(() -> {
          int updated = 0;
          try (Connection own = DriverManager.getConnection(SharedCluster.url(""));
              PreparedStatement p = own.prepareStatement(
                  "UPDATE hits SET n = n + 1 WHERE page = ?")) {
            for (int i = 0; i < 200; i++) {
              p.setString(1, i % 4 == 0 ? "about" : "home");
              updated += p.executeUpdate();
            }
          }
          return updated;
        }));
      }
      int total = 0;
      for (Future<Integer> f : done) {
        total += f.get();
      }
      pool.shutdown();
      assertEquals(800, total, "each UPDATE counted its row");
      assertEquals(List.of("about|200", "home|600"),
          rows(c, "SELECT page, n FROM hits ORDER BY page"));
      assertEquals(0, c.createStatement().executeUpdate(
          "UPDATE hits SET n = n + 1 WHERE page = 'nowhere'"), "no row, no count");
      exec(c, "DROP TABLE hits");
    }
  }

  @Test
  void asOfReadsTheVersionsOfThatTime() throws Exception {
    try (Connection c = DriverManager.getConnection(SharedCluster.url(""))) {
      exec(c, "CREATE TABLE doc (id INTEGER NOT NULL PRIMARY KEY, body VARCHAR) VERSIONS=5");
      for (long ts : new long[] {1000, 2000, 3000}) {
        try (Connection at = DriverManager.getConnection(SharedCluster.url(
            ";writeTimestamp=" + ts))) {
          exec(at, "UPSERT INTO doc VALUES (1, 'v" + ts + "')");
          if (ts == 2000) {
            exec(at, "UPSERT INTO doc VALUES (2, 'other')");
          }
        }
      }
      assertEquals(List.of("1|v3000", "2|other"), rows(c, "SELECT * FROM doc ORDER BY id"));
      assertEquals(List.of("1|v1000"), rows(c, "SELECT * FROM doc FOR SYSTEM_TIME AS OF "
          + "TIMESTAMP '1970-01-01 00:00:01.999' ORDER BY id"));
      assertEquals(List.of("1|v2000", "2|other"), rows(c, "SELECT * FROM doc FOR SYSTEM_TIME"
          + " AS OF TIMESTAMP '1970-01-01 00:00:02' ORDER BY id"));
      assertEquals(List.of(), rows(c, "SELECT * FROM doc FOR SYSTEM_TIME AS OF "
          + "TIMESTAMP '1970-01-01 00:00:00.999'"));
      exec(c, "DROP TABLE doc");
    }
  }

  /**
   * Two storages on one cluster stand for two processes: DDL by one reaches the other's plans
   * and metadata within the shared catalog version's read interval.
   */
  @Test
  void ddlOfAnotherProcessIsSeen() throws Exception {
    String urlA = SharedCluster.url("");
    String urlB = urlA.replace("127.0.0.1", "localhost"); // another location: its own storage
    try (Connection a = DriverManager.getConnection(urlA);
        Connection b = DriverManager.getConnection(urlB)) {
      exec(a, "CREATE TABLE xp (id INTEGER PRIMARY KEY, v VARCHAR)");
      exec(a, "UPSERT INTO xp VALUES (1, 'one')");
      assertEquals(List.of("1|one"), rows(b, "SELECT * FROM xp"));
      assertEquals(List.of("1|one"), rows(b, "SELECT * FROM xp")); // now a cached plan in b
      exec(a, "DROP TABLE xp");
      exec(a, "CREATE TABLE xp (id INTEGER PRIMARY KEY, w INTEGER, v VARCHAR)");
      exec(a, "UPSERT INTO xp VALUES (2, 7, 'two')");
      Thread.sleep(1_100); // the shared version's read interval
      assertEquals(List.of("2|7|two"), rows(b, "SELECT * FROM xp"));
      List<String> columns = new ArrayList<>();
      try (ResultSet rs = b.getMetaData().getColumns(null, null, "XP", "%")) {
        while (rs.next()) {
          columns.add(rs.getString("COLUMN_NAME"));
        }
      }
      assertEquals(List.of("ID", "W", "V"), columns);
      exec(a, "DROP TABLE xp");
    }
  }

  @Test
  void sequencesCountFromTheirStart() throws Exception {
    try (Connection c = DriverManager.getConnection(SharedCluster.url(""))) {
      exec(c, "CREATE SEQUENCE ids START WITH 10 INCREMENT BY 5");
      assertEquals(List.of("10"), rows(c, "SELECT NEXT VALUE FOR ids"));
      assertEquals(List.of("15"), rows(c, "SELECT NEXT VALUE FOR ids"));
      try (Connection other = DriverManager.getConnection(SharedCluster.url(""))) {
        assertEquals(List.of("20"), rows(other, "SELECT NEXT VALUE FOR ids"));
      }
      exec(c, "DROP SEQUENCE ids");
    }
  }

  @Test
  void preSplitAndSaltedTablesAreHBaseRegions() throws Exception {
    try (Connection c = DriverManager.getConnection(SharedCluster.url(""))) {
      exec(c, "CREATE TABLE ev (g VARCHAR NOT NULL, k INTEGER NOT NULL, v BIGINT,"
          + " CONSTRAINT pk PRIMARY KEY (g, k DESC)) SPLIT ON ('c', 'f')");
      exec(c, "CREATE TABLE salted (id INTEGER NOT NULL PRIMARY KEY, w INTEGER) SALT_BUCKETS=3");
      StringBuilder ev = new StringBuilder("UPSERT INTO ev VALUES ");
      StringBuilder sa = new StringBuilder("UPSERT INTO salted VALUES ");
      for (int i = 0; i < 60; i++) {
        ev.append(i > 0 ? ", " : "").append("('").append((char) ('a' + i % 8)).append("', ")
            .append(i).append(", ").append(i * 10).append(")");
        sa.append(i > 0 ? ", " : "").append("(").append(i).append(", ").append(i % 7).append(")");
      }
      exec(c, ev.toString());
      exec(c, sa.toString());
      try (org.apache.hadoop.hbase.client.Connection h = ConnectionFactory.createConnection(
          SharedCluster.get().configuration())) {
        assertEquals(3, h.getRegionLocator(TableName.valueOf("default", "EV"))
            .getAllRegionLocations().size(), "SPLIT ON: three regions");
        assertEquals(3, h.getRegionLocator(TableName.valueOf("default", "SALTED"))
            .getAllRegionLocations().size(), "SALT_BUCKETS=3: three regions");
      }
      assertEquals(List.of("b|57|570", "b|49|490", "b|41|410"),
          rows(c, "SELECT * FROM ev WHERE g = 'b' ORDER BY k DESC LIMIT 3"));
      assertEquals(List.of("60|174"), rows(c, "SELECT COUNT(*), SUM(w) FROM salted"));
      assertEquals(List.of("0|0", "1|1", "2|2"),
          rows(c, "SELECT id, w FROM salted ORDER BY id LIMIT 3"));
      DatabaseMetaData md = c.getMetaData();
      List<String> tables = new ArrayList<>();
      try (ResultSet rs = md.getTables(null, null, "%", new String[] {"TABLE"})) {
        while (rs.next()) {
          tables.add(rs.getString("TABLE_NAME"));
        }
      }
      assertTrue(tables.containsAll(List.of("EV", "SALTED")), tables.toString());
      List<String> columns = new ArrayList<>();
      try (ResultSet rs = md.getColumns(null, null, "EV", "%")) {
        while (rs.next()) {
          columns.add(rs.getString("COLUMN_NAME") + " " + rs.getString("TYPE_NAME")
              + (rs.getInt("NULLABLE") == DatabaseMetaData.columnNoNulls ? " NOT NULL" : ""));
        }
      }
      assertEquals(List.of("G VARCHAR NOT NULL", "K INTEGER NOT NULL", "V BIGINT"), columns);
      exec(c, "DROP TABLE ev");
      exec(c, "DROP TABLE salted");
    }
  }

  @Test
  void aTableMadeWithTheHBaseApiReadsAsRowKeyAndFamilyMaps() throws Exception {
    try (org.apache.hadoop.hbase.client.Connection h = ConnectionFactory.createConnection(
        SharedCluster.get().configuration())) {
      TableName n = TableName.valueOf("webtable");
      h.getAdmin().createTable(TableDescriptorBuilder.newBuilder(n)
          .setColumnFamily(ColumnFamilyDescriptorBuilder.of("f"))
          .setColumnFamily(ColumnFamilyDescriptorBuilder.of("g")).build());
      try (Table t = h.getTable(n)) {
        t.put(new Put(b("k1")).addColumn(b("f"), b("q"), b("v1")));
        t.put(new Put(b("k2")).addColumn(b("g"), b("q"), b("v2")));
      }
      try (Connection c = DriverManager.getConnection(SharedCluster.url(""))) {
        assertEquals(List.of("6b31|7631|null", "6b32|null|7632"), rows(c,
            "SELECT CAST(row_key AS VARCHAR), CAST(\"f\"['q'] AS VARCHAR),"
                + " CAST(\"g\"['q'] AS VARCHAR) FROM \"webtable\" ORDER BY row_key"));
      }
      h.getAdmin().disableTable(n);
      h.getAdmin().deleteTable(n);
    }
  }

  private static byte[] b(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
