package io.basaltdb.sql.rel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basaltdb.sql.SqlTestSupport;
import io.basaltdb.sql.TemporaryDatabaseTest;
import io.basaltdb.sql.rel.metadata.MetadataHandlers;
import java.sql.SQLException;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A statement planned with the reflective metadata handlers (a fresh JVM's first ones) gets the
 * same plan, costs and row counts as with the compiled ones, which a statement's planning
 * starts compiling in the background and later statements use.
 */
class MetadataHandlersTest extends TemporaryDatabaseTest {
  @Test
  void reflectiveAndCompiledHandlersPlanAlike() throws Exception {
    st.executeUpdate("CREATE TABLE a (id INTEGER PRIMARY KEY, g INTEGER, v VARCHAR(10))");
    st.executeUpdate("CREATE TABLE b (id INTEGER PRIMARY KEY, w VARCHAR(10))");
    for (int i = 0; i < 50; i++) {
      st.executeUpdate("UPSERT INTO a VALUES (" + i + ", " + (i % 5) + ", 'v" + i + "')");
      st.executeUpdate("UPSERT INTO b VALUES (" + i + ", 'w" + i + "')");
    }
    // text differs each time, so each EXPLAIN is planned afresh
    String[] plans = new String[2];
    for (int run = 0; run < 2; run++) {
      MetadataHandlers.forceReflective = run == 0;
      try {
        if (run == 1) {
          assertTrue(MetadataHandlers.awaitCompiled(120_000), "the compiled handlers are ready");
          assertTrue(MetadataHandlers.compiled());
        }
        plans[run] = String.join("\n", explain("SELECT a.g, COUNT(*), MAX(b.w) FROM a JOIN b"
            + " ON b.id = a.id WHERE a.v > 'v" + run + "' GROUP BY a.g ORDER BY 2 DESC"))
            .replace("'v" + run + "'", "'v'").replaceAll(", id = \\d+", "");
      } finally {
        MetadataHandlers.forceReflective = false;
      }
    }
    assertEquals(plans[0], plans[1]);
    assertTrue(plans[0].contains("rowcount"), plans[0]);
  }

  private List<String> explain(String sql) throws SQLException {
    return SqlTestSupport.rows(c, "EXPLAIN PLAN INCLUDING ALL ATTRIBUTES FOR " + sql);
  }
}
