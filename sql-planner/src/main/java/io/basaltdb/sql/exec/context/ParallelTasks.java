package io.basaltdb.sql.exec.context;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;

/**
 * Runs a statement's independent tasks (per-region partial aggregates, per-call storage
 * aggregates) on a pool and waits for all of them. The first failure cancels the others and
 * is thrown as it was (a runtime exception unwrapped); an interrupt cancels them all.
 */
public final class ParallelTasks {
  private ParallelTasks() {}

  /** The tasks' results, in their order. */
  public static <T> List<T> all(ExecutorService pool, List<Callable<T>> tasks) {
    List<Future<T>> running = new ArrayList<>(tasks.size());
    for (Callable<T> t : tasks) {
      running.add(pool.submit(t));
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
