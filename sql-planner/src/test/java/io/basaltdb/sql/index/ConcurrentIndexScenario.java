package io.basaltdb.sql.index;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * Indexes kept by the client-side protocol under concurrent writers and readers, over a
 * {@link ClientIndexScenarios.Fixture}: rows moving between indexed values while queries read
 * through the index, and an index built while rows are written.
 */
public final class ConcurrentIndexScenario {
  private final ClientIndexScenarios.Fixture fixture;

  public ConcurrentIndexScenario(ClientIndexScenarios.Fixture fixture) {
    this.fixture = fixture;
  }

  /** One UPDATE of a row in the concurrent test: what it wrote, when it ran (end 0: running). */
  private static final class Write {
    final long w;
    final String v;
    final long start;
    volatile long end;

    Write(long w, String v, long start) {
      this.w = w;
      this.v = v;
      this.start = start;
    }
  }

  /**
   * Four writers move rows between indexed values (each writer alone on two rows, all of them on
   * eight shared rows, whose writes then race on the row's version), two readers query through
   * the index (covering, and fetching a column it does not hold) meanwhile. Every row returned
   * was written with those values; a row one writer owns is never returned with values its next
   * write replaced before the query began, and never missed when nothing wrote it during the
   * query and its values match. Then verify-index is clean.
   */
  public void writersAndReaders(long seed, int writers, int millis) throws Exception {
    int owned = 2;
    String table = "CIX_C" + fixture.suffix();
    int rowCount = writers * owned + 8;
    String[] values = {"a", "b", "c"};
    java.util.Map<Long, String> written = new java.util.concurrent.ConcurrentHashMap<>();
    List<List<Write>> history = new ArrayList<>();
    try (Connection setup = fixture.connect();
        Statement st = setup.createStatement()) {
      st.execute("CREATE TABLE " + table
          + " (id INTEGER PRIMARY KEY, v VARCHAR(4), w BIGINT, x VARCHAR(24))");
      for (int id = 0; id < rowCount; id++) {
        String v = values[id % values.length];
        st.executeUpdate("INSERT INTO " + table + " VALUES (" + id + ", '" + v + "', " + (-id - 1) + ", 'x"
            + (-id - 1) + "')");
        written.put((long) -id - 1, id + "|" + v);
        List<Write> h = java.util.Collections.synchronizedList(new ArrayList<>());
        Write first = new Write(-id - 1, v, 0);
        first.end = 1;
        h.add(first);
        history.add(h);
      }
      st.execute("CREATE INDEX c_v ON " + table + " (v) INCLUDE (w)");
      java.util.concurrent.atomic.AtomicLong counter = new java.util.concurrent.atomic.AtomicLong();
      java.util.concurrent.atomic.AtomicBoolean stop = new java.util.concurrent.atomic.AtomicBoolean();
      List<String> failures = java.util.Collections.synchronizedList(new ArrayList<>());
      java.util.concurrent.atomic.AtomicLong answers = new java.util.concurrent.atomic.AtomicLong();
      List<Thread> threads = new ArrayList<>();
      for (int t = 0; t < writers; t++) {
        int me = t;
        java.util.Random random = new java.util.Random(seed + t);
        threads.add(new Thread(() -> {
          try (Connection c = fixture.connect();
              java.sql.PreparedStatement p = c.prepareStatement(
                  "UPDATE " + table + " SET v = ?, w = ?, x = ? WHERE id = ?")) {
            while (!stop.get()) {
              int id = random.nextBoolean() ? me * owned + random.nextInt(owned)
                  : writers * owned + random.nextInt(rowCount - writers * owned);
              String v = values[random.nextInt(values.length)];
              long w = counter.incrementAndGet();
              written.put(w, id + "|" + v);
              Write write = new Write(w, v, System.nanoTime());
              history.get(id).add(write);
              p.setString(1, v);
              p.setLong(2, w);
              p.setString(3, "x" + w);
              p.setInt(4, id);
              assertEquals(1, p.executeUpdate());
              write.end = System.nanoTime();
            }
          } catch (Throwable e) {
            failures.add("writer " + me + ": " + e);
          }
        }));
      }
      for (int t = 0; t < 2; t++) {
        java.util.Random random = new java.util.Random(seed - t - 1);
        boolean fetching = t == 1;
        threads.add(new Thread(() -> {
          try (Connection c = fixture.connect()) {
            while (!stop.get()) {
              String v = values[random.nextInt(values.length)];
              String q = fetching
                  ? "SELECT /*+ INDEX(c c_v) */ id, v, w, x FROM " + table + " c WHERE v = '"
                      + v + "'"
                  : "SELECT id, v, w FROM " + table + " WHERE v = '" + v + "'";
              long q0 = System.nanoTime();
              List<List<Object>> got;
              try (Statement s = c.createStatement()) {
                got = ClientIndexScenarios.rows(s, q);
              }
              long q1 = System.nanoTime();
              answers.incrementAndGet();
              check(got, v, fetching, q0, q1, written, history, writers * owned, failures);
            }
          } catch (Throwable e) {
            failures.add("reader: " + e);
          }
        }));
      }
      threads.forEach(Thread::start);
      Thread.sleep(millis);
      stop.set(true);
      for (Thread t : threads) {
        t.join();
      }
      assertTrue(failures.isEmpty(), "seed " + seed + ": " + failures.subList(0,
          Math.min(5, failures.size())));
      assertTrue(counter.get() > 100 && answers.get() > 100,
          counter.get() + " writes, " + answers.get() + " answers");
      for (String v : values) {
        String q = "SELECT id, v, w FROM " + table + " WHERE v = '" + v + "'";
        assertEquals(sorted(st, q.replace("SELECT", "SELECT /*+ NO_INDEX */")), sorted(st, q));
      }
      ClientIndexScenarios.assertClean(setup, table, "C_V", true);
      System.out.println("ConcurrentIndexScenario: " + counter.get() + " writes, "
          + answers.get() + " answers through the index checked");
      st.execute("DROP TABLE " + table);
    }
  }

