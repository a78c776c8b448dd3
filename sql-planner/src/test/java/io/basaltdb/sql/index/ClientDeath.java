package io.basaltdb.sql.index;

import io.basaltdb.storage.Append;
import io.basaltdb.storage.CheckAndMutate;
import io.basaltdb.storage.ColumnAggregate;
import io.basaltdb.storage.Delete;
import io.basaltdb.storage.Get;
import io.basaltdb.storage.Increment;
import io.basaltdb.storage.Put;
import io.basaltdb.storage.Result;
import io.basaltdb.storage.ResultScanner;
import io.basaltdb.storage.RowMutations;
import io.basaltdb.storage.Scan;
import io.basaltdb.storage.Table;
import io.basaltdb.storage.TableDescriptor;
import io.basaltdb.storage.TableName;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A client that dies at a chosen call: every table it hands out ({@link #wrap}) counts the
 * storage calls made through it (reads and writes, one per call, a list counting once), and
 * from call number {@link #dieAt} on each call throws "client died here" without reaching the
 * storage, as if the process had been killed there; or, at a chosen call, lets another client's
 * work run first ({@link #cutIn}). Off ({@link #dieAt} 0) it only counts.
 */
public final class ClientDeath {
  private final AtomicLong calls = new AtomicLong();
  private volatile long dieAt;
  /** At call {@link #cutInAt}, before it reaches the storage: another client's work. */
  private volatile long cutInAt;
  private volatile Runnable cutIn;
  /** The thread running {@link #cutIn}: its calls are not counted. */
  private volatile Thread cuttingIn;

  /** The calls made since the last {@link #reset}. */
  public long calls() {
    return calls.get();
  }

  /** Counts from zero; the client dies at call {@code at} (1 the first; 0 never). */
  public void reset(long at) {
    calls.set(0);
    dieAt = at;
    cutIn = null;
  }

  /**
   * Counts from zero; at call {@code at}, before it is made, {@code other} runs (another
   * client's statements, through the same storage, not counted): a writer paused between two
   * of its calls while another writes.
   */
  public void cutIn(long at, Runnable other) {
    calls.set(0);
    dieAt = 0;
    cutInAt = at;
    cutIn = other;
  }

  /**
   * The next time a read {@code read} ("get" of one row or a list, "scan") of {@code table} is
   * about to be made, {@code other} runs first, once (another process's DDL, say, while this
   * client is between two rows of its statement).
   */
  public void cutInBeforeRead(String read, TableName table, Runnable other) {
    readCutIn = new ReadCutIn(read, table, other);
  }

  private record ReadCutIn(String read, TableName table, Runnable other) {}

  private volatile ReadCutIn readCutIn;

  private void read(String read, TableName table) {
    ReadCutIn c = readCutIn;
    if (c != null && c.read().equals(read) && c.table().equals(table)
        && Thread.currentThread() != cuttingIn) {
      readCutIn = null;
      runCuttingIn(c.other());
    }
  }

  /** Runs another client's work on this thread, its calls not counted. */
  private void runCuttingIn(Runnable other) {
    cuttingIn = Thread.currentThread();
    try {
      other.run();
    } finally {
      cuttingIn = null;
    }
  }

  public Table wrap(Table t) {
    return new Dying(t);
  }

  private void call() {
    if (Thread.currentThread() == cuttingIn) {
      return;
    }
    long n = calls.incrementAndGet();
    if (n == cutInAt && cutIn != null) {
      runCuttingIn(cutIn);
    }
    if (dieAt > 0 && n >= dieAt) {
      throw new IllegalStateException("client died here (call " + n + ")");
    }
  }

  private final class Dying implements Table {
    private final Table t;

    Dying(Table t) {
      this.t = t;
    }

    @Override
    public TableName name() {
      return t.name();
    }

    @Override
    public TableDescriptor descriptor() {
      return t.descriptor();
    }

    @Override
    public void put(Put put) {
      call();
      t.put(put);
    }

    @Override
    public void put(List<Put> puts) {
      call();
      t.put(puts);
    }

    @Override
    public void delete(Delete delete) {
      call();
      t.delete(delete);
    }

    @Override
    public void delete(List<Delete> deletes) {
      call();
      t.delete(deletes);
    }

    @Override
    public void mutateRow(RowMutations rm) {
      call();
      t.mutateRow(rm);
    }

    @Override
    public Result increment(Increment inc) {
      call();
      return t.increment(inc);
    }

    @Override
    public long incrementColumnValue(byte[] row, byte[] family, byte[] qualifier, long amount) {
      call();
      return t.incrementColumnValue(row, family, qualifier, amount);
    }

    @Override
    public Result append(Append app) {
      call();
      return t.append(app);
    }

    @Override
    public boolean checkAndMutate(CheckAndMutate cam) {
      call();
      return t.checkAndMutate(cam);
    }

    @Override
    public boolean[] checkAndMutate(List<CheckAndMutate> cams) {
      call();
      return t.checkAndMutate(cams);
    }

    @Override
    public Result get(Get get) {
      read("get", t.name());
      call();
      return t.get(get);
    }

    @Override
    public List<Result> get(List<Get> gets) {
      read("get", t.name());
      call();
      return t.get(gets);
    }

    @Override
    public boolean exists(Get get) {
      call();
      return t.exists(get);
    }

    @Override
    public ResultScanner getScanner(Scan scan) {
      read("scan", t.name());
      call();
      return t.getScanner(scan);
    }

    @Override
    public ResultScanner getRawScanner(Scan scan) {
      call();
      return t.getRawScanner(scan);
    }

    @Override
    public ColumnAggregate.Answer aggregate(ColumnAggregate request) {
      call();
      return t.aggregate(request);
    }

    @Override
    public Object[] batch(List<? extends io.basaltdb.storage.Row> actions) {
      call();
      return t.batch(actions);
    }
  }
}
