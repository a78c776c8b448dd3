package io.basaltdb.sql.index;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basaltdb.engine.Database;
import io.basaltdb.engine.EngineOptions;
import io.basaltdb.sql.jdbc.BasaltConnections;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Indexes kept by the client-side protocol on the embedded engine seen as HBase is (one row
 * atomic, no snapshot: {@link RowsAloneStorage}): the scenarios of {@link ClientIndexScenarios}
 * and {@link ConcurrentIndexScenario}, fast enough to cut every call of every write.
 * {@code HBaseIndexesTest} runs the same on an HBase mini cluster.
 */
class ClientIndexesTest implements ClientIndexScenarios.Fixture {
  private final ClientDeath death = new ClientDeath();
  private RowsAloneStorage storage;

  @BeforeEach
  void open() {
    storage = new RowsAloneStorage(Database.openTemporary(EngineOptions.defaults()), death);
  }

  @AfterEach
  void close() {
    storage.close();
  }

  @Override
  public Connection connect() throws SQLException {
    return BasaltConnections.open(storage);
  }

  @Override
  public ClientDeath death() {
    return death;
  }

  @Override
  public String suffix() {
    return "";
  }

  private ClientIndexScenarios scenarios() throws SQLException {
    ClientIndexScenarios s = new ClientIndexScenarios(this);
    try (Connection c = connect(); Statement st = c.createStatement()) {
      s.create(st);
    }
    return s;
  }

  /** A step given a connection, or a statement, of the embedded reference. */
  private interface Step<T> {
    void run(T t) throws Exception;
  }

  /**
   * {@code compare} against a fresh embedded database (atomic indexes) that {@code create} made
   * the same tables in.
   */
  private static void againstEmbedded(Step<Statement> create, Step<Connection> compare)
      throws Exception {
    try (Database db = Database.openTemporary(EngineOptions.defaults());
        Connection embedded = BasaltConnections.open(db);
        Statement st = embedded.createStatement()) {
      create.run(st);
      compare.run(embedded);
    }
  }

  @Test
  void sameAnswersAndPlansAsEmbeddedIndexes() throws Exception {
    ClientIndexScenarios s = scenarios();
    againstEmbedded(s::create, s::sameAnswersAndPlans);
  }

  @Test
  void manyRowsAndFailuresAnswerAsEmbeddedIndexes() throws Exception {
    ClientIndexScenarios s = scenarios();
    againstEmbedded(s::create, s::sameAnswersForManyRowsAndFailures);
  }

  @Test
  void aClientKilledAtAnyCallLeavesNoWrongAnswer() throws Exception {
    int cuts = scenarios().killAtEveryCall();
    assertTrue(cuts > 40, cuts + " cut points");
  }

  @Test
  void aWriterOvertakenAtAnyCallLeavesTheIndexRight() throws Exception {
    int runs = scenarios().overtakeAtEveryCall();
    assertTrue(runs > 30, runs + " interleavings");
  }

  @Test
  void concurrentWritersNeverShowAWrongOrMissedRow() throws Exception {
    new ConcurrentIndexScenario(this).writersAndReaders(seed(), 4, 3000);
  }

  @Test
  void anIndexBuiltWhileRowsAreWrittenIsComplete() throws Exception {
    new ConcurrentIndexScenario(this).buildWhileWriting(seed(), 3000);
  }

  private UniqueIndexScenarios unique() throws SQLException {
    UniqueIndexScenarios u = new UniqueIndexScenarios(this);
    try (Connection c = connect(); Statement st = c.createStatement()) {
      u.create(st);
    }
    return u;
  }

  @Test
  void uniqueIndexesRefuseAsEmbeddedOnes() throws Exception {
    UniqueIndexScenarios u = unique();
    againstEmbedded(u::create, u::sameRefusalsAsEmbedded);
  }

  @Test
  void transactionsWriteAndReadIndexedTablesAsEmbedded() throws Exception {
    ClientIndexScenarios s = scenarios();
    againstEmbedded(s::create, s::sameAnswersInTransactions);
    s.commitOverAnotherWriter();
    int cuts = s.killCommitAtEveryCall();
    assertTrue(cuts > 10, cuts + " cut points");
  }

  @Test
  void uniqueIndexesInTransactionsRefuseAsEmbeddedOnes() throws Exception {
    UniqueIndexScenarios u = unique();
    againstEmbedded(u::create, u::sameRefusalsInTransactions);
    u.twoTransactionsOfOneValue();
  }

  @Test
  void twoWritersOfOneUniqueValueAtEveryCall() throws Exception {
    int runs = unique().racesAtEveryCall();
    assertTrue(runs > 20, runs + " interleavings");
  }

  @Test
  void aClientKilledClaimingAUniqueValueNeverBlocksIt() throws Exception {
    int cuts = unique().killAtEveryCall();
    assertTrue(cuts > 5, cuts + " cut points");
  }

  @Test
  void concurrentWritersNeverHoldAUniqueValueTwice() throws Exception {
    unique().concurrentWriters(seed(), 4, 3000);
  }

  static long seed() {
    long seed = Long.getLong("basalt.seed", System.nanoTime());
    System.out.println("ClientIndexesTest: seed=" + seed + " (replay with -Dbasalt.seed=" + seed
        + ")");
    return seed;
  }
}
