package io.basaltdb.sql.rel.metadata;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import org.apache.calcite.rel.metadata.BuiltInMetadata;
import org.apache.calcite.rel.metadata.JaninoRelMetadataProvider;
import org.apache.calcite.rel.metadata.MetadataHandler;
import org.apache.calcite.rel.metadata.ProxyingMetadataHandlerProvider;
import org.apache.calcite.rel.metadata.RelMetadataQuery;

/**
 * Which metadata handlers a statement's planner asks. Calcite's fast ones are classes it
 * generates and compiles (Janino) the first time each kind of metadata is asked, about a third
 * of a fresh JVM's first INSERT; until they are ready, statements use Calcite's reflective
 * proxies over the same providers ({@link JoinCardinality#PROVIDER}; same answers, slower per
 * call), while a daemon thread compiles every built-in handler. Then every later statement
 * uses the compiled ones. The switch is one volatile flag.
 *
 * <p>The compiling starts with the first statement that goes to the cost-based search (which
 * asks metadata thousands of times), or at the {@link #COMPILE_AFTER}th statement planned: the
 * short path asks little, and on a small machine the compiling thread slowed a fresh JVM's
 * first statements by taking the processor they needed. A statement whose joins are ordered
 * heuristically waits for the compiled handlers instead ({@link #awaitCompiled}): its search
 * on the reflective ones took minutes.
 */
public final class MetadataHandlers {
  private MetadataHandlers() {}

  /** Statements planned, by any path, before the handlers are compiled anyway. */
  static final int COMPILE_AFTER = 16;
  private static final AtomicBoolean STARTED = new AtomicBoolean();
  private static final java.util.concurrent.atomic.AtomicInteger PLANNED =
      new java.util.concurrent.atomic.AtomicInteger();
  private static volatile boolean compiled;

  /** Tests: true plans with the reflective handlers whatever is compiled. */
  public static volatile boolean forceReflective;

  /** The metadata queries of a new statement's planner. */
  public static Supplier<RelMetadataQuery> supplier() {
    if (compiled && !forceReflective) {
      return RelMetadataQuery::instance; // the compiled handlers of the cluster's provider
    }
    if (PLANNED.incrementAndGet() >= COMPILE_AFTER) {
      startCompiling();
    }
    return () -> new RelMetadataQuery(new ProxyingMetadataHandlerProvider(
        JoinCardinality.PROVIDER));
  }

  /** Starts compiling the handlers, once per process; a statement about to search calls it. */
  public static void startCompiling() {
    if (STARTED.compareAndSet(false, true)) {
      Thread t = new Thread(MetadataHandlers::compileAll, "basalt-metadata-handlers");
      t.setDaemon(true);
      t.start();
    }
  }

  /**
   * Starts compiling and waits up to {@code millis} for it: a statement whose joins are
   * ordered searches so much metadata that the reflective handlers made a fresh JVM's first
   * such statement (TPC-H Q2) plan for 90 s instead of 1.5; compiling takes about 1.2 s.
   * True when the compiled handlers are ready.
   */
  public static boolean awaitCompiled(long millis) {
    startCompiling();
    long end = System.nanoTime() + millis * 1_000_000;
    synchronized (LOCK) {
      while (!compiled && !failed && System.nanoTime() < end) {
        try {
          LOCK.wait(Math.max(1, (end - System.nanoTime()) / 1_000_000));
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          break;
        }
      }
    }
    return compiled && !forceReflective;
  }

  private static final Object LOCK = new Object();
  private static volatile boolean failed;

  /** True once the compiled handlers are in use. */
  public static boolean compiled() {
    return compiled;
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private static void compileAll() {
    try {
      JaninoRelMetadataProvider janino = JaninoRelMetadataProvider.of(JoinCardinality.PROVIDER);
      for (Class<?> metadata : BuiltInMetadata.class.getDeclaredClasses()) {
        for (Class<?> handler : metadata.getDeclaredClasses()) {
          if (handler.isInterface() && MetadataHandler.class.isAssignableFrom(handler)) {
            janino.revise((Class) handler); // compiled once, kept in Calcite's static cache
          }
        }
      }
      compiled = true;
    } catch (RuntimeException | LinkageError e) {
      failed = true;
      // the proxies stay in use: slower planning, same answers
      System.err.println("basalt: compiling metadata handlers failed, planning stays on"
          + " reflective ones: " + e);
    } finally {
      synchronized (LOCK) {
        LOCK.notifyAll();
      }
    }
  }
}
