package io.basaltdb.sql;

/**
 * The SQL layer's process-wide switches, all in one place: JVM system properties that turn one
 * of Basalt's own paths off (to measure it against Calcite's, or for a test comparing the two)
 * or set a threshold. Connection behaviour users choose is a {@link ConnectionProperty}, never
 * a switch. A switch is read each time it is asked (a test flips one around a statement; a
 * read is a hash lookup), by its typed accessor: {@link #on()}, {@link #longValue()},
 * {@link #value()}.
 */
public enum Switches {
  /** {@code -Dbasalt.sharedPlans=false}: no plan shared between statements of one shape. */
  SHARED_PLANS("basalt.sharedPlans", "true"),
  /** {@code -Dbasalt.directPlans=false}: every statement planned by Calcite, none directly. */
  DIRECT_PLANS("basalt.directPlans", "true"),
  /** {@code -Dbasalt.shortPath=false}: plans of one table run through Calcite's code, too. */
  SHORT_PATH("basalt.shortPath", "true"),
  /** {@code -Dbasalt.smallPlans=false}: joins and aggregates of small tables searched, too. */
  SMALL_PLANS("basalt.smallPlans", "true"),
  /** {@code -Dbasalt.directExecution=false}: no plan runs without Calcite's generated code. */
  DIRECT_EXECUTION("basalt.directExecution", "true"),
  /** {@code -Dbasalt.guards=false}: no statement timeout or memory guard around execution. */
  GUARDS("basalt.guards", "true"),
  /** {@code -Dbasalt.smallestFirst=false}: joins in the order written, not smallest first. */
  SMALLEST_FIRST("basalt.smallestFirst", "true"),
  /**
   * {@code -Dbasalt.equalityDistinct=false}: an equality keeps half the rows in cost estimates,
   * whatever the sampled distinct values say.
   */
  EQUALITY_DISTINCT("basalt.equalityDistinct", "true"),
  /** Cells a scan must cover before its regions are read in parallel (tests set 0). */
  PARALLEL_SCAN_CELLS("basalt.parallelScanCells", "200000"),
  /**
   * {@code -Dbasalt.preload=false}: a first connection loads no classes ahead of its statements
   * ({@code jdbc.StartUp}; to measure it, or to list what they load).
   */
  PRELOAD("basalt.preload", "true"),
  /** {@code -Dbasalt.progress=stderr} ({@code bin/basalt sql}): CREATE INDEX says how far. */
  PROGRESS("basalt.progress", "");

  private final String property;
  private final String fallback;

  Switches(String property, String fallback) {
    this.property = property;
    this.fallback = fallback;
  }

  /** The system property that sets it. */
  public String property() {
    return property;
  }

  /** The value set, or the default. */
  public String value() {
    return System.getProperty(property, fallback);
  }

  /** False only when set to {@code false} (any case). */
  public boolean on() {
    return !"false".equalsIgnoreCase(value());
  }

  /** The value as a number; the default when what is set is not one. */
  public long longValue() {
    try {
      return Long.parseLong(value().trim());
    } catch (NumberFormatException e) {
      return Long.parseLong(fallback);
    }
  }
}
