package io.basaltdb.sql.rel;

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
 * call), while a daemon thread started by the first statement compiles every built-in handler.
 * Then every later statement uses the compiled ones. The switch is one volatile flag.
 */
public final class MetadataHandlers {
  private MetadataHandlers() {}

  private static final AtomicBoolean STARTED = new AtomicBoolean();
  private static volatile boolean compiled;

  /** Tests: true plans with the reflective handlers whatever is compiled. */
  static volatile boolean forceReflective;

  /** The metadata queries of a new statement's planner. */
  public static Supplier<RelMetadataQuery> supplier() {
    if (compiled && !forceReflective) {
      return RelMetadataQuery::instance; // the compiled handlers of the cluster's provider
    }
    if (STARTED.compareAndSet(false, true)) {
      Thread t = new Thread(MetadataHandlers::compileAll, "basalt-metadata-handlers");
      t.setDaemon(true);
      t.start();
    }
    return () -> new RelMetadataQuery(new ProxyingMetadataHandlerProvider(
        JoinCardinality.PROVIDER));
  }

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
      // the proxies stay in use: slower planning, same answers
      System.err.println("basalt: compiling metadata handlers failed, planning stays on"
          + " reflective ones: " + e);
    }
  }
}
