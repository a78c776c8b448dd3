package io.basaltdb.sql.prepare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basaltdb.sql.TemporaryDatabaseTest;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.LongUnaryOperator;
import org.apache.calcite.runtime.Hook;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Plans compiled through {@link GeneratedCode}: a plan's code is compiled once (the same code
 * over another table of the same columns too, its table travelling beside the code), Calcite's
 * hook still sees the code, and compilations running at once on several connections, each
 * with a pooled class model, answer right.
 */
class GeneratedCodeTest extends TemporaryDatabaseTest {
  @BeforeEach
  void tables() throws SQLException {
    createSampleTable(st);
    st.executeUpdate("CREATE TABLE t2 (id INTEGER NOT NULL PRIMARY KEY, v VARCHAR(5), "
        + "n BIGINT, d DECIMAL(6, 2))");
    fillSampleTable(st);
    st.executeUpdate("UPSERT INTO t2 SELECT * FROM t");
  }

  @Test
  void codeIsCompiledOnceAndSeenByCalcitesHook() throws SQLException {
    List<String> code = new ArrayList<>();
    try (Connection a = connectionWithoutPlanCache(); Statement s = a.createStatement();
        Hook.Closeable hook = Hook.JAVA_PLAN.addThread((String c) -> code.add(c))) {
      String sql = "SELECT id, n * 3 + id - 7 * n FROM %s WHERE id < 6 ORDER BY id";
      long before = compiled();
      assertEquals(List.of(0L, -39L, -78L, -117L, -156L, -195L),
          column(s, String.format(sql, "t"), 2));
      assertEquals(before + 1, compiled());
      assertEquals(1, code.size());
      assertTrue(code.get(0).contains("bind"), code.get(0));
      // planned again (no plan cache): the same code, found compiled
      assertEquals(List.of(0L, -39L, -78L, -117L, -156L, -195L),
          column(s, String.format(sql, "t"), 2));
      assertEquals(List.of(0L, -39L, -78L, -117L, -156L, -195L),
          column(s, String.format(sql, "t2"), 2));
      assertEquals(before + 1, compiled());
      assertEquals(3, code.size());
      assertEquals(code.get(0), code.get(2));
    }
  }

  @Test
  void concurrentCompilationsAnswerRight() throws Exception {
    // four shapes of growing length, one per thread: each expression's code is new
    List<String> ops = List.of(" + id", " - id", " * 2", " + n");
    List<LongUnaryOperator> step = List.of(v -> v, v -> -v, v -> v, v -> v);
    ExecutorService pool = Executors.newFixedThreadPool(ops.size());
    try {
      List<Future<Void>> done = new ArrayList<>();
      for (int t = 0; t < ops.size(); t++) {
        int op = t;
        done.add(pool.submit(() -> {
          try (Connection own = connectionWithoutPlanCache();
              Statement s = own.createStatement()) {
            for (int k = 1; k <= 15; k++) {
              String expr = "n" + ops.get(op).repeat(k);
              List<Long> expected = new ArrayList<>();
              for (long i = 0; i < 20; i++) {
                long n = i * 10;
                long v = switch (op) {
                  case 0, 1 -> n + k * step.get(op).applyAsLong(i);
                  case 2 -> n << k;
                  default -> n * (k + 1);
                };
                expected.add(v);
              }
              assertEquals(expected, column(s, "SELECT id, " + expr + " FROM t ORDER BY id", 2),
                  expr);
            }
          }
          return null;
        }));
      }
      for (Future<Void> f : done) {
        f.get();
      }
    } finally {
      pool.shutdownNow();
    }
  }

  private long compiled() {
    return io.basaltdb.sql.PlannerStats.of(db).compiledPlans.get();
  }

  private static List<Long> column(Statement s, String sql, int column) throws SQLException {
    List<Long> out = new ArrayList<>();
    try (ResultSet rs = s.executeQuery(sql)) {
      while (rs.next()) {
        out.add(rs.getLong(column));
      }
    }
    return out;
  }
}
