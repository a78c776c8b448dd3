package io.basaltdb.sql.exec.read;

import io.basaltdb.sql.pushdown.KeyRange;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.calcite.linq4j.Enumerator;

/**
 * The rows of a scan that needs no order, read by several producer threads at once, each
 * taking whole regions in turn, handed to the consumer in batches through a bounded queue.
 * Producers are threads of their own (never a shared pool that a nested scan could starve)
 * and stop when the consumer closes; a producer's error reaches the consumer. Memory is
 * bounded by the queue: {@link #QUEUED_BATCHES} batches of {@link #BATCH} rows.
 */
final class ParallelRows implements Enumerator<Object[]> {
  static final int BATCH = 256;
  static final int QUEUED_BATCHES = 16;
  private static final Object DONE = new Object();

  private final BlockingQueue<Object> queue = new ArrayBlockingQueue<>(QUEUED_BATCHES);
  private final AtomicBoolean closed = new AtomicBoolean();
  private final List<Thread> producers = new ArrayList<>();
  private int running;
  private Iterator<Object[]> batch;
  private Object[] current;

  /** Starts {@code threads} producers over {@code perRegion} (region ranges, in key order). */
  ParallelRows(ScanExecutor scan, List<List<KeyRange>> perRegion, int threads) {
    Iterator<List<KeyRange>> work = perRegion.iterator();
    running = Math.min(threads, perRegion.size());
    for (int i = 0; i < running; i++) {
      Thread t = new Thread(() -> produce(scan, work), "basalt-region-scan");
      t.setDaemon(true);
      producers.add(t);
    }
    producers.forEach(Thread::start);
  }

  private void produce(ScanExecutor scan, Iterator<List<KeyRange>> work) {
    try {
      while (!closed.get()) {
        List<KeyRange> region;
        synchronized (work) {
          if (!work.hasNext()) {
            break;
          }
          region = work.next();
        }
        try (Enumerator<Object[]> rows = scan.rows(region)) {
          List<Object[]> out = new ArrayList<>(BATCH);
          while (!closed.get() && rows.moveNext()) {
            out.add(rows.current());
            if (out.size() == BATCH) {
              hand(out);
              out = new ArrayList<>(BATCH);
            }
          }
          if (!out.isEmpty()) {
            hand(out);
          }
        }
      }
      hand(DONE);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (RuntimeException | Error e) {
      try {
        hand(e);
      } catch (InterruptedException ie) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /** Puts into the queue, giving up once the consumer has closed. */
  private void hand(Object o) throws InterruptedException {
    while (!closed.get()) {
      if (queue.offer(o, 50, TimeUnit.MILLISECONDS)) {
        return;
      }
    }
  }

  @Override
  public Object[] current() {
    return current;
  }

  @Override
  @SuppressWarnings("unchecked")
  public boolean moveNext() {
    while (true) {
      if (batch != null && batch.hasNext()) {
        current = batch.next();
        return true;
      }
      if (running == 0) {
        return false;
      }
      Object o;
      try {
        o = queue.take();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        close();
        throw new IllegalStateException("interrupted while scanning", e);
      }
      if (o == DONE) {
        running--;
      } else if (o instanceof RuntimeException e) {
        close();
        throw e;
      } else if (o instanceof Error e) {
        close();
        throw e;
      } else {
        batch = ((List<Object[]>) o).iterator();
      }
    }
  }

  @Override
  public void reset() {
    throw new UnsupportedOperationException("reset");
  }

  @Override
  public void close() {
    if (closed.compareAndSet(false, true)) {
      queue.clear();
      producers.forEach(Thread::interrupt);
    }
  }
}
