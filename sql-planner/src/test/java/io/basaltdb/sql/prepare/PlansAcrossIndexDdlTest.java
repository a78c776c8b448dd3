package io.basaltdb.sql.prepare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basaltdb.sql.PlannerStats;
import io.basaltdb.sql.SqlTestSupport;
import io.basaltdb.sql.TemporaryDatabaseTest;
import java.sql.SQLException;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A CREATE or DROP INDEX on a table without foreign keys replans only the statements over that
 * table ({@code CatalogVersion#bump(Storage, TableName)}, {@code PlanCache}): other tables'
 * plans, reads and writes, are reused; that table's reads see the index come and go, and its
 * writes keep the new index whole. Any other DDL, or an index on a table a foreign key ties to
 * others, still replans everything.
 */
class PlansAcrossIndexDdlTest extends TemporaryDatabaseTest {
  @BeforeEach
  void tables() throws SQLException {
    for (String t : List.of("a", "b")) {
      st.executeUpdate("CREATE TABLE " + t + " (id INTEGER NOT NULL PRIMARY KEY, v VARCHAR(8),"
          + " n INTEGER)");
      for (int i = 0; i < 5; i++) {
        st.executeUpdate("UPSERT INTO " + t + " VALUES (" + i + ", 'v" + i + "', " + i + ")");
      }
    }
  }

  private List<String> rows(String sql) throws SQLException {
    return SqlTestSupport.rows(st.executeQuery(sql));
  }

  private long hits() {
    return PlannerStats.of(db).planCacheHits.get();
  }

  @Test
  void anIndexReplansItsTableOnly() throws SQLException {
    String readB = "SELECT id FROM b WHERE v = 'v3'";
    String writeB = "UPSERT INTO b VALUES (7, 'v7', 7)";
    String readA = "SELECT id FROM a WHERE v = 'v3'";
    String writeA = "INSERT INTO a VALUES (8, 'v8', 8)";
    assertEquals(List.of("3"), rows(readB));
    assertEquals(1, st.executeUpdate(writeB));
    assertEquals(List.of("3"), rows(readA));
    assertEquals(1, st.executeUpdate(writeA));
    st.executeUpdate("DELETE FROM a WHERE id = 8");

    st.executeUpdate("CREATE INDEX a_v ON a (v)");
    long hits = hits();
    assertEquals(List.of("3"), rows(readB));
    assertEquals(1, st.executeUpdate(writeB));
    assertEquals(hits + 2, hits(), "b's read and write reused across a's new index");

    hits = hits();
    assertTrue(String.join("\n", rows("EXPLAIN PLAN FOR " + readA)).contains("A_V"),
        "a's read replanned uses the index");
    assertEquals(List.of("3"), rows(readA));
    assertEquals(1, st.executeUpdate(writeA));
    assertEquals(hits, hits(), "a's read and write replanned");
    assertEquals(List.of("8"), rows("SELECT /*+ INDEX(a a_v) */ id FROM a WHERE v = 'v8'"),
        "the write replanned keeps the new index whole");
    assertEquals(List.of("6"), rows("SELECT COUNT(*) FROM a WHERE v >= 'v'"));

    st.executeUpdate("DROP INDEX a_v ON a");
    hits = hits();
    assertEquals(List.of("3"), rows(readA), "no read of the dropped index");
    assertEquals(List.of("3"), rows(readB));
    assertEquals(hits + 1, hits(), "b's read reused across a's index dropped; a's replanned");
  }

  @Test
  void otherDdlAndTablesTiedByForeignKeysReplanEverything() throws SQLException {
    String readB = "SELECT id FROM b WHERE n = 2";
    assertEquals(List.of("2"), rows(readB));
    st.executeUpdate("CREATE TABLE c (id INTEGER NOT NULL PRIMARY KEY, a_id INTEGER,"
        + " CONSTRAINT fk FOREIGN KEY (a_id) REFERENCES a (id))");
    long misses = PlannerStats.of(db).planCacheMisses.get();
    assertEquals(List.of("2"), rows(readB));
    assertEquals(misses + 1, PlannerStats.of(db).planCacheMisses.get(), "a new table: replanned");
    st.executeUpdate("CREATE INDEX a_n ON a (n)"); // a is referenced by c
    misses = PlannerStats.of(db).planCacheMisses.get();
    assertEquals(List.of("2"), rows(readB));
    assertEquals(misses + 1, PlannerStats.of(db).planCacheMisses.get(),
        "an index on a table a key ties: replanned");
    st.executeUpdate("CREATE INDEX b_n ON b (n)");
    misses = PlannerStats.of(db).planCacheMisses.get();
    assertEquals(List.of("2"), rows(readB));
    assertEquals(misses + 1, PlannerStats.of(db).planCacheMisses.get(), "b's own index");
    assertTrue(String.join("\n", rows("EXPLAIN PLAN FOR " + readB)).contains("B_N"));
  }
}
