package io.basaltdb.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** BasaltDataSource on its own and under HikariCP. */
class DataSourceTest {
  @TempDir
  Path dir;

  @Test
  void plainDataSource() throws Exception {
    BasaltDataSource ds = new BasaltDataSource();
    assertEquals("08001", assertThrows(SQLException.class, ds::getConnection).getSQLState());
    ds.setUrl("jdbc:basalt:" + dir.resolve("db"));
    ds.setProperty("durability", "ASYNC");
    ds.setUser("app");
    ds.setPassword("ignored");
    try (Connection c = ds.getConnection("app", "x"); Statement st = c.createStatement()) {
      st.executeUpdate("CREATE TABLE t (id INTEGER NOT NULL PRIMARY KEY)");
      assertEquals(1, st.executeUpdate("INSERT INTO t VALUES (1)"));
    }
  }

  @Test
  void underHikariCp() throws Exception {
    BasaltDataSource ds = new BasaltDataSource();
    ds.setUrl("jdbc:basalt:" + dir.resolve("pooled"));
    HikariConfig config = new HikariConfig();
    config.setDataSource(ds);
    config.setMaximumPoolSize(4);
    config.setPoolName("basalt-test");
    try (HikariDataSource pool = new HikariDataSource(config)) {
      try (Connection c = pool.getConnection(); Statement st = c.createStatement()) {
        st.executeUpdate("CREATE TABLE hits (id INTEGER NOT NULL PRIMARY KEY, n BIGINT)");
        st.executeUpdate("INSERT INTO hits VALUES (1, 0)");
      }
      ExecutorService workers = Executors.newFixedThreadPool(4);
      List<Future<?>> done = new ArrayList<>();
      for (int w = 0; w < 4; w++) {
        done.add(workers.submit(() -> {
          for (int i = 0; i < 50; i++) {
            try (Connection c = pool.getConnection(); Statement st = c.createStatement()) {
              st.executeUpdate("UPDATE hits SET n = n + 1 WHERE id = 1");
            }
          }
          return null;
        }));
      }
      for (Future<?> f : done) {
        f.get();
      }
      workers.shutdown();
      try (Connection c = pool.getConnection(); Statement st = c.createStatement();
          ResultSet rs = st.executeQuery("SELECT n FROM hits")) {
        rs.next();
        assertEquals(200, rs.getLong(1));
      }
    }
  }
}
