package io.basaltdb.sql.exec.context;

import io.basaltdb.storage.Storage;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Runs a statement's independent tasks (per-region partial aggregates, per-call storage
 * aggregates) on a pool and waits for all of them. The first failure cancels the others and
 * is thrown as it was (a runtime exception unwrapped); an interrupt cancels them all. The pool
 * is the storage's ({@link #pool}): its threads are made when first needed and stopped when
 * the storage closes.
 */
public final class ParallelTasks {
  private ParallelTasks() {}

  /** A storage's worker threads, one per core (at least two), kept by it and closed with it. */
  private static final class Workers implements AutoCloseable {
    final ExecutorService pool = Executors.newFixedThreadPool(
        Math.max(2, Runtime.getRuntime().availableProcessors()), r -> {
          Thread t = new Thread(r, "basalt-region-aggregate");
          t.setDaemon(true);
          return t;
        });

    @Override
    public void close() {
      pool.shutdownNow();
    }
  }

  /** The worker pool of {@code db}. */
  public static ExecutorService pool(Storage db) {
    return db.extension(Workers.class, Workers::new).pool;
  }

  /** The tasks' results, in their order. */
  public static <T> List<T> all(ExecutorService pool, List<Callable<T>> tasks) {
    List<Future<T>> running = new ArrayList<>(tasks.size());
    try {
      for (Callable<T> t : tasks) {
        running.add(pool.submit(t));
      }
    } catch (java.util.concurrent.RejectedExecutionException e) {
      running.forEach(f -> f.cancel(true));
      throw new io.basaltdb.storage.ClosedException("storage (its workers stopped)");
    }
    List<T> out = new ArrayList<>(tasks.size());
    try {
      for (Future<T> f : running) {
        out.add(f.get());
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      running.forEach(f -> f.cancel(true));
      throw new IllegalStateException("interrupted while aggregating", e);
    } catch (ExecutionException e) {
      running.forEach(f -> f.cancel(true));
      throw e.getCause() instanceof RuntimeException re ? re
          : new IllegalStateException(e.getCause());
    }
    return out;
  }
}
