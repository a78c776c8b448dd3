package io.basaltdb.jdbc.server;

import io.basaltdb.jdbc.metrics.PrometheusMetrics;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;

/**
 * {@code GET /metrics} on the server's own port: its database's metrics in the Prometheus text
 * format ({@link PrometheusMetrics}). With a users file, the request must carry BASIC
 * credentials of any of its users (Prometheus' {@code basic_auth}); without one, as the rest
 * of the server, anyone who reaches the port may read them.
 */
final class MetricsEndpoint implements AutoCloseable {
  static final String PATH = "/metrics";
  static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

  private final PrometheusMetrics metrics;
  private final UsersFile users;

  MetricsEndpoint(PrometheusMetrics metrics, UsersFile users) {
    this.metrics = metrics;
    this.users = users;
  }

  void serve(HttpServletRequest request, HttpServletResponse response) throws IOException {
    if (users != null && !authorized(request.getHeader("Authorization"))) {
      response.setHeader("WWW-Authenticate", "Basic realm=\"basalt\"");
      response.sendError(HttpServletResponse.SC_UNAUTHORIZED, "metrics need a user's"
          + " credentials");
      return;
    }
    byte[] body = metrics.scrape().getBytes(StandardCharsets.UTF_8);
    response.setStatus(HttpServletResponse.SC_OK);
    response.setContentType(CONTENT_TYPE);
    response.setContentLength(body.length);
    response.getOutputStream().write(body);
  }

  private boolean authorized(String header) {
    if (header == null || !header.regionMatches(true, 0, "Basic ", 0, 6)) {
      return false;
    }
    String decoded;
    try {
      decoded = new String(Base64.getDecoder().decode(header.substring(6).trim()),
          StandardCharsets.UTF_8);
    } catch (IllegalArgumentException e) {
      return false;
    }
    int colon = decoded.indexOf(':');
    return colon > 0 && users.check(decoded.substring(0, colon), decoded.substring(colon + 1));
  }

  @Override
  public void close() {
    metrics.close();
  }
}
