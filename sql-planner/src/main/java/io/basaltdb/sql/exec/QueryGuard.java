package io.basaltdb.sql.exec;

import io.basaltdb.sql.ConnectionProperty;
import io.basaltdb.sql.SqlStateException;
import java.util.Collections;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.calcite.DataContext;
import org.apache.calcite.avatica.util.ByteString;
import org.apache.calcite.jdbc.CalciteConnection;
import org.apache.calcite.linq4j.AbstractEnumerable;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Enumerator;

/**
 * Keeps a running statement stoppable and within its memory. Every operator input that is not
 * a Basalt scan (which checks for itself) is read through a guard ({@code rel.Guard} puts them
 * in the plan): it reads the statement's cancel flag (set by {@code cancel()} or its query
 * timeout) at every row, so joins, sorts and aggregates, which may run long on rows already
 * read, stop within a row's time (57014). The input of an operator that keeps what it reads (a
 * sort, a window, a hash join's build side, a set difference or intersection) is also charged
 * to the execution's memory account at an estimate of each row's heap size (measured on every
 * 32nd row); past the
 * connection's {@code queryMemory} (default a quarter of the heap) the statement fails with
 * 53200 naming the operator, before the JVM runs out of memory for everyone. The account
 * counts everything kept over the statement's whole run (not a peak): simple and on the safe
 * side. One account per execution, found by its data context.
 */
public final class QueryGuard {
  private QueryGuard() {}

  /** A statement past its memory budget (SQLState 53200). */
  public static final class OutOfBudgetException extends SqlStateException {
    private static final long serialVersionUID = 1L;

    OutOfBudgetException(String message) {
      super("53200", message);
    }
  }

  private static final class Account {
    final long limit;
    final AtomicLong used = new AtomicLong();

    Account(long limit) {
      this.limit = limit;
    }
  }

  private static final Map<DataContext, Account> ACCOUNTS =
      Collections.synchronizedMap(new WeakHashMap<>());

  /** {@code input} read under the statement's cancel flag and, if {@code retains}, its budget. */
  public static <T> Enumerable<T> guard(Enumerable<T> input, DataContext ctx, String operator,
      boolean retains) {
    AtomicBoolean cancel = ScanExecutor.cancelFlag(ctx);
    Account account = retains ? account(ctx) : null;
    return new AbstractEnumerable<T>() {
      @Override
      public Enumerator<T> enumerator() {
        Enumerator<T> in = input.enumerator();
        return new Enumerator<T>() {
          private long rows;
          private long rowBytes;

          @Override
          public T current() {
            return in.current();
          }

          @Override
          public boolean moveNext() {
            if (cancel != null && cancel.get()) {
              throw new SqlStateException("57014", "statement cancelled");
            }
            if (!in.moveNext()) {
              return false;
            }
            if (account != null) {
              if ((rows++ & 31) == 0) {
                rowBytes = estimate(in.current()); // sampled: every 32nd row is measured
              }
              charge(account, rowBytes, operator);
            }
            return true;
          }

          @Override
          public void reset() {
            in.reset();
          }

          @Override
          public void close() {
            in.close();
          }
        };
      }
    };
  }

  private static void charge(Account a, long bytes, String operator) {
    long used = a.used.addAndGet(bytes);
    if (used > a.limit) {
      throw new OutOfBudgetException("statement needs more than " + size(a.limit)
          + " of memory (connection property queryMemory) in " + operator + "; give it more,"
          + " or have it keep less (a narrower WHERE, fewer columns, a LIMIT)");
    }
  }

  private static String size(long bytes) {
    return bytes >= 1 << 20 ? (bytes >> 20) + " MiB" : Math.max(1, bytes >> 10) + " KiB";
  }

  private static Account account(DataContext ctx) {
    synchronized (ACCOUNTS) {
      return ACCOUNTS.computeIfAbsent(ctx, c -> new Account(limit(c)));
    }
  }

  /** The connection's {@code queryMemory}, else a quarter of the heap. */
  static long limit(DataContext ctx) {
    if (ctx != null && ctx.getQueryProvider() instanceof CalciteConnection c) {
      String v = ConnectionProperty.QUERY_MEMORY.valueIn(c.getProperties());
      if (v != null) {
        return Long.parseLong(v);
      }
    }
    return Runtime.getRuntime().maxMemory() / 4;
  }

  /** A row's heap size, estimated: object headers, references and the values' own bytes. */
  static long estimate(Object row) {
    if (row instanceof Object[] a) {
      long n = 16 + 8L * a.length;
      for (Object v : a) {
        n += value(v);
      }
      return n;
    }
    return 8 + value(row);
  }

  private static long value(Object v) {
    if (v == null) {
      return 0;
    }
    if (v instanceof String s) {
      return 40 + 2L * s.length();
    }
    if (v instanceof ByteString b) {
      return 56 + b.length();
    }
    if (v instanceof byte[] b) {
      return 16 + b.length;
    }
    if (v instanceof java.math.BigDecimal) {
      return 64;
    }
    if (v instanceof Object[] a) {
      return estimate(a);
    }
    if (v instanceof java.util.Collection<?> c) {
      long n = 40;
      for (Object x : c) {
        n += 8 + value(x);
      }
      return n;
    }
    return 16;
  }
}
