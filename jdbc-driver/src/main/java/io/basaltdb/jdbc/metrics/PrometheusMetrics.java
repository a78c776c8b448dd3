package io.basaltdb.jdbc.metrics;

import io.basaltdb.storage.Storage;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * A database's metrics in the Prometheus text format ({@link #scrape}), through Micrometer:
 * each {@link MetricCatalog} metric bound as a function counter, gauge or timer that reads it
 * when scraped, and the JVM's own (memory, GC, threads, CPU, uptime). Metrics that appear
 * later (an error of a new SQLState) are bound at the next scrape. Thread-safe.
 */
public final class PrometheusMetrics implements AutoCloseable {
  private final Storage db;
  private final PrometheusMeterRegistry registry =
      new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
  private final Set<String> bound = new HashSet<>();
  /** The metrics bound: Micrometer holds a function meter's object weakly, so they are held here. */
  private final List<Metric> held = new ArrayList<>();
  private final JvmGcMetrics gc = new JvmGcMetrics();

  public PrometheusMetrics(Storage db) {
    this.db = db;
    new JvmMemoryMetrics().bindTo(registry);
    gc.bindTo(registry);
    new JvmThreadMetrics().bindTo(registry);
    new ProcessorMetrics().bindTo(registry);
    new UptimeMetrics().bindTo(registry);
    bindNew();
  }

  private synchronized void bindNew() {
    for (Metric m : MetricCatalog.of(db)) {
      if (!bound.add(m.name() + m.tags())) {
        continue;
      }
      held.add(m);
      Tags tags = Tags.empty();
      for (var t : m.tags().entrySet()) {
        tags = tags.and(t.getKey(), t.getValue());
      }
      switch (m.type()) {
        case COUNTER -> FunctionCounter.builder(m.name(), m, x -> x.value().getAsDouble())
            .description(m.help()).tags(tags).register(registry);
        case GAUGE -> Gauge.builder(m.name(), m, x -> x.value().getAsDouble())
            .description(m.help()).tags(tags).register(registry);
        case TIMER -> FunctionTimer.builder(m.name(), m, x -> (long) x.value().getAsDouble(),
            x -> x.nanos().getAsLong(), TimeUnit.NANOSECONDS)
            .description(m.help()).tags(tags).register(registry);
        default -> throw new AssertionError(m.type());
      }
    }
  }

  /** Every metric now, in the Prometheus text format (version 0.0.4). */
  public String scrape() {
    bindNew();
    return registry.scrape();
  }

  @Override
  public void close() {
    gc.close();
    registry.close();
  }
}
