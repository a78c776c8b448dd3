package io.basaltdb.sql.exec.context;

import io.basaltdb.sql.ConnectionProperty;
import io.basaltdb.sql.SqlStateException;
import io.basaltdb.sql.SqlStates;
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
 * 32nd row), and a hash aggregate's input at each new group ({@link #guardGroups}); past the
 * connection's {@code queryMemory} (default a quarter of the heap) the statement fails with
 * 53200 naming the operator, before the JVM runs out of memory for everyone. The account
 * counts everything kept over the statement's whole run (not a peak): simple and on the safe
 * side. One account per execution, which its data context holds (variable
 * {@link #ACCOUNT_VARIABLE}; a data context without one, not made by Basalt's connection, gets
 * an account per operator).
 */
public final class QueryGuard {
  private QueryGuard() {}

  /** The data context variable holding the execution's {@link Account}. */
  public static final String ACCOUNT_VARIABLE = "basalt.memoryAccount";

  /** What one execution has kept, against its limit. Thread-safe. */
  public static final class Account {
    final long limit;
    final AtomicLong used = new AtomicLong();

    private Account(long limit) {
      this.limit = limit;
    }

    /** A new account for an execution in {@code ctx} (its connection's limit). */
    public static Account of(DataContext ctx) {
      return new Account(limit(ctx));
    }
  }

  /** {@code input} read under the statement's cancel flag and, if {@code retains}, its budget. */
  public static <T> Enumerable<T> guard(Enumerable<T> input, DataContext ctx, String operator,
      boolean retains) {
    if (!retains) {
      return reading(input, ctx, () -> null);
    }
    Account account = account(ctx);
    return reading(input, ctx, () -> {
      long[] rowsAndBytes = new long[2];
      return row -> {
        if ((rowsAndBytes[0]++ & 31) == 0) {
          rowsAndBytes[1] = estimate(row); // sampled: every 32nd row is measured
        }
        charge(account, rowsAndBytes[1], operator);
      };
    });
  }

  /**
   * {@code input} of a hash aggregate grouping by the fields {@code groupKeys} (comma-separated
   * indexes): read under the cancel flag, and each new group (its key seen for the first time,
   * told by a 64-bit hash of the key's values in a set of longs) charged at the key's size plus
   * {@code accumulators} accumulators and a hash table entry, as the aggregate keeps one per
   * group whatever the number of rows: many rows into few groups cost little.
   */
  public static <T> Enumerable<T> guardGroups(Enumerable<T> input, DataContext ctx,
      String operator, String groupKeys, int accumulators) {
    Account account = account(ctx);
    int[] keys = java.util.Arrays.stream(groupKeys.split(",")).mapToInt(Integer::parseInt)
        .toArray();
    long perGroup = 64 + 32L * accumulators; // a map entry, an accumulator object each
    return reading(input, ctx, () -> {
      LongSet seen = new LongSet();
      return row -> {
        long h = 0x9E3779B97F4A7C15L;
        long keyBytes = 16;
        for (int k : keys) {
          Object v = row instanceof Object[] a ? a[k] : row;
          h = mix(h * 31 + java.util.Objects.hashCode(v));
          keyBytes += 8 + value(v);
        }
        if (seen.add(h)) {
          charge(account, perGroup + keyBytes + 16, operator);
        }
      };
    });
  }

  /**
   * {@code input} whose every row first meets the cancel flag, then what {@code onRows} makes
   * for the enumerator (null: nothing; one per enumerator, as each reads the rows again).
   */
  private static <T> Enumerable<T> reading(Enumerable<T> input, DataContext ctx,
      java.util.function.Supplier<java.util.function.Consumer<Object>> onRows) {
    AtomicBoolean cancel = cancelFlag(ctx);
    return new AbstractEnumerable<T>() {
      @Override
      public Enumerator<T> enumerator() {
        Enumerator<T> in = input.enumerator();
        java.util.function.Consumer<Object> onRow = onRows.get();
        return new Enumerator<T>() {
          @Override
          public T current() {
            return in.current();
          }

          @Override
          public boolean moveNext() {
            if (cancel != null && cancel.get()) {
              throw new SqlStateException(SqlStates.QUERY_CANCELED, "statement cancelled");
            }
            if (!in.moveNext()) {
              return false;
            }
            if (onRow != null) {
              onRow.accept(in.current());
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

  private static long mix(long z) { // SplitMix64's finalizer
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }

  /** A set of longs (open addressing; 0 stands for itself through a flag). */
  static final class LongSet {
    private long[] slots = new long[64];
    private int size;
    private boolean hasZero;

    /** True if {@code v} was not in the set. */
    boolean add(long v) {
      if (v == 0) {
        boolean added = !hasZero;
        hasZero = true;
        return added;
      }
      if (2 * (size + 1) > slots.length) {
        grow();
      }
      int mask = slots.length - 1;
      for (int i = (int) mix(v) & mask; ; i = (i + 1) & mask) {
        if (slots[i] == v) {
          return false;
        }
        if (slots[i] == 0) {
          slots[i] = v;
          size++;
          return true;
        }
      }
    }

    private void grow() {
      long[] old = slots;
      slots = new long[old.length * 2];
      size = 0;
      for (long v : old) {
        if (v != 0) {
          add(v);
        }
      }
    }
  }

  private static void charge(Account a, long bytes, String operator) {
    long used = a.used.addAndGet(bytes);
    if (used > a.limit) {
      throw new SqlStateException(SqlStates.OUT_OF_MEMORY,
          "statement needs more than " + size(a.limit)
          + " of memory (connection property queryMemory) in " + operator + "; give it more,"
          + " or have it keep less (a narrower WHERE, fewer columns, a LIMIT)");
    }
  }

  private static String size(long bytes) {
    return bytes >= 1 << 20 ? (bytes >> 20) + " MiB" : Math.max(1, bytes >> 10) + " KiB";
  }

  private static Account account(DataContext ctx) {
    return ctx != null && ctx.get(ACCOUNT_VARIABLE) instanceof Account a ? a : Account.of(ctx);
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

  /** The statement's cancel flag (set by {@code Statement.cancel} or its timeout), or null. */
  public static AtomicBoolean cancelFlag(DataContext ctx) {
    return ctx != null && ctx.get(DataContext.Variable.CANCEL_FLAG.camelName)
        instanceof AtomicBoolean b ? b : null;
  }
}
