package io.basaltdb.clients;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import javax.sql.DataSource;

/**
 * One client's scenario as named steps, run against Basalt and against H2 through the same
 * code (a HikariCP pool over each), compared step by step: a step's outcome is its result as
 * text, or the failure's class and SQLState class, so a mismatch names the client, the step and
 * what each database said (with a failure's messages, where the client puts the SQL it sent,
 * and its full SQLState). Each step is timed; {@link #report} prints the per-step table against
 * H2 and its geometric mean.
 */
final class Steps {
  /** A step: what the application does, its result (made comparable as text). */
  interface Step {
    Object run(DataSource ds) throws Exception;
  }

  /**
   * What a step gave, how long it took, and for a failure the error's messages (the SQL the
   * client sent is in them), shown when the step differs.
   */
  record Outcome(String text, long nanos, String detail) {}

  private final String client;
  private final List<Map.Entry<String, Step>> steps = new ArrayList<>();

  Steps(String client) {
    this.client = client;
  }

  Steps step(String name, Step step) {
    steps.add(Map.entry(name, step));
    return this;
  }

  /** A pool over {@code url}, as applications open one. */
  static HikariDataSource pool(String url) {
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(url);
    config.setMaximumPoolSize(4);
    return new HikariDataSource(config);
  }

  /**
   * Runs every step on Basalt and on H2 (fresh in-memory databases), reports the times, and
   * gives the steps whose outcomes differ (each naming the client, the step and both sides).
   */
  List<String> differences(String name) throws Exception {
    Map<String, Outcome> basalt;
    Map<String, Outcome> h2;
    try (HikariDataSource ds = pool("jdbc:basalt:mem:" + name)) {
      basalt = run(ds);
    }
    try (HikariDataSource ds = pool("jdbc:h2:mem:" + name + ";DB_CLOSE_DELAY=-1")) {
      h2 = run(ds);
    }
    report(basalt, h2);
    List<String> differ = new ArrayList<>();
    for (String step : h2.keySet()) {
      if (!h2.get(step).text().equals(basalt.get(step).text())) {
        differ.add(client + ", step '" + step + "': Basalt " + basalt.get(step).text()
            + ", H2 " + h2.get(step).text() + detail(basalt.get(step)) + detail(h2.get(step)));
      }
    }
    return differ;
  }

  private Map<String, Outcome> run(DataSource ds) {
    Map<String, Outcome> out = new LinkedHashMap<>();
    for (Map.Entry<String, Step> s : steps) {
      long start = System.nanoTime();
      String text;
      StringBuilder detail = new StringBuilder();
      try {
        text = String.valueOf(s.getValue().run(ds));
      } catch (Exception e) {
        text = failure(e);
        for (Throwable c = e; c != null; c = c.getCause()) {
          detail.append(detail.length() == 0 ? "" : " <- ").append(c.getMessage())
              .append(c instanceof SQLException q && q.getSQLState() != null
                  ? " (SQLState " + q.getSQLState() + ")" : "");
        }
        System.out.println(client + ", step '" + s.getKey() + "' failed: " + e);
        for (Throwable c = e.getCause(); c != null; c = c.getCause()) {
          System.out.println("  caused by " + c);
          if (Boolean.getBoolean("steps.trace") && c.getCause() == null) {
            c.printStackTrace(System.out);
          }
        }
      }
      out.put(s.getKey(), new Outcome(text, System.nanoTime() - start, detail.toString()));
    }
    return out;
  }

  private static String detail(Outcome o) {
    return o.detail().isEmpty() ? "" : " [" + o.detail() + "]";
  }

  /** A failure as the application meets it: its class, and the SQLState beneath, if any. */
  static String failure(Throwable e) {
    String state = null;
    for (Throwable c = e; c != null; c = c.getCause()) {
      if (c instanceof SQLException s && s.getSQLState() != null) {
        state = s.getSQLState();
        break;
      }
    }
    return "failed: " + e.getClass().getSimpleName()
        + (state == null ? "" : " (SQLState class " + state.substring(0, 2) + ")");
  }

  /** The per-step times against H2's, and their geometric mean. */
  private void report(Map<String, Outcome> basalt, Map<String, Outcome> h2) {
    StringBuilder b = new StringBuilder(String.format(Locale.ROOT,
        "%n%s: per-step time, Basalt vs H2 (one run; the first steps include warm-up)%n", client));
    double logSum = 0;
    int n = 0;
    for (String step : h2.keySet()) {
      double ms = basalt.get(step).nanos() / 1e6;
      double h2ms = h2.get(step).nanos() / 1e6;
      double ratio = ms / Math.max(h2ms, 1e-3);
      logSum += Math.log(ratio);
      n++;
      b.append(String.format(Locale.ROOT, "  %-48s %9.2f ms %9.2f ms %7.2fx%n", step, ms, h2ms,
          ratio));
    }
    b.append(String.format(Locale.ROOT, "  geometric mean of %d steps: %.2fx H2's time%n", n,
        Math.exp(logSum / Math.max(1, n))));
    System.out.print(b);
  }
}
