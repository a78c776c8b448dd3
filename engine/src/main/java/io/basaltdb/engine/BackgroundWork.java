package io.basaltdb.engine;

import io.basaltdb.storage.ClosedException;
import io.basaltdb.storage.StorageIOException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;

/**
 * A database's background threads and what they owe: flushes, compactions and splits run here
 * (and the log's periodic sync is scheduled here). Keeps the first failure that must stop
 * writers, and how many tasks are queued or running: a task submitted by a running task (a
 * compaction a flush asks for) is counted before the running one ends, so the count reaches
 * zero only when nothing is left to do.
 */
final class BackgroundWork {
  private final ScheduledThreadPoolExecutor executor;
  private final AtomicReference<Throwable> failure = new AtomicReference<>();
  private final AtomicInteger pending = new AtomicInteger();
  private final Object idle = new Object();

  BackgroundWork(int threads) {
    AtomicInteger threadNo = new AtomicInteger();
    this.executor = new ScheduledThreadPoolExecutor(threads, r -> {
      Thread t = new Thread(r, "basalt-bg-" + threadNo.incrementAndGet());
      t.setDaemon(true);
      return t;
    });
  }

  /** The pool, for periodic tasks (they are not counted as pending work). */
  ScheduledThreadPoolExecutor executor() {
    return executor;
  }

  /** The kept failure of a background task, or null. */
  /** Flushes, compactions and splits queued or running now. */
  int pending() {
    return pending.get();
  }

  Throwable failure() {
    return failure.get();
  }

  /**
   * Runs {@code task} on the pool unless {@code closed}. A failure is reported; unless
   * {@code retriable} (a compaction that left its store's files as they were: the next flush
   * asks again), it is also kept, so writers waiting for room fail instead of waiting forever.
   */
  void run(String what, boolean retriable, BooleanSupplier closed, Runnable task) {
    if (closed.getAsBoolean()) {
      return;
    }
    pending.incrementAndGet();
    try {
      executor.execute(() -> {
        try {
          if (!closed.getAsBoolean()) {
            task.run();
          }
        } catch (ClosedException e) {
          // the region was closed (disable, drop, shutdown) while the task waited
        } catch (Throwable t) {
          if (closed.getAsBoolean()) {
            return;
          }
          boolean keep = !(retriable && t instanceof StorageIOException);
          if (!keep || failure.compareAndSet(null, t)) {
            System.err.println("basalt: background " + what + " failed: " + t);
          }
        } finally {
          done();
        }
      });
    } catch (RejectedExecutionException e) {
      done(); // closing
    }
  }

  private void done() {
    if (pending.decrementAndGet() == 0) {
      synchronized (idle) {
        idle.notifyAll();
      }
    }
  }

  /**
   * Waits until no flush, compaction or split is queued or running, at most
   * {@code timeoutMillis}; true if none is.
   */
  boolean awaitIdle(long timeoutMillis) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
    synchronized (idle) {
      while (pending.get() > 0) {
        long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
        if (left <= 0) {
          return false;
        }
        idle.wait(Math.min(left, 100));
      }
    }
    return true;
  }

  /** Stops taking work and waits for what runs (a shutdown). */
  void shutdownAndWait() {
    executor.shutdown();
    try {
      executor.awaitTermination(10, TimeUnit.MINUTES);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  void shutdownNow() {
    executor.shutdownNow();
  }
}
