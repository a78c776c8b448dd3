package io.basaltdb.hbase;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basaltdb.engine.Database;
import io.basaltdb.engine.EngineOptions;
import io.basaltdb.sql.catalog.SqlCatalog;
import io.basaltdb.sql.catalog.SqlIndexDef;
import io.basaltdb.sql.catalog.SqlTableDef;
import io.basaltdb.sql.index.ClientDeath;
import io.basaltdb.sql.index.ClientIndexScenarios;
import io.basaltdb.sql.index.ConcurrentIndexScenario;
import io.basaltdb.sql.index.IndexBuilder;
import io.basaltdb.sql.index.IndexDdlAcrossProcesses;
import io.basaltdb.sql.index.IndexRegistry;
import io.basaltdb.sql.index.IndexedRowWrite;
import io.basaltdb.sql.index.RowsAloneStorage;
import io.basaltdb.sql.index.UniqueIndexScenarios;
import io.basaltdb.sql.jdbc.BasaltConnections;
import io.basaltdb.storage.Result;
import io.basaltdb.storage.ResultScanner;
import io.basaltdb.storage.Scan;
import io.basaltdb.storage.TableName;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Secondary indexes over HBase, kept from the client (doc/indexes-over-hbase.md), on the
 * shared mini cluster: the scenarios the embedded engine runs as rows alone
 * ({@code ClientIndexesTest}), here on HBase's own timestamps, delete markers
 * (NEW_VERSION_BEHAVIOR), check-and-mutate and batches, through a storage whose table calls a
 * test can cut: the same answers and plans as embedded indexes (many-row statements written in
 * batches, failures stopping at their row; inside transactions, rolled back or committed, a
 * commit killed at every call or made over another writer's rows), a client killed at every call
 * of each write, a writer overtaken at every call by another writer of its row, concurrent
 * writers and readers, an index built while rows are written, another process's index DDL
 * during a long statement; UNIQUE indexes and constraints
 * (refusals as embedded, two writers of a value racing at every call, a claim killed at every
 * call, concurrent writers never holding a value twice).
 */
class HBaseIndexesTest implements ClientIndexScenarios.Fixture {
  private static final ClientDeath DEATH = new ClientDeath();
  private static RowsAloneStorage storage;

  @BeforeAll
  static void open() throws Exception {
    storage = new RowsAloneStorage(HBaseStorage.connect(SharedCluster.get().configuration(),
        "mini cluster"), DEATH);
  }

  @AfterAll
  static void disconnect() {
    storage.close();
  }

  @Override
  public Connection connect() throws SQLException {
    return BasaltConnections.open(storage);
  }

  @Override
  public ClientDeath death() {
    return DEATH;
  }

  @Override
  public String suffix() {
    return "_HB";
  }

  @Test
  void sameAnswersAndPlansAsEmbeddedIndexes() throws Exception {
    ClientIndexScenarios s = new ClientIndexScenarios(this);
    try (Connection c = connect(); Statement st = c.createStatement();
        Database db = Database.openTemporary(EngineOptions.defaults());
        Connection embedded = BasaltConnections.open(db);
        Statement e = embedded.createStatement()) {
      s.create(st);
      s.create(e);
      // a build by timestamps counts the statistics from the entries it writes: those read
      // from the index in order
      SqlCatalog catalog = new SqlCatalog(storage);
      SqlTableDef def = catalog.get(TableName.of("CIX_T_HB"));
      for (SqlIndexDef i : catalog.indexes(def.table())) {
        assertEquals(IndexBuilder.countStats(storage, IndexRegistry.of(storage).layout(def, i)),
            i.stats(), i.name());
        assertTrue(i.stats().rows() == 5, i.stats().toString());
      }
      s.sameAnswersAndPlans(embedded);
      s.sameAnswersForManyRowsAndFailures(embedded);
      s.sameAnswersInTransactions(embedded);
      s.commitOverAnotherWriter();
      int commitCuts = s.killCommitAtEveryCall();
      assertTrue(commitCuts > 10, commitCuts + " cut points of a commit");
      int cuts = s.killAtEveryCall();
      assertTrue(cuts > 40, cuts + " cut points");
      int runs = s.overtakeAtEveryCall();
      assertTrue(runs > 30, runs + " interleavings");
      s.drop(st);
    }
  }

  @Test
  void uniqueIndexes() throws Exception {
    long seed = Long.getLong("basalt.seed", System.nanoTime());
    System.out.println("HBaseIndexesTest: seed=" + seed + " (replay with -Dbasalt.seed=" + seed
        + ")");
    UniqueIndexScenarios u = new UniqueIndexScenarios(this);
    try (Connection c = connect(); Statement st = c.createStatement();
        Database db = Database.openTemporary(EngineOptions.defaults());
        Connection embedded = BasaltConnections.open(db);
        Statement e = embedded.createStatement()) {
      u.create(st);
      u.create(e);
      u.sameRefusalsAsEmbedded(embedded);
      u.sameRefusalsInTransactions(embedded);
      u.twoTransactionsOfOneValue();
      assertTrue(u.racesAtEveryCall() > 20);
      assertTrue(u.killAtEveryCall() > 5);
      u.concurrentWriters(seed, 4, 4000);
      u.drop(st);
    }
  }

  /**
   * Two processes (two storages on the cluster, each its own catalog cache and index lists): an
   * index one creates is maintained by the other's writes from its next statements on, and one
   * it drops is no longer written by the other, whose writes go on.
   */
  @Test
  void indexDdlOfAnotherProcessIsSeen() throws Exception {
    try (HBaseStorage second = HBaseStorage.connect(SharedCluster.get().configuration(),
        "second process");
        Connection a = connect();
        Connection b = BasaltConnections.open(second);
        Statement sa = a.createStatement();
        Statement sb = b.createStatement()) {
      sa.execute("CREATE TABLE cix_p (id INTEGER PRIMARY KEY, v VARCHAR(10))");
      sa.executeUpdate("INSERT INTO cix_p VALUES (1, 'a'), (2, 'b'), (3, 'a')");
      sb.executeUpdate("INSERT INTO cix_p VALUES (4, 'b')"); // b has read the list: none
      sa.execute("CREATE INDEX cix_p_v ON cix_p (v)");
      assertEquals(2, sb.executeUpdate("UPDATE cix_p SET v = 'c' WHERE v = 'b'"));
      sb.executeUpdate("INSERT INTO cix_p VALUES (5, 'a')");
      sb.executeUpdate("DELETE FROM cix_p WHERE id = 1");
      ClientIndexScenarios.assertClean(a, "CIX_P", "CIX_P_V", false);
      String q = " id, v FROM cix_p WHERE v IN ('a', 'b', 'c')";
      for (Statement st : new Statement[] {sa, sb}) {
        assertEquals(ClientIndexScenarios.sorted(ClientIndexScenarios.rows(st,
            "SELECT /*+ NO_INDEX */" + q)), ClientIndexScenarios.sorted(ClientIndexScenarios.rows(
            st, "SELECT /*+ INDEX(cix_p cix_p_v) */" + q)));
      }
      sb.execute("DROP INDEX cix_p_v ON cix_p");
      assertEquals(1, sa.executeUpdate("UPDATE cix_p SET v = 'd' WHERE id = 2"),
          "a write after the other process dropped the index");
      sa.execute("DROP TABLE cix_p");
    }
  }

  /**
   * Another process creates or drops an index while a statement of this one writes the table
   * ({@link IndexDdlAcrossProcesses}): the rows the statement held for the old index list, and
   * the later ones, are written for the new one.
   */
  @Test
  void indexDdlOfAnotherProcessDuringALongStatement() throws Exception {
    try (HBaseStorage second = HBaseStorage.connect(SharedCluster.get().configuration(),
        "second process")) {
      new IndexDdlAcrossProcesses(new IndexDdlAcrossProcesses.Processes() {
        @Override
        public Connection writer() throws SQLException {
          return connect();
        }

        @Override
        public Connection ddl() throws SQLException {
          return BasaltConnections.open(second);
        }

        @Override
        public ClientDeath death() {
          return DEATH;
        }

        @Override
        public String suffix() {
          return "_LONG";
        }
      }).runAll();
    }
  }

  @Test
  void concurrentWritersAndAnOnlineBuild() throws Exception {
    long seed = Long.getLong("basalt.seed", System.nanoTime());
    System.out.println("HBaseIndexesTest: seed=" + seed + " (replay with -Dbasalt.seed=" + seed
        + ")");
    ConcurrentIndexScenario scenario = new ConcurrentIndexScenario(this);
    scenario.writersAndReaders(seed, 4, 4000);
    scenario.buildWhileWriting(seed, 1000);
  }

  /**
   * A non-unique index's build writes its entries verified at their rows' timestamps, with no
   * check of the row: a build's put landing after a writer changed or deleted its row (the
   * writer read the row after the build's scan) stays hidden behind the writer's newer status
   * and delete, as its index table's delete markers hide later puts. Fails with entries put at
   * the build's own time, or with an index table of NEW_VERSION_BEHAVIOR.
   */
  @Test
  void buildEntriesLandingAfterTheirRowsWritersStayHidden() throws Exception {
    try (Connection c = connect(); Statement st = c.createStatement()) {
      st.execute("CREATE TABLE cix_late (id INTEGER PRIMARY KEY, v VARCHAR(4), w BIGINT)");
      st.executeUpdate("UPSERT INTO cix_late VALUES (1, 'a', 10), (2, 'a', 20), (3, 'a', 30),"
          + " (4, 'a', 40)");
      st.execute("CREATE INDEX late_v ON cix_late (v) INCLUDE (w)");
      SqlCatalog catalog = new SqlCatalog(storage);
      SqlTableDef def = catalog.get(TableName.of("CIX_LATE"));
      SqlIndexDef index = catalog.indexes(def.table()).get(0);
      IndexedRowWrite build = new IndexedRowWrite(storage, def, List.of(index), -1);
      assertTrue(build.buildsByTimestamps());
      List<Result> scanned = new ArrayList<>();
      try (ResultScanner rs = storage.table(def.table()).getScanner(new Scan())) {
        rs.forEach(scanned::add);
      }
      st.executeUpdate("UPDATE cix_late SET v = 'b' WHERE id = 1");
      st.executeUpdate("DELETE FROM cix_late WHERE id = 2");
      st.executeUpdate("UPDATE cix_late SET w = 31 WHERE id = 3");
      assertEquals(4, build.writeVerifiedEntries(scanned, null)); // the scan's entries land last
      ClientIndexScenarios.assertClean(c, "CIX_LATE", "LATE_V", false);
      for (String v : new String[] {"a", "b"}) {
        String q = "SELECT id, w FROM cix_late WHERE v = '" + v + "' ORDER BY id";
        assertEquals(ClientIndexScenarios.rows(st, q.replace("SELECT",
            "SELECT /*+ NO_INDEX */")), ClientIndexScenarios.rows(st, q.replace("SELECT",
            "SELECT /*+ INDEX(cix_late late_v) */")), q);
      }
      assertEquals(List.of(List.of(3, 31L), List.of(4, 40L)), ClientIndexScenarios.rows(st,
          "SELECT /*+ INDEX(cix_late late_v) */ id, w FROM cix_late WHERE v = 'a' ORDER BY id"));
      st.execute("DROP TABLE cix_late");
    }
  }
}
