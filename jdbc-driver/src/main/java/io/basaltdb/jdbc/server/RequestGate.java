package io.basaltdb.jdbc.server;

import java.io.IOException;
import java.security.Principal;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.handler.HandlerWrapper;

/**
 * The outermost Jetty handler of a Basalt server: refuses a request whose body is too large
 * (413) or of unknown length (411) before anything reads it, reports refused logins (a 401 to a
 * request that carried credentials), and lets {@link ServerMeta} learn who sent the request it
 * serves ({@link #currentClient}, on the request's thread: the authenticated user, else the
 * remote address; read-only when the user has only {@value ServerMeta#READ_ROLE}), and serves
 * {@code GET /metrics} ({@link MetricsEndpoint}).
 */
final class RequestGate extends HandlerWrapper {
  private static final ThreadLocal<Request> CURRENT = new ThreadLocal<>();

  private final long maxRequestBytes;
  private final java.util.function.Consumer<String> refusals;
  private final MetricsEndpoint metrics;

  RequestGate(Handler inner, long maxRequestBytes, java.util.function.Consumer<String> refusals,
      MetricsEndpoint metrics) {
    this.maxRequestBytes = maxRequestBytes;
    this.refusals = refusals;
    this.metrics = metrics;
    setHandler(inner);
  }

  @Override
  public void handle(String target, Request base, HttpServletRequest request,
      HttpServletResponse response) throws IOException, javax.servlet.ServletException {
    if (metrics != null && "GET".equals(request.getMethod())
        && MetricsEndpoint.PATH.equals(target)) {
      base.setHandled(true);
      metrics.serve(request, response);
      return;
    }
    if ("POST".equals(request.getMethod())) {
      long length = request.getContentLengthLong();
      if (length < 0) {
        refuse(base, response, HttpServletResponse.SC_LENGTH_REQUIRED,
            "request without a Content-Length from " + request.getRemoteAddr());
        return;
      }
      if (length > maxRequestBytes) {
        refuse(base, response, HttpServletResponse.SC_REQUEST_ENTITY_TOO_LARGE,
            "request of " + length + " bytes from " + request.getRemoteAddr()
                + " (the limit is " + maxRequestBytes + ", --max-request-bytes)");
        return;
      }
    }
    CURRENT.set(base);
    try {
      super.handle(target, base, request, response);
    } finally {
      CURRENT.remove();
    }
    if (response.getStatus() == HttpServletResponse.SC_UNAUTHORIZED
        && request.getHeader("Authorization") != null) {
      refusals.accept("login refused from " + request.getRemoteAddr() + " (wrong user or"
          + " password, or no basalt role)");
    }
  }

  private void refuse(Request base, HttpServletResponse response, int status, String why)
      throws IOException {
    refusals.accept(why);
    base.setHandled(true);
    response.sendError(status, why);
  }

  /** Who sent the request this thread serves; anonymous outside a request. */
  static ServerMeta.Client currentClient() {
    Request r = CURRENT.get();
    if (r == null) {
      return ServerMeta.Client.ANONYMOUS;
    }
    Principal p = r.getUserPrincipal();
    if (p == null) {
      return new ServerMeta.Client(r.getRemoteAddr(), false);
    }
    boolean readOnly = r.isUserInRole(ServerMeta.READ_ROLE) && !r.isUserInRole(UsersFile.ADMIN)
        && !r.isUserInRole(UsersFile.LEGACY);
    return new ServerMeta.Client(p.getName(), readOnly);
  }
}
