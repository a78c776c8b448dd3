package io.basaltdb.sql.jdbc;

import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A JVM's first connection, shortened: while the connecting thread opens the storage, a
 * daemon thread initializes Avatica's connection-properties class, whose static fields build
 * Avatica's protobuf descriptors (~180 classes, ~0.1 s in a fresh JVM) that every connection's
 * meta needs, even an embedded one. Once per JVM.
 *
 * <p>Only classes whose initialization reaches no class a connecting thread initializes are
 * warmed here (protobuf's and Avatica's generated ones): two threads initializing classes that
 * need each other would deadlock, which is why Calcite's classes, whose static initializers
 * reach each other, are left to the connecting thread.
 */
public final class StartUp {
  private static final String[] LEAVES = {"org.apache.calcite.avatica.ConnectionPropertiesImpl"};
  private static final AtomicBoolean STARTED = new AtomicBoolean();

  private StartUp() {}

  /** Starts the warm-up, the first time only. */
  public static void begin() {
    if (!STARTED.compareAndSet(false, true)) {
      return;
    }
    Thread t = new Thread(() -> {
      for (String name : LEAVES) {
        try {
          Class.forName(name, true, StartUp.class.getClassLoader());
        } catch (Throwable e) {
          return; // the connecting thread meets the same error, and reports it
        }
      }
    }, "basalt-start-up");
    t.setDaemon(true);
    t.start();
  }
}
