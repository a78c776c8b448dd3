package io.basaltdb.sql.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.TimeZone;

/**
 * Runs a test's H2 comparison in JVMs of other zones (a half-hour offset; daylight saving time):
 * a JVM's zone is read once by the libraries, so each is a child JVM running the test class's
 * {@code main}, which calls {@link #report}.
 */
final class OtherZones {
  static final List<String> ZONES = List.of("Asia/Kolkata", "America/New_York");

  private OtherZones() {}

  /** Runs {@code test}'s main in a JVM of each zone; it must exit 0 and say so. */
  static void run(Class<?> test) throws Exception {
    for (String zone : ZONES) {
      Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java")
          .toString(), "-Duser.timezone=" + zone, "-cp", System.getProperty("java.class.path"),
          test.getName()).redirectErrorStream(true).start();
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      assertEquals(0, p.waitFor(), out);
      assertTrue(out.contains("same as H2 in " + zone), out);
    }
  }

  /** A comparison in this JVM's zone. */
  interface Comparison {
    void compareWithH2(String zone) throws Exception;
  }

  /** For a child's main: runs {@code c}, prints the line {@link #run} waits for, or exits 1. */
  static void report(Comparison c) {
    String zone = TimeZone.getDefault().getID();
    try {
      c.compareWithH2(zone);
      System.out.println("same as H2 in " + zone);
    } catch (Throwable e) {
      e.printStackTrace(System.out);
      System.exit(1);
    }
  }
}
