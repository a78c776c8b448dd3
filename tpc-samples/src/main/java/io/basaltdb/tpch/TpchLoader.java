package io.basaltdb.tpch;

import io.trino.tpch.TpchColumn;
import io.trino.tpch.TpchEntity;
import io.trino.tpch.TpchTable;
import java.io.PrintStream;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDate;
import java.util.Collections;
import java.util.List;
import java.util.Locale;

/**
 * Generates TPC-H data with the {@code io.trino.tpch} generator and loads it through JDBC into
 * any database (Basalt or H2) with a prepared single-row INSERT (or UPSERT) executed in batches of
 * {@link #BATCH} rows, reporting progress on a terminal line (rows, rows/s, ETA). A large table
 * is generated and loaded in parts by several threads, each with its own connection (the
 * generator makes any part of a table on its own). Values: identifiers BIGINT, money
 * DECIMAL(15,2) rounded half-up from the generator's doubles, dates as SQL DATEs.
 */
public final class TpchLoader {
  static final int BATCH = 1000;
  /** Tables smaller than this are loaded by one thread. */
  private static final long PARALLEL_ROWS = 50_000;

  /** Opens a connection to the database being loaded. */
  @FunctionalInterface
  public interface Connections {
    Connection open() throws SQLException;
  }

  private final Connections connections;
  private final boolean upsert;
  private final double sf;
  private final int threads;
  private final PrintStream progress;

  /**
   * @param upsert load with UPSERT (Basalt, as Phoenix loads: no read before each write)
   *     rather than INSERT
   * @param threads loading threads (and connections) per large table
   * @param progress where the progress line goes (null: none)
   */
  public TpchLoader(Connections connections, boolean upsert, double sf, int threads,
      PrintStream progress) {
    this.connections = connections;
    this.upsert = upsert;
    this.sf = sf;
    this.threads = Math.max(1, threads);
    this.progress = progress;
  }

  /**
   * Builds the generator's shared text pool (about 2 s, once per process), so that load
   * timings measure loading, not the generator's start.
   */
  public static void warmUpGenerator() {
    TpchTable.CUSTOMER.createGenerator(0.01, 1, 1).iterator().next();
  }

  /** Creates the eight tables ({@code basalt}: Basalt's DDL, else H2's). */
  public void createTables(boolean basalt) throws SQLException {
    try (Connection connection = connections.open();
        Statement st = connection.createStatement()) {
      for (TpchTable<?> t : TpchTable.getTables()) {
        st.execute(TpchSchema.createTable(t, basalt));
      }
    }
  }

  /** Loads every table; the rows loaded per table, in the generator's table order. */
  public java.util.Map<String, Long> loadAll(String label) throws SQLException {
    java.util.Map<String, Long> counts = new java.util.LinkedHashMap<>();
    for (TpchTable<?> t : TpchTable.getTables()) {
      counts.put(t.getTableName(), load(t, label));
    }
    return counts;
  }

  /** Loads one table, in parts on several threads when it is large; the rows loaded. */
  public <E extends TpchEntity> long load(TpchTable<E> table, String label) throws SQLException {
    long expected = TpchSchema.expectedRows(table.getTableName(), sf);
    int parts = expected < PARALLEL_ROWS ? 1 : threads;
    Progress bar = new Progress(label + " " + table.getTableName(), expected);
    java.util.concurrent.atomic.AtomicLong rows = new java.util.concurrent.atomic.AtomicLong();
    if (parts == 1) {
      loadPart(table, 1, 1, rows, bar);
    } else {
      java.util.concurrent.ExecutorService pool =
          java.util.concurrent.Executors.newFixedThreadPool(parts);
      try {
        List<java.util.concurrent.Future<Void>> done = new java.util.ArrayList<>();
        for (int part = 1; part <= parts; part++) {
          int p = part;
          done.add(pool.submit(() -> {
            loadPart(table, p, parts, rows, bar);
            return null;
          }));
        }
        for (java.util.concurrent.Future<Void> f : done) {
          f.get();
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new SQLException("interrupted while loading " + table.getTableName(), e);
      } catch (java.util.concurrent.ExecutionException e) {
        throw e.getCause() instanceof SQLException s ? s
            : new SQLException("loading " + table.getTableName() + " failed", e.getCause());
      } finally {
        pool.shutdownNow();
      }
    }
    bar.done(rows.get());
    return rows.get();
  }

  private <E extends TpchEntity> void loadPart(TpchTable<E> table, int part, int parts,
      java.util.concurrent.atomic.AtomicLong rows, Progress bar) throws SQLException {
    List<TpchColumn<E>> cols = table.getColumns();
    String insert = (upsert ? "UPSERT" : "INSERT") + " INTO " + table.getTableName() + " VALUES ("
        + String.join(", ", Collections.nCopies(cols.size(), "?")) + ")";
    try (Connection connection = connections.open();
        PreparedStatement p = connection.prepareStatement(insert)) {
      int pending = 0;
      for (E e : table.createGenerator(sf, part, parts)) {
        for (int i = 0; i < cols.size(); i++) {
          p.setObject(i + 1, value(cols.get(i), e));
        }
        p.addBatch();
        if (++pending == BATCH) {
          p.executeBatch();
          bar.update(rows.addAndGet(pending));
          pending = 0;
        }
      }
      p.executeBatch();
      rows.addAndGet(pending);
    }
  }

  /** A generator value as the JDBC value both databases take. */
  static <E extends TpchEntity> Object value(TpchColumn<E> c, E e) {
    return switch (c.getType().getBase()) {
      case IDENTIFIER -> c.getIdentifier(e);
      case INTEGER -> c.getInteger(e);
      case DATE -> java.sql.Date.valueOf(LocalDate.ofEpochDay(c.getDate(e)));
      case DOUBLE -> BigDecimal.valueOf(c.getDouble(e)).setScale(2, RoundingMode.HALF_UP);
      case VARCHAR -> c.getString(e);
    };
  }

  /** The terminal progress line: rows, rows/s, ETA, redrawn at most 4 times a second. */
  private final class Progress {
    private final String label;
    private final long expected;
    private final long start = System.nanoTime();
    private long lastDraw;

    Progress(String label, long expected) {
      this.label = label;
      this.expected = Math.max(1, expected);
    }

    synchronized void update(long rows) {
      long now = System.nanoTime();
      if (progress != null && now - lastDraw > 250_000_000L) {
        lastDraw = now;
        draw(rows, now, false);
      }
    }

    synchronized void done(long rows) {
      if (progress != null) {
        draw(rows, System.nanoTime(), true);
      }
    }

    private void draw(long rows, long now, boolean done) {
      double secs = Math.max(1e-9, (now - start) / 1e9);
      double rate = rows / secs;
      int width = 24;
      int filled = (int) Math.min(width, width * rows / expected);
      String eta = done ? String.format(Locale.ROOT, "%.1fs", secs)
          : String.format(Locale.ROOT, "ETA %.0fs", Math.max(0, (expected - rows) / rate));
      progress.printf(Locale.ROOT, "\r%-22s [%s%s] %,12d rows %,10.0f rows/s %s%s", label,
          "#".repeat(filled), ".".repeat(width - filled), rows, rate, eta, done ? "\n" : "");
      progress.flush();
    }
  }
}
