package io.basaltdb.jdbc.csv;

import io.basaltdb.jdbc.csv.CsvLoad.Line;
import io.basaltdb.jdbc.csv.CsvLoad.StopAt;
import io.basaltdb.jdbc.csv.CsvLoad.Target;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.commons.csv.CSVParser;
import org.apache.commons.csv.CSVRecord;

/**
 * A load over several connections: the calling thread parses the file into batches of
 * {@link CsvLoad#BATCH} records and hands them, through a short queue, to one {@link
 * CsvSender} thread per connection. The first stop (a refusal past the allowed rejects, or
 * any other failure) ends the parsing and drops the batches not yet taken; the senders finish
 * the batch they are writing. The load then stops at the earliest refused line met.
 */
final class CsvParallel {
  private static final List<Line> END = List.of();

  private final CsvLoad load;
  private final Target target;
  private final List<Connection> connections;
  private final BlockingQueue<List<Line>> queue;
  private final AtomicReference<StopAt> stop = new AtomicReference<>();
  private final AtomicReference<Exception> failure = new AtomicReference<>();

  CsvParallel(CsvLoad load, Target target, List<Connection> others) {
    this.load = load;
    this.target = target;
    this.connections = others;
    this.queue = new ArrayBlockingQueue<>(2 * others.size());
  }

  void run(CSVParser parser, Iterator<CSVRecord> records) throws SQLException {
    List<Thread> senders = new ArrayList<>();
    for (Connection c : connections) {
      Thread t = new Thread(() -> send(c), "csv-load-sender");
      t.start();
      senders.add(t);
    }
    try {
      long line = CsvLoad.nextLine(parser);
      List<Line> batch = new ArrayList<>(CsvLoad.BATCH);
      while (records.hasNext() && !stopping()) {
        batch.add(new Line(line, records.next().toList()));
        line = CsvLoad.nextLine(parser);
        if (batch.size() == CsvLoad.BATCH) {
          put(batch);
          batch = new ArrayList<>(CsvLoad.BATCH);
        }
      }
      if (!batch.isEmpty()) {
        put(batch);
      }
    } catch (RuntimeException e) { // a malformed file (Commons CSV's UncheckedIOException)
      failure.compareAndSet(null, e);
    } finally {
      if (stopping()) {
        queue.clear(); // not yet taken: never written
      }
      for (int i = 0; i < senders.size(); i++) {
        put(END);
      }
      for (Thread t : senders) {
        join(t);
      }
    }
    StopAt s = stop.get();
    if (s != null) {
      throw load.stopped(s.refusal, 0, true);
    }
    Exception f = failure.get();
    if (f instanceof SQLException e) {
      throw e;
    }
    if (f != null) {
      throw new SQLException("the load failed: " + f.getMessage(), f);
    }
  }

  private boolean stopping() {
    return stop.get() != null || failure.get() != null;
  }

  /**
   * One sender's thread: writes the batches it takes until the end; after a stop or a failure
   * it goes on taking (and dropping) them, so the parser is never left waiting on a full queue.
   */
  private void send(Connection c) {
    CsvSender sender = null;
    try {
      sender = new CsvSender(load, c, target);
    } catch (SQLException e) {
      failure.compareAndSet(null, e);
    }
    while (true) {
      List<Line> batch;
      try {
        batch = queue.take();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        failure.compareAndSet(null, e);
        break;
      }
      if (batch == END) {
        break;
      }
      if (sender == null || stopping()) {
        continue;
      }
      try {
        for (Line l : batch) {
          sender.add(l);
        }
        sender.flush();
      } catch (StopAt s) {
        stop.accumulateAndGet(s, (a, b) -> a == null
            || b.refusal.line().number() < a.refusal.line().number() ? b : a);
      } catch (Exception e) {
        failure.compareAndSet(null, e);
      }
    }
    if (sender != null) {
      try {
        sender.close();
      } catch (SQLException e) {
        failure.compareAndSet(null, e);
      }
    }
  }

  private void put(List<Line> batch) {
    try {
      queue.put(batch);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      failure.compareAndSet(null, e);
    }
  }

  private void join(Thread t) {
    try {
      t.join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
