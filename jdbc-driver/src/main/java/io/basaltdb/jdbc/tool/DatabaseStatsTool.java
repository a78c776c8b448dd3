package io.basaltdb.jdbc.tool;

import io.basaltdb.engine.Database;
import io.basaltdb.engine.EngineOptions;
import io.basaltdb.jdbc.metrics.PrometheusMetrics;
import io.basaltdb.storage.Storage;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.util.Base64;

/**
 * {@code bin/basalt stats} without a table: a database's metrics ({@code basalt_*}), one
 * {@code name{tags} value} line each, as a Prometheus scrape shows them. From a server
 * ({@code --url jdbc:basalt:remote:http://...} or {@code jdbc:avatica:remote:url=http://...}):
 * its {@code GET /metrics} (user {@code BASALT_USER}, password {@code BASALT_PASSWORD} from
 * the environment when it asks for credentials); from another URL: that storage's, through the
 * driver; else the database directory, opened here.
 */
final class DatabaseStatsTool {
  private DatabaseStatsTool() {}

  static int print(String url, Path dir, PrintStream out, PrintStream err) {
    try {
      String text;
      String server = url == null ? null : serverAddress(url);
      if (server != null) {
        text = fetch(server + "/metrics");
      } else if (url != null) {
        try (Connection c = DriverManager.getConnection(url)) {
          text = scrape(c.unwrap(io.basaltdb.sql.jdbc.BasaltConnection.class).storage());
        }
      } else {
        if (!Files.isDirectory(dir)) {
          err.println("basalt stats: no database at " + dir.toAbsolutePath());
          return 1;
        }
        try (Database db = Database.open(dir, EngineOptions.defaults())) {
          text = scrape(db);
        }
      }
      text.lines().filter(l -> l.startsWith("basalt_")).forEach(out::println);
      return 0;
    } catch (Exception e) {
      err.println("basalt stats: " + e.getMessage());
      return 1;
    }
  }

  private static String scrape(Storage db) {
    try (PrometheusMetrics m = new PrometheusMetrics(db)) {
      return m.scrape();
    }
  }

  /** The http(s)://host:port of a server's URL, or null when the URL is not a server's. */
  static String serverAddress(String url) {
    String rest = url.startsWith("jdbc:basalt:remote:") ? url.substring(19)
        : url.startsWith("jdbc:avatica:remote:") && url.contains("url=")
        ? url.substring(url.indexOf("url=") + 4) : null;
    if (rest == null) {
      return null;
    }
    int end = rest.indexOf(';');
    String address = end < 0 ? rest : rest.substring(0, end);
    return address.endsWith("/") ? address.substring(0, address.length() - 1) : address;
  }

  private static String fetch(String address) throws Exception {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(address)).GET();
    String user = System.getenv("BASALT_USER");
    if (user != null) {
      String pw = System.getenv().getOrDefault("BASALT_PASSWORD", "");
      b.header("Authorization", "Basic " + Base64.getEncoder().encodeToString(
          (user + ":" + pw).getBytes(StandardCharsets.UTF_8)));
    }
    HttpResponse<String> r = HttpClient.newHttpClient().send(b.build(),
        HttpResponse.BodyHandlers.ofString());
    if (r.statusCode() != 200) {
      throw new IllegalStateException(address + " answered " + r.statusCode()
          + (r.statusCode() == 401 ? " (set BASALT_USER and BASALT_PASSWORD)" : ""));
    }
    return r.body();
  }
}