  private static void check(List<List<Object>> got, String v, boolean fetching, long q0, long q1,
      java.util.Map<Long, String> written, List<List<Write>> history, int ownedRows,
      List<String> failures) {
    java.util.Set<Integer> found = new java.util.HashSet<>();
    for (List<Object> r : got) {
      int id = ((Number) r.get(0)).intValue();
      long w = ((Number) r.get(2)).longValue();
      found.add(id);
      if (!v.equals(r.get(1)) || !(id + "|" + v).equals(written.get(w))) {
        failures.add("row " + r + " for v = " + v + " was never written so");
      }
      if (fetching && !("x" + w).equals(r.get(3))) {
        failures.add("row " + r + ": x from another write than w");
      }
      if (id < ownedRows) {
        List<Write> h;
        synchronized (history.get(id)) {
          h = new ArrayList<>(history.get(id));
        }
        for (int i = 0; i < h.size(); i++) {
          if (h.get(i).w == w && i + 1 < h.size() && h.get(i + 1).end != 0
              && h.get(i + 1).end < q0) {
            failures.add("row " + r + " for v = " + v + ": replaced by w=" + h.get(i + 1).w
                + " before the query began");
          }
        }
      }
    }
    for (int id = 0; id < ownedRows; id++) {
      List<Write> h;
      synchronized (history.get(id)) {
        h = new ArrayList<>(history.get(id));
      }
      Write last = null;
      boolean quiet = true;
      for (Write x : h) {
        if (x.end != 0 && x.end < q0) {
          last = x;
        } else if (x.start < q1) {
          quiet = false; // written during the query
        }
      }
      if (quiet && last != null && last.v.equals(v) && !found.contains(id)) {
        failures.add("row " + id + " (v = " + v + " since w=" + last.w + ") missed");
      }
    }
  }

