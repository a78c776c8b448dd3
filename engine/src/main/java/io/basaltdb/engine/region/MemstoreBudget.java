package io.basaltdb.engine.region;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The global limit on memstore memory. Writers add what they insert and flushes release what
 * they wrote out; a writer that finds the total over the limit asks for a flush and waits
 * (back-pressure), counted in {@link #blockedWrites()} and {@link #blockedNanos()} so that
 * stalls are visible. Thread-safe.
 */
public final class MemstoreBudget {
  private final long limit;
  private final AtomicLong used = new AtomicLong();
  private final AtomicLong blockedWrites = new AtomicLong();
  private final AtomicLong blockedNanos = new AtomicLong();

  public MemstoreBudget(long limit) {
    this.limit = limit;
  }

  public void add(long bytes) {
    used.addAndGet(bytes);
  }

  public void release(long bytes) {
    used.addAndGet(-bytes);
    synchronized (this) {
      notifyAll();
    }
  }

  public long used() {
    return used.get();
  }

  public long limit() {
    return limit;
  }

  public long blockedWrites() {
    return blockedWrites.get();
  }

  public long blockedNanos() {
    return blockedNanos.get();
  }

  /** Waits while the total is over the limit, running {@code askForFlush} while it waits. */
  public void awaitRoom(Runnable askForFlush) {
    if (used.get() < limit) {
      return;
    }
    long start = System.nanoTime();
    blockedWrites.incrementAndGet();
    try {
      while (used.get() >= limit) {
        askForFlush.run();
        synchronized (this) {
          if (used.get() >= limit) {
            try {
              wait(10);
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
              return;
            }
          }
        }
      }
    } finally {
      blockedNanos.addAndGet(System.nanoTime() - start);
    }
  }
}
