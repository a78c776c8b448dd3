package io.basaltdb.engine;

/**
 * Seeds for randomized tests: {@code -Dbasalt.seed=N} replays a run; otherwise a fresh seed is
 * drawn. Either way it is printed with the test's name.
 */
public final class Seeds {
  private Seeds() {}

  public static long seed(String test) {
    String s = System.getProperty("basalt.seed");
    long seed = s != null && !s.isEmpty() ? Long.parseLong(s) : System.nanoTime();
    System.out.println(test + ": seed=" + seed + " (replay with -Dbasalt.seed=" + seed + ")");
    return seed;
  }
}
