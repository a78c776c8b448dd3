package io.basaltdb.torture;

import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * The child of a torture round: writes through JDBC as fast as it can until it is killed, and
 * keeps the oracle, a log of every write it starts ({@code P}), every one acknowledged to it
 * ({@code A}), every one that failed ({@code F}) and every check that found the database
 * disagreeing with what it had acknowledged ({@code X}), each with its effects as absolute values
 * ({@code table:key=value} or {@code table:key=DEL}: the writer owns its keys and knows their
 * values). A line goes to the log in one write call before the next step, so a SIGKILL leaves
 * it whole or absent. Each thread owns the keys {@code k % threads == thread}, so a key has at
 * most one write in flight.
 *
 * <pre>java ... TortureWriter DB-DIR ORACLE SEED THREADS</pre>
 */
public final class TortureWriter {
  private final OutputStream oracle;
  private final Map<String, Map<Long, Long>> state;
  private long nextOp;

  private TortureWriter(OutputStream oracle, Map<String, Map<Long, Long>> state) {
    this.oracle = oracle;
    this.state = state;
  }

  public static void main(String[] args) throws Exception {
    String url = "jdbc:basalt:" + args[0];
    Path oracleFile = Path.of(args[1]);
    long seed = Long.parseLong(args[2]);
    int threads = Integer.parseInt(args[3]);
    Map<String, Map<Long, Long>> state;
    try (Connection c = DriverManager.getConnection(url)) {
      TortureTables.create(c);
      state = TortureTables.read(c);
    }
    TortureWriter w = new TortureWriter(new FileOutputStream(oracleFile.toFile(), true), state);
    List<Thread> workers = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      int thread = t;
      Random r = new Random(seed * 31 + t);
      Connection c = DriverManager.getConnection(url);
      workers.add(new Thread(() -> w.work(c, r, thread, threads), "torture-" + t));
    }
    Connection ddl = DriverManager.getConnection(url);
    Random churn = new Random(seed * 31 + threads);
    Thread indexes = new Thread(() -> TortureTables.churnIndex(ddl, churn), "torture-index");
    indexes.setDaemon(true);
    System.out.println("READY");
    System.out.flush();
    workers.forEach(Thread::start);
    indexes.start();
    for (Thread t : workers) {
      t.join();
    }
  }

  private void work(Connection c, Random r, int thread, int threads) {
    int[] weights = new int[Op.values().length];
    for (int i = 0; i < weights.length; i++) {
      weights[i] = 1 + r.nextInt(4);
    }
    while (true) {
      long key = TortureTables.key(r, thread, threads);
      Op op = pick(r, weights);
      try {
        op.run(this, c, r, key, thread, threads);
      } catch (SQLException | RuntimeException e) {
        try {
          if (!c.getAutoCommit()) {
            c.rollback();
            c.setAutoCommit(true);
          }
        } catch (SQLException ignored) {
          // the next write finds out
        }
      }
    }
  }

  private static Op pick(Random r, int[] weights) {
    int total = 0;
    for (int w : weights) {
      total += w;
    }
    int x = r.nextInt(total);
    for (int i = 0; i < weights.length; i++) {
      x -= weights[i];
      if (x < 0) {
        return Op.values()[i];
      }
    }
    return Op.UPSERT;
  }

  /** One effect of a write: {@code value} null for a delete. */
  record Effect(String table, long key, Long value) {
    String text() {
      return table + ":" + key + "=" + (value == null ? "DEL" : value.toString());
    }
  }

  /** A planted bug for the runner's own test: one write acknowledged in the log, never made. */
  private static final java.util.concurrent.atomic.AtomicBoolean PLANT_LOST_WRITE =
      new java.util.concurrent.atomic.AtomicBoolean(Boolean.getBoolean("basalt.torture.plant"));

  /** Logs the write, runs it, logs its outcome, and on success applies it to the state. */
  private void write(List<Effect> effects, Write w) throws SQLException {
    write(effects, w, "P");
  }

  /**
   * As {@link #write(List, Write)}; {@code kind} "T" marks a transaction, whose effects the
   * runner checks all or none.
   */
  private void write(List<Effect> effects, Write w, String kind) throws SQLException {
    if (PLANT_LOST_WRITE.getAndSet(false)) {
      // at a key no write makes (keys are >= 0), so no later write covers it; whatever the
      // write (a transfer has no effects of its own)
      log("P " + nextOp + " " + new Effect("KV", -1, 7_777_777L).text());
      log("A " + nextOp++);
      return;
    }
    long id;
    StringBuilder line = new StringBuilder();
    synchronized (this) {
      id = nextOp++;
    }
    line.append(kind).append(' ').append(id);
    for (Effect e : effects) {
      line.append(' ').append(e.text());
    }
    log(line.toString());
    try {
      w.run();
    } catch (IllegalStateException e) {
      log("X " + id + " " + e.getMessage()); // the database disagrees with what it acknowledged
      throw e;
    } catch (SQLException | RuntimeException e) {
      log("F " + id);
      throw e;
    }
    log("A " + id);
    synchronized (state) {
      for (Effect e : effects) {
        Map<Long, Long> rows = state.get(e.table());
        if (e.value() == null) {
          rows.remove(e.key());
        } else {
          rows.put(e.key(), e.value());
        }
      }
    }
  }

  private Long current(String table, long key) {
    synchronized (state) {
      return state.get(table).get(key);
    }
  }

  private void log(String line) {
    byte[] b = (line + "\n").getBytes(StandardCharsets.US_ASCII);
    synchronized (oracle) {
      try {
        oracle.write(b);
      } catch (IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
    }
  }

  @FunctionalInterface
  private interface Write {
    void run() throws SQLException;
  }

  /** The kinds of write a round mixes, each weighted at random per thread. */
  private enum Op {
    /** A literal UPSERT (shared plans). */
    UPSERT {
      @Override
      void run(TortureWriter w, Connection c, Random r, long k, int t, int n) throws SQLException {
        long v = r.nextInt(1_000_000);
        w.write(List.of(new Effect("KV", k, v)), () -> {
          try (Statement st = c.createStatement()) {
            st.executeUpdate("UPSERT INTO kv VALUES (" + k + ", " + v + ", 'v" + v + "')");
          }
        });
      }
    },
    /** A prepared UPSERT into the salted table. */
    SALTED {
      @Override
      void run(TortureWriter w, Connection c, Random r, long k, int t, int n) throws SQLException {
        long v = r.nextInt(1_000_000);
        w.write(List.of(new Effect("SALTED", k, v)), () -> {
          try (PreparedStatement ps = c.prepareStatement("UPSERT INTO salted VALUES (?, ?, ?)")) {
            ps.setLong(1, k);
            ps.setLong(2, v);
            ps.setString(3, "v" + v);
            ps.executeUpdate();
          }
        });
      }
    },
    /** A DELETE by key. */
    DELETE {
      @Override
      void run(TortureWriter w, Connection c, Random r, long k, int t, int n) throws SQLException {
        String table = r.nextBoolean() ? "KV" : "SALTED";
        w.write(List.of(new Effect(table, k, null)), () -> {
          try (Statement st = c.createStatement()) {
            st.executeUpdate("DELETE FROM " + table + " WHERE k = " + k);
          }
        });
      }
    },
    /** A batch of prepared UPSERTs (each row atomic, the batch not). */
    BATCH {
      @Override
      void run(TortureWriter w, Connection c, Random r, long k, int t, int n) throws SQLException {
        List<Effect> effects = randomRows(r, t, n, 20, "SALTED");
        w.write(effects, () -> {
          try (PreparedStatement ps = c.prepareStatement("UPSERT INTO salted VALUES (?, ?, ?)")) {
            for (Effect e : effects) {
              ps.setLong(1, e.key());
              ps.setLong(2, e.value());
              ps.setString(3, "v" + e.value());
              ps.addBatch();
            }
            ps.executeBatch();
          }
        });
      }
    },
    /**
     * A multi-row literal UPSERT ... VALUES into one table: one statement, all or none (one
     * atomic write while {@code kv} has no index, a statement transaction while it has one).
     */
    MULTI {
      @Override
      void run(TortureWriter w, Connection c, Random r, long k, int t, int n) throws SQLException {
        String table = r.nextBoolean() ? "KV" : "SALTED";
        List<Effect> effects = randomRows(r, t, n, 20, table);
        w.write(effects, () -> {
          StringBuilder sql = new StringBuilder("UPSERT INTO " + table + " VALUES ");
          for (int i = 0; i < effects.size(); i++) {
            Effect e = effects.get(i);
            sql.append(i == 0 ? "" : ", ").append('(').append(e.key()).append(", ")
                .append(e.value()).append(", 'v").append(e.value()).append("')");
          }
          try (Statement st = c.createStatement()) {
            st.executeUpdate(sql.toString());
          }
        }, "T");
      }
    },
    /** A counter: UPDATE c = c + n (the engine's increment), or the row's first UPSERT. */
    COUNTER {
      @Override
      void run(TortureWriter w, Connection c, Random r, long k, int t, int n) throws SQLException {
        long by = 1 + r.nextInt(100);
        Long now = w.current("CNT", k);
        long next = (now == null ? 0 : now) + by;
        w.write(List.of(new Effect("CNT", k, next)), () -> {
          try (Statement st = c.createStatement()) {
            st.executeUpdate(now == null ? "UPSERT INTO cnt VALUES (" + k + ", " + by + ")"
                : "UPDATE cnt SET c = c + " + by + " WHERE k = " + k);
          }
        });
      }
    },
    /** A conditional UPDATE (check-and-set on the value the writer knows). */
    CHECK_AND_SET {
      @Override
      void run(TortureWriter w, Connection c, Random r, long k, int t, int n) throws SQLException {
        Long now = w.current("KV", k);
        if (now == null) {
          UPSERT.run(w, c, r, k, t, n);
          return;
        }
        long v = r.nextInt(1_000_000);
        w.write(List.of(new Effect("KV", k, v)), () -> {
          try (Statement st = c.createStatement()) {
            int updated = st.executeUpdate("UPDATE kv SET v = " + v + ", s = 'v" + v
                + "' WHERE k = " + k + " AND v = " + now);
            if (updated != 1) {
              throw new IllegalStateException("check-and-set of kv " + k + " found no row with"
                  + " v = " + now + " (updated " + updated + ")");
            }
          }
        });
      }
    },
    /**
     * A bank transfer in a transaction: two balances read, both written, committed; the
     * accounts are shared by every thread, so a commit may lose to another's (40001: the write
     * fails, nothing applied). The runner checks the bank's total after each kill.
     */
    TRANSFER {
      @Override
      void run(TortureWriter w, Connection c, Random r, long k, int t, int n) throws SQLException {
        int from = r.nextInt(TortureTables.ACCOUNTS);
        int to = (from + 1 + r.nextInt(TortureTables.ACCOUNTS - 1)) % TortureTables.ACCOUNTS;
        long amount = 1 + r.nextInt(50);
        w.write(List.of(), () -> {
          c.setAutoCommit(false);
          try (Statement st = c.createStatement()) {
            long a = balance(st, from);
            long b = balance(st, to);
            st.executeUpdate("UPDATE bank SET bal = " + (a - amount) + " WHERE k = " + from);
            st.executeUpdate("UPDATE bank SET bal = " + (b + amount) + " WHERE k = " + to);
            c.commit();
          } catch (SQLException e) {
            c.rollback();
            throw e;
          } finally {
            c.setAutoCommit(true);
          }
        });
      }

      private long balance(Statement st, int account) throws SQLException {
        try (java.sql.ResultSet rs = st.executeQuery("SELECT bal FROM bank WHERE k = "
            + account)) {
          if (!rs.next()) {
            throw new IllegalStateException("bank account " + account + " is missing");
          }
          return rs.getLong(1);
        }
      }
    },
    /** Several writes in one transaction (auto-commit off), committed together: all or none. */
    TRANSACTION {
      @Override
      void run(TortureWriter w, Connection c, Random r, long k, int t, int n) throws SQLException {
        List<Effect> effects = randomRows(r, t, n, 5, "KV", "FAM");
        w.write(effects, () -> {
          c.setAutoCommit(false);
          try (Statement st = c.createStatement()) {
            for (Effect e : effects) {
              st.executeUpdate("UPSERT INTO " + e.table() + " VALUES (" + e.key() + ", "
                  + e.value() + ", 'v" + e.value() + "')");
            }
            c.commit();
          } finally {
            c.setAutoCommit(true);
          }
        }, "T");
      }
    };

    abstract void run(TortureWriter w, Connection c, Random r, long key, int thread, int threads)
        throws SQLException;

    /**
     * 2 to {@code 1 + max} writes of distinct rows of thread {@code t}'s keys, each in
     * {@code tables[0]} or (a coin's throw) {@code tables[1]}, with random values.
     */
    static List<Effect> randomRows(Random r, int t, int n, int max, String... tables) {
      List<Effect> effects = new ArrayList<>();
      int size = 2 + r.nextInt(max);
      for (int i = 0; i < size; i++) {
        long key = TortureTables.key(r, t, n);
        String table = tables.length == 1 || r.nextBoolean() ? tables[0] : tables[1];
        if (effects.stream().noneMatch(e -> e.key() == key && e.table().equals(table))) {
          effects.add(new Effect(table, key, (long) r.nextInt(1_000_000)));
        }
      }
      return effects;
    }
  }
}
