package io.basaltdb.sql.tx;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basaltdb.engine.Database;
import io.basaltdb.engine.EngineOptions;
import io.basaltdb.storage.TableName;
import io.basaltdb.sql.jdbc.BasaltConnections;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * The bank: threads move money between accounts in transactions (read two balances, write
 * both, commit; run again on 40001) while auditors sum every balance in transactions of their
 * own, and flushes, compactions and splits run under them. Every audit sees the same total
 * (snapshot isolation: no transfer seen half), and at the end the total and the number of
 * committed transfers agree with what the threads were told.
 */
class BankTransferTest {
  private static final int ACCOUNTS = 40;
  private static final long START = 1_000;

  @Test
  void transfersKeepTheTotalForEveryAuditor() throws Exception {
    String s = System.getProperty("basalt.seed");
    long seed = s != null && !s.isEmpty() ? Long.parseLong(s) : System.nanoTime();
    System.out.println("BankTransferTest: seed=" + seed + " (replay with -Dbasalt.seed=" + seed
        + ")");
    EngineOptions o = EngineOptions.defaults().withFlushSizeBytes(64 * 1024)
        .withRegionSplitBytes(64 * 1024);
    try (Database db = Database.openTemporary(o)) {
      try (Connection c = BasaltConnections.open(db); Statement st = c.createStatement()) {
        st.execute("CREATE TABLE acct (id INT PRIMARY KEY, bal BIGINT NOT NULL, moves INT)"
            + " SPLIT ON (10, 20, 30)");
        for (int i = 0; i < ACCOUNTS; i++) {
          st.executeUpdate("INSERT INTO acct VALUES (" + i + ", " + START + ", 0)");
        }
      }
      AtomicBoolean stop = new AtomicBoolean();
      AtomicReference<Throwable> failure = new AtomicReference<>();
      AtomicLong committed = new AtomicLong();
      AtomicLong conflicts = new AtomicLong();
      AtomicLong audits = new AtomicLong();
      List<Thread> threads = new ArrayList<>();
      for (int t = 0; t < 4; t++) {
        Random r = new Random(seed + t);
        threads.add(new Thread(() -> transfer(db, r, 150, committed, conflicts), "transfer-" + t));
      }
      for (int t = 0; t < 2; t++) {
        threads.add(new Thread(() -> audit(db, stop, audits), "audit-" + t));
      }
      Thread maintenance = new Thread(() -> {
        while (!stop.get()) {
          db.admin().flush(TableName.of("ACCT"));
          db.admin().majorCompact(TableName.of("ACCT"));
          db.admin().split(TableName.of("ACCT"));
        }
      }, "maintenance");
      threads.add(maintenance);
      for (Thread th : threads) {
        th.setUncaughtExceptionHandler((x, e) -> failure.compareAndSet(null, e));
        th.start();
      }
      for (Thread th : threads.subList(0, 4)) {
        th.join();
      }
      stop.set(true);
      for (Thread th : threads) {
        th.join();
      }
      assertNull(failure.get(), () -> "seed " + seed + ": " + failure.get());
      try (Connection c = BasaltConnections.open(db); Statement st = c.createStatement();
          ResultSet rs = st.executeQuery("SELECT SUM(bal), SUM(moves) FROM acct")) {
        rs.next();
        assertEquals(ACCOUNTS * START, rs.getLong(1), "seed " + seed);
        assertEquals(2 * committed.get(), rs.getLong(2),
            "seed " + seed + ": every committed transfer counted once on each side");
      }
      System.out.println("BankTransferTest: " + committed.get() + " transfers, "
          + conflicts.get() + " conflicts run again, " + audits.get() + " audits, "
          + db.admin().regions(TableName.of("ACCT")).size() + " regions");
      assertTrue(audits.get() > 0);
    }
  }

  private static void transfer(Database db, Random r, int transfers, AtomicLong committed,
      AtomicLong conflicts) {
    try (Connection c = BasaltConnections.open(db);
        PreparedStatement read = c.prepareStatement("SELECT bal FROM acct WHERE id = ?");
        PreparedStatement write = c.prepareStatement(
            "UPDATE acct SET bal = ?, moves = moves + 1 WHERE id = ?")) {
      c.setAutoCommit(false);
      for (int n = 0; n < transfers; n++) {
        int from = r.nextInt(ACCOUNTS);
        int to = (from + 1 + r.nextInt(ACCOUNTS - 1)) % ACCOUNTS;
        long amount = 1 + r.nextInt(50);
        while (true) {
          try {
            long a = balance(read, from);
            long b = balance(read, to);
            write.setLong(1, a - amount);
            write.setInt(2, from);
            assertEquals(1, write.executeUpdate());
            write.setLong(1, b + amount);
            write.setInt(2, to);
            assertEquals(1, write.executeUpdate());
            c.commit();
            committed.incrementAndGet();
            break;
          } catch (SQLException e) {
            if (!"40001".equals(e.getSQLState())) {
              throw new AssertionError("transfer failed: " + e.getSQLState() + " " + e, e);
            }
            conflicts.incrementAndGet(); // the commit applied nothing: run it again
          }
        }
      }
    } catch (SQLException e) {
      throw new AssertionError(e);
    }
  }

  private static long balance(PreparedStatement read, int id) throws SQLException {
    read.setInt(1, id);
    try (ResultSet rs = read.executeQuery()) {
      assertTrue(rs.next(), "account " + id);
      return rs.getLong(1);
    }
  }

  private static void audit(Database db, AtomicBoolean stop, AtomicLong audits) {
    try (Connection c = BasaltConnections.open(db);
        PreparedStatement sum = c.prepareStatement("SELECT SUM(bal) FROM acct");
        PreparedStatement each = c.prepareStatement("SELECT bal FROM acct WHERE id = ?")) {
      c.setAutoCommit(false);
      while (!stop.get()) {
        long total;
        try (ResultSet rs = sum.executeQuery()) {
          rs.next();
          total = rs.getLong(1);
        }
        assertEquals(ACCOUNTS * START, total, "an audit's SUM");
        long byRows = 0;
        for (int i = 0; i < ACCOUNTS; i++) { // row by row, later, in the same transaction
          byRows += balance(each, i);
        }
        assertEquals(ACCOUNTS * START, byRows, "an audit's point reads, one snapshot");
        c.commit();
        audits.incrementAndGet();
      }
    } catch (SQLException e) {
      throw new AssertionError(e);
    }
  }
}
