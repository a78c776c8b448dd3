package io.basaltdb.sql.jdbc;

import io.basaltdb.sql.SqlStates;
import io.basaltdb.storage.Storage;
import java.sql.SQLException;
import java.sql.SQLTimeoutException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A statement's query timeout ({@code Statement.setQueryTimeout}): each execution clears the
 * statement's cancel flag and, with a timeout, arms a timer that sets it when the time is up.
 * Basalt's scans read the flag as they go and the result set at each row (57014); an error of
 * a timed-out execution is reported as a {@link SQLTimeoutException}. One timer thread per
 * open storage (a daemon, made when a timeout is first armed, stopped when the storage
 * closes), whatever the number of statements.
 */
final class QueryTimer {
  /** A storage's timer thread, kept by it and closed with it. */
  private static final class Timer implements AutoCloseable {
    final ScheduledExecutorService executor = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "basalt-query-timeouts");
      t.setDaemon(true);
      return t;
    });

    @Override
    public void close() {
      executor.shutdownNow();
    }
  }

  private final AtomicBoolean cancelFlag;
  private final Storage storage;
  private ScheduledFuture<?> armed; // guarded by this
  private volatile boolean fired;
  private volatile int seconds;

  QueryTimer(AtomicBoolean cancelFlag, Storage storage) {
    this.cancelFlag = cancelFlag;
    this.storage = storage;
  }

  /** An execution starts: a cancel() of the previous one no longer applies. */
  synchronized void start(int timeoutSeconds) {
    disarm();
    fired = false;
    seconds = timeoutSeconds;
    cancelFlag.set(false);
    if (timeoutSeconds > 0) {
      try {
        armed = storage.extension(Timer.class, Timer::new).executor.schedule(() -> {
          fired = true;
          cancelFlag.set(true);
        }, timeoutSeconds, TimeUnit.SECONDS);
      } catch (java.util.concurrent.RejectedExecutionException e) {
        // the storage closed (its timer with it): the execution meets that itself
      }
    }
  }

  /** The statement closed: the timer no longer fires. */
  synchronized void disarm() {
    if (armed != null) {
      armed.cancel(false);
      armed = null;
    }
  }

  /**
   * Runs an execution under {@code timeoutSeconds} (0: none): its errors carry Basalt's
   * SQLStates ({@link Translated}), a timed-out one's is a timeout.
   */
  <T> T run(int timeoutSeconds, Translated.Call<T> call) throws SQLException {
    start(timeoutSeconds);
    try {
      return Translated.call(call);
    } catch (SQLException e) {
      throw translate(e);
    }
  }

  /** {@code e} as the timeout it is, if this execution's time ran out and it was cancelled. */
  SQLException translate(SQLException e) {
    if (fired && SqlStates.QUERY_CANCELED.equals(e.getSQLState())) {
      return new SQLTimeoutException("statement timed out after " + seconds + " s",
          SqlStates.QUERY_CANCELED, e);
    }
    return e;
  }
}
