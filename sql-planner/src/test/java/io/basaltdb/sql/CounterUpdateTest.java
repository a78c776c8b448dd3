package io.basaltdb.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basaltdb.storage.TableName;
import io.basaltdb.sql.jdbc.BasaltConnections;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code UPDATE t SET c = c + n WHERE <full key>} runs as one engine increment, without reading
 * the row first, and still means what SQL says: a missing row is not created and counts 0, a
 * NULL stays NULL and counts 1, concurrent updaters lose nothing, a transaction still holds
 * the update until commit.
 */
class CounterUpdateTest extends TemporaryDatabaseTest {
  @BeforeEach
  void open() throws SQLException {
    st.executeUpdate("CREATE TABLE kv (id BIGINT NOT NULL PRIMARY KEY, n BIGINT, v VARCHAR(5))");
    st.executeUpdate("CREATE TABLE pair (a INTEGER NOT NULL, b VARCHAR(4) NOT NULL, n BIGINT,"
        + " CONSTRAINT pk PRIMARY KEY (a, b DESC)) SALT_BUCKETS = 4");
    st.executeUpdate("UPSERT INTO kv VALUES (1, 10, 'a')");
    st.executeUpdate("UPSERT INTO kv VALUES (2, NULL, 'b')");
    st.executeUpdate("UPSERT INTO pair VALUES (1, 'x', 5)");
  }

  private String one(String sql) throws SQLException {
    try (ResultSet rs = st.executeQuery(sql)) {
      assertTrue(rs.next(), sql);
      String v = rs.getString(1);
      assertFalse(rs.next(), sql);
      return v;
    }
  }

  private long reads(String table) {
    return db.admin().regions(TableName.of(table)).stream().mapToLong(r -> r.stats().reads())
        .sum();
  }

  @Test
  void anIncrementByKeyReadsNothingBeforeIt() throws SQLException {
    long before = reads("KV");
    for (int i = 0; i < 10; i++) {
      assertEquals(1, st.executeUpdate("UPDATE kv SET n = n + " + (i + 1) + " WHERE id = 1"));
    }
    assertEquals(10, reads("KV") - before, "one read per update: the increment's own");
    assertEquals("65", one("SELECT n FROM kv WHERE id = 1"));
    assertEquals(1, st.executeUpdate("UPDATE kv SET n = n - 5 WHERE id = 1"));
    assertEquals("60", one("SELECT n FROM kv WHERE id = 1"));
    assertEquals(1, st.executeUpdate("UPDATE pair SET n = n + 2 WHERE a = 1 AND b = 'x'"));
    assertEquals("7", one("SELECT n FROM pair WHERE a = 1 AND b = 'x'"));
  }

  @Test
  void aMissingRowOrANullKeepsItsMeaning() throws SQLException {
    assertEquals(0, st.executeUpdate("UPDATE kv SET n = n + 1 WHERE id = 99"));
    assertEquals("0", one("SELECT COUNT(*) FROM kv WHERE id = 99"), "no row created");
    assertEquals(1, st.executeUpdate("UPDATE kv SET n = n + 1 WHERE id = 2"));
    assertEquals(null, one("SELECT n FROM kv WHERE id = 2"), "NULL + 1 is NULL");
    assertEquals(0, st.executeUpdate("UPDATE pair SET n = n + 1 WHERE a = 1 AND b = 'y'"));
    assertEquals(0, st.executeUpdate("UPDATE kv SET n = n + 1 WHERE id = 1 AND v = 'z'"),
        "another condition: read first");
    assertEquals("10", one("SELECT n FROM kv WHERE id = 1"));
    try (PreparedStatement p = c.prepareStatement("UPDATE kv SET n = n + ? WHERE id = ?")) {
      p.setLong(1, 3);
      p.setLong(2, 1);
      assertEquals(1, p.executeUpdate());
      p.setLong(2, 98);
      assertEquals(0, p.executeUpdate());
    }
    assertEquals("13", one("SELECT n FROM kv WHERE id = 1"));
  }

  @Test
  void concurrentUpdatersLoseNothing() throws Exception {
    int threads = 4;
    int each = 250;
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<?>> done = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        String change = t % 2 == 0 ? "n + 2" : "n - 1"; // both atomic increments
        done.add(pool.submit(() -> {
          try (Connection own = BasaltConnections.open(db);
              Statement s = own.createStatement()) {
            for (int i = 0; i < each; i++) {
              assertEquals(1, s.executeUpdate("UPDATE kv SET n = " + change + " WHERE id = 1"));
            }
          }
          return null;
        }));
      }
      for (Future<?> f : done) {
        f.get();
      }
    } finally {
      pool.shutdown();
    }
    assertEquals(Long.toString(10 + threads / 2 * each * (2 - 1)),
        one("SELECT n FROM kv WHERE id = 1"));
  }

  @Test
  void aTransactionHoldsTheUpdateUntilCommit() throws SQLException {
    c.setAutoCommit(false);
    assertEquals(1, st.executeUpdate("UPDATE kv SET n = n + 5 WHERE id = 1"));
    assertEquals(0, st.executeUpdate("UPDATE kv SET n = n + 5 WHERE id = 77"));
    try (Connection other = BasaltConnections.open(db); Statement s = other.createStatement();
        ResultSet rs = s.executeQuery("SELECT n FROM kv WHERE id = 1")) {
      assertTrue(rs.next());
      assertEquals(10, rs.getLong(1), "not before commit");
    }
    c.commit();
    assertEquals("15", one("SELECT n FROM kv WHERE id = 1"));
    c.rollback();
  }

  @Test
  void overflowIsRefusedAndChangesNothing() throws SQLException {
    st.executeUpdate("UPSERT INTO kv VALUES (5, 9223372036854775806, 'm')");
    assertEquals(1, st.executeUpdate("UPDATE kv SET n = n + 1 WHERE id = 5"));
    SQLException e = org.junit.jupiter.api.Assertions.assertThrows(SQLException.class,
        () -> st.executeUpdate("UPDATE kv SET n = n + 1 WHERE id = 5"));
    assertEquals("22003", e.getSQLState(), e.getMessage());
    assertEquals(Long.toString(Long.MAX_VALUE), one("SELECT n FROM kv WHERE id = 5"));
    st.executeUpdate("UPSERT INTO kv VALUES (6, -9223372036854775807, 'm')");
    assertEquals(1, st.executeUpdate("UPDATE kv SET n = n - 1 WHERE id = 6"));
    assertEquals("22003", org.junit.jupiter.api.Assertions.assertThrows(SQLException.class,
        () -> st.executeUpdate("UPDATE kv SET n = n - 1 WHERE id = 6")).getSQLState());
    assertEquals(Long.toString(Long.MIN_VALUE), one("SELECT n FROM kv WHERE id = 6"));
  }
}
