package io.basaltdb.jdbc.metrics;

import java.util.Map;
import java.util.function.DoubleSupplier;
import java.util.function.LongSupplier;

/**
 * One figure an operator watches, read live: a counter (only grows), a gauge (the state of the
 * moment) or a timer (how many, and their total time). {@code name} is dotted
 * ({@code basalt.wal.syncs}); {@link #exposedName} is the name Prometheus and JMX show it by.
 * Immutable.
 *
 * @param value the count (counter, timer) or the value (gauge: a fraction for a ratio)
 * @param nanos a timer's total time in nanoseconds; null for the others
 */
public record Metric(String name, Type type, String help, Map<String, String> tags,
    DoubleSupplier value, LongSupplier nanos) {
  public enum Type { COUNTER, GAUGE, TIMER }

  public static Metric counter(String name, String help, LongSupplier value) {
    return new Metric(name, Type.COUNTER, help, Map.of(), value::getAsLong, null);
  }

  public static Metric gauge(String name, String help, LongSupplier value) {
    return new Metric(name, Type.GAUGE, help, Map.of(), value::getAsLong, null);
  }

  /** A gauge whose value is a fraction (0 to 1), such as a hit ratio. */
  public static Metric ratio(String name, String help, DoubleSupplier value) {
    return new Metric(name, Type.GAUGE, help, Map.of(), value, null);
  }

  public static Metric timer(String name, String help, LongSupplier count, LongSupplier nanos) {
    return new Metric(name, Type.TIMER, help, Map.of(), count::getAsLong, nanos);
  }

  public Metric withTag(String key, String v) {
    return new Metric(name, type, help, Map.of(key, v), value, nanos);
  }

  /**
   * The name in the Prometheus text format: {@code _total} after a counter's, a timer's as
   * {@code _seconds} (with {@code _count} and {@code _sum}).
   */
  public String exposedName() {
    String base = name.replace('.', '_');
    return switch (type) {
      case COUNTER -> base + "_total";
      case GAUGE -> base;
      case TIMER -> base + "_seconds";
    };
  }
}
