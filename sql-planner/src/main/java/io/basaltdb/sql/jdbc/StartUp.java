package io.basaltdb.sql.jdbc;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A JVM's first connection, shortened: while the connecting thread opens the storage and runs
 * its first statements, a daemon thread does what they will need and can be done beside them.
 * First it initializes Avatica's connection-properties class, whose static fields build
 * Avatica's protobuf descriptors (~180 classes, ~0.1 s in a fresh JVM) that every connection's
 * meta needs, even an embedded one. Then it loads, without initializing, the classes a first
 * connect, CREATE TABLE, INSERT and SELECT load ({@link #CLASS_LIST}, in the order they were
 * loaded): reading them from the jar and parsing them is half of a fresh JVM's first
 * statements (1,900 classes from the driver's jar), and the connecting thread finds them
 * loaded. Once per JVM.
 *
 * <p>Only classes whose initialization reaches no class a connecting thread initializes are
 * initialized here (protobuf's and Avatica's generated ones): two threads initializing classes
 * that need each other would deadlock, which is why Calcite's classes, whose static
 * initializers reach each other, are only loaded. Loading cannot deadlock: the application
 * class loader locks per class name, and a class waits only for its supertypes.
 */
public final class StartUp {
  private static final String[] LEAVES = {"org.apache.calcite.avatica.ConnectionPropertiesImpl"};
  /**
   * The resource, beside this class, listing a class name a line ({@code #} starts a comment);
   * made by {@code io.basaltdb.bench.FirstStatementClasses} (tpc-samples). A name that no
   * longer exists is skipped: a stale list costs time, never behaviour.
   */
  static final String CLASS_LIST = "first-statement.classes";
  /** Where the driver's jar relocates the libraries it bundles (Guava, protobuf, Caffeine). */
  private static final String RELOCATED = "io.basaltdb.shaded.";
  private static final AtomicBoolean STARTED = new AtomicBoolean();

  private StartUp() {}

  /** Starts the warm-up, the first time only. */
  public static void begin() {
    if (!STARTED.compareAndSet(false, true)) {
      return;
    }
    ClassLoader loader = StartUp.class.getClassLoader();
    Thread t = new Thread(() -> {
      for (String name : LEAVES) {
        try {
          Class.forName(name, true, loader);
        } catch (Throwable e) {
          return; // the connecting thread meets the same error, and reports it
        }
      }
      if (io.basaltdb.sql.Switches.PRELOAD.on()) {
        preload(StartUp.class.getResourceAsStream(CLASS_LIST), loader);
      }
    }, "basalt-start-up");
    t.setDaemon(true);
    t.start();
  }

  /**
   * Loads, without initializing them, the classes {@code list} names (null: none) with
   * {@code loader}; returns how many were found.
   */
  static int preload(InputStream list, ClassLoader loader) {
    if (list == null) {
      return 0;
    }
    int found = 0;
    boolean relocated = true; // false once a relocated name is missing: modules, not the jar
    try (BufferedReader in = new BufferedReader(
        new InputStreamReader(list, StandardCharsets.UTF_8))) {
      for (String line = in.readLine(); line != null; line = in.readLine()) {
        String name = line.strip();
        boolean shaded = name.startsWith(RELOCATED);
        if (name.isEmpty() || name.startsWith("#") || (shaded && !relocated)) {
          continue;
        }
        try {
          Class.forName(name, false, loader);
          found++;
        } catch (ClassNotFoundException | LinkageError e) {
          // gone since the list was made, or not in this build: skipped; on the modules' class
          // path no relocated name exists, each missed after a search of every entry
          relocated &= !shaded;
        }
      }
    } catch (IOException e) {
      // an unreadable list only forgoes the head start
    }
    return found;
  }
}