  /**
   * An index made while two writers move rows between its values, delete and write them again:
   * when CREATE INDEX returns (the writers stopped right then), every row has its entry and
   * every entry its row (verify-index, without repairing), and queries through it answer as the
   * table does.
   */
  public void buildWhileWriting(long seed, int rowCount) throws Exception {
    String table = "CIX_B" + fixture.suffix();
    String[] values = {"a", "b", "c", null};
    try (Connection setup = fixture.connect(); Statement st = setup.createStatement()) {
      st.execute("CREATE TABLE " + table + " (id INTEGER PRIMARY KEY, v VARCHAR(4), w BIGINT)");
      StringBuilder insert = new StringBuilder();
      for (int id = 0; id < rowCount; id++) {
        insert.append(insert.length() == 0 ? "INSERT INTO " + table + " VALUES " : ", ")
            .append("(").append(id).append(", 'a', ").append(id).append(")");
        if (id % 500 == 499 || id == rowCount - 1) {
          st.executeUpdate(insert.toString());
          insert.setLength(0);
        }
      }
      java.util.concurrent.atomic.AtomicBoolean stop =
          new java.util.concurrent.atomic.AtomicBoolean();
      java.util.concurrent.atomic.AtomicLong writes = new java.util.concurrent.atomic.AtomicLong();
      List<String> failures = java.util.Collections.synchronizedList(new ArrayList<>());
      List<Thread> threads = new ArrayList<>();
      for (int t = 0; t < 2; t++) {
        java.util.Random random = new java.util.Random(seed + t);
        threads.add(new Thread(() -> {
          try (Connection c = fixture.connect();
              java.sql.PreparedStatement update = c.prepareStatement(
                  "UPDATE " + table + " SET v = ?, w = w + 1 WHERE id = ?");
              java.sql.PreparedStatement delete = c.prepareStatement(
                  "DELETE FROM " + table + " WHERE id = ?");
              java.sql.PreparedStatement upsert = c.prepareStatement(
                  "UPSERT INTO " + table + " VALUES (?, ?, ?)")) {
            while (!stop.get()) {
              int id = random.nextInt(rowCount);
              String v = values[random.nextInt(values.length)];
              switch (random.nextInt(4)) {
                case 0 -> {
                  delete.setInt(1, id);
                  delete.executeUpdate();
                }
                case 1 -> {
                  upsert.setInt(1, id);
                  upsert.setString(2, v);
                  upsert.setLong(3, -id);
                  upsert.executeUpdate();
                }
                default -> {
                  update.setString(1, v);
                  update.setInt(2, id);
                  update.executeUpdate();
                }
              }
              writes.incrementAndGet();
            }
          } catch (Throwable e) {
            failures.add(e.toString());
          }
        }));
      }
      threads.forEach(Thread::start);
      while (writes.get() < 20 && failures.isEmpty()) {
        Thread.sleep(5);
      }
      long before = writes.get();
      st.execute("CREATE INDEX b_v ON " + table + " (v) INCLUDE (w)");
      long during = writes.get() - before;
      stop.set(true);
      for (Thread t : threads) {
        t.join();
      }
      assertTrue(failures.isEmpty(), "seed " + seed + ": " + failures);
      assertTrue(during > 0, "no write ran during the build");
      ClientIndexScenarios.assertClean(setup, table, "B_V", false);
      for (String v : values) {
        String q = "SELECT id, v, w FROM " + table + " WHERE v " + (v == null ? "IS NULL"
            : "= '" + v + "'");
        assertEquals(sorted(st, q.replace("SELECT", "SELECT /*+ NO_INDEX */")), sorted(st, q));
      }
      System.out.println("ConcurrentIndexScenario: " + during + " writes during the build of "
          + rowCount + " rows");
      st.execute("DROP TABLE " + table);
    }
  }

  private static List<String> sorted(Statement st, String q) throws java.sql.SQLException {
    return ClientIndexScenarios.sorted(ClientIndexScenarios.rows(st, q));
  }
}
