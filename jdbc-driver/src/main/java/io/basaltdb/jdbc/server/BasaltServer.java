package io.basaltdb.jdbc.server;

import io.basaltdb.jdbc.BasaltDriver;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Properties;
import org.apache.calcite.avatica.remote.Driver.Serialization;
import org.apache.calcite.avatica.remote.LocalService;
import org.apache.calcite.avatica.server.HttpServer;
import org.apache.calcite.avatica.server.ServerCustomizer;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;

/**
 * An Avatica HTTP server (protobuf) over an embedded Basalt database, for BI tools and remote
 * JDBC clients ({@code jdbc:avatica:remote:url=http://127.0.0.1:8765;serialization=protobuf}).
 * It holds one connection for its lifetime, so the database opens (and takes the
 * directory's lock) at start and closes cleanly at {@link #stop} (and on SIGTERM). It binds to
 * loopback unless told otherwise, and refuses a non-loopback address without authentication
 * unless explicitly allowed. Avatica's {@code LocalService} serves Basalt's {@link ServerMeta}:
 * each remote connection is a connection of the embedded driver, served by the same meta as
 * embedded ones (same metadata, same SQLStates); connections idle for
 * {@link #IDLE_MILLIS} (clients that went away) are closed.
 *
 * <pre>
 * bin/basalt server --data DIR [--port 8765] [--bind 127.0.0.1] [--users FILE]
 *                   [--allow-unauthenticated-remote] [--tls-keystore F --tls-password-file F]
 *                   [--slow-statement-ms N [--slow-statement-log FILE]]
 * </pre>
 * The users file is Jetty's {@code user: credential,role} format ({@link UsersFile}):
 * credentials are salted slow hashes ({@link PasswordHash}, {@code bin/basalt passwd}; plain
 * passwords are warned about), role {@code basalt-admin} (or the older {@code basalt}) for
 * everything, {@code basalt-read} for queries only (writes and DDL refused with 42501). With a
 * keystore (PKCS12 or JKS) it serves HTTPS only. Limits per client (user, else address):
 * request size ({@link RequestGate}), connections, open statements, idle time, and the time a
 * request may run a statement (remote clients cannot cancel); every refusal is one line on
 * standard error. {@code GET /metrics} serves the database's metrics in the Prometheus text
 * format ({@link MetricsEndpoint}); {@code --slow-statement-ms N} logs every execution of N ms
 * or more (standard error, or {@code --slow-statement-log FILE}; jdbc-driver/doc/metrics.md).
 */
public final class BasaltServer implements AutoCloseable {
  public static final int DEFAULT_PORT = 8765;
  /** A remote connection unused this long is closed. */
  public static final long IDLE_MILLIS = 10 * 60 * 1000;
  static final String ROLE = "basalt";

  private final HttpServer http;
  private final ServerMeta meta;
  private final Connection keepOpen;
  private final String bind;
  private final boolean tls;
  private final MetricsEndpoint metrics;

  private BasaltServer(HttpServer http, ServerMeta meta, Connection keepOpen, String bind,
      boolean tls, MetricsEndpoint metrics) {
    this.http = http;
    this.meta = meta;
    this.keepOpen = keepOpen;
    this.bind = bind;
    this.tls = tls;
    this.metrics = metrics;
  }

  /** Largest request body by default (a batch of many rows fits; a runaway one does not). */
  public static final long DEFAULT_MAX_REQUEST_BYTES = 64L << 20;
  /** Default limits per client (an authenticated user, else a remote address). */
  public static final ServerMeta.Limits DEFAULT_LIMITS =
      new ServerMeta.Limits(IDLE_MILLIS, 100, 1000, 600);

  /**
   * Options of a server: it serves the embedded database in {@code data}, or, when {@code url}
   * is given, the storage of that Basalt URL (such as {@code jdbc:basalt:hbase:...}).
   */
  public record Options(Path data, int port, String bind, Path users,
      boolean allowUnauthenticatedRemote, Path tlsKeystore, Path tlsPasswordFile,
      long maxRequestBytes, ServerMeta.Limits limits, String url, long slowStatementMillis,
      Path slowStatementLog) {
    public Options(Path data, int port, String bind, Path users,
        boolean allowUnauthenticatedRemote) {
      this(data, port, bind, users, allowUnauthenticatedRemote, null, null);
    }

    public Options(Path data, int port, String bind, Path users,
        boolean allowUnauthenticatedRemote, Path tlsKeystore, Path tlsPasswordFile) {
      this(data, port, bind, users, allowUnauthenticatedRemote, tlsKeystore, tlsPasswordFile,
          DEFAULT_MAX_REQUEST_BYTES, DEFAULT_LIMITS, null, 0, null);
    }

    /** These options with other limits. */
    public Options withLimits(long maxRequestBytes, ServerMeta.Limits limits) {
      return new Options(data, port, bind, users, allowUnauthenticatedRemote, tlsKeystore,
          tlsPasswordFile, maxRequestBytes, limits, url, slowStatementMillis, slowStatementLog);
    }

    /** These options serving the storage of a Basalt URL instead of a directory. */
    public Options withUrl(String url) {
      return new Options(data, port, bind, users, allowUnauthenticatedRemote, tlsKeystore,
          tlsPasswordFile, maxRequestBytes, limits, url, slowStatementMillis, slowStatementLog);
    }

    /**
     * These options logging every statement of at least {@code millis} (0: none) to
     * {@code log} (null: standard error).
     */
    public Options withSlowStatements(long millis, Path log) {
      return new Options(data, port, bind, users, allowUnauthenticatedRemote, tlsKeystore,
          tlsPasswordFile, maxRequestBytes, limits, url, millis, log);
    }

    /** The URL connections are made to. */
    public String jdbcUrl() {
      return url != null ? url : "jdbc:basalt:" + data.toAbsolutePath();
    }

    public Options {
      if (maxRequestBytes < 1024 || limits.connectionsPerClient() < 1
          || limits.statementsPerClient() < 1 || limits.idleMillis() < 1000
          || limits.statementSeconds() < 0) {
        throw new IllegalArgumentException("limits out of range: --max-request-bytes >= 1024,"
            + " per-client connections and statements >= 1, idle timeout >= 1 s, statement"
            + " timeout >= 0 s (0: none); got "
            + maxRequestBytes + ", " + limits);
      }
      if ((tlsKeystore == null) != (tlsPasswordFile == null)) {
        throw new IllegalArgumentException("--tls-keystore and --tls-password-file go together");
      }
      if ((data == null) == (url == null)) {
        throw new IllegalArgumentException("give one of --data DIR and --url URL");
      }
      if (slowStatementMillis < 0 || slowStatementMillis > 1_000_000) {
        throw new IllegalArgumentException("--slow-statement-ms must be 0..1000000, got "
            + slowStatementMillis);
      }
      if (port < 0 || port > 65535) {
        throw new IllegalArgumentException("--port must be 0..65535, got " + port);
      }
    }
  }

  /** Starts a server; port 0 picks a free one ({@link #port}). */
  public static BasaltServer start(Options o) throws Exception {
    // no bind address means every interface (Jetty's reading of null): never loopback
    boolean everyInterface = o.bind() == null || o.bind().isBlank();
    InetAddress address = everyInterface ? null : InetAddress.getByName(o.bind());
    if ((everyInterface || !address.isLoopbackAddress()) && o.users() == null
        && !o.allowUnauthenticatedRemote()) {
      throw new IllegalArgumentException("refusing to serve "
          + (everyInterface ? "every interface (no bind address)" : o.bind()) + " without "
          + "authentication: give --users FILE, or --allow-unauthenticated-remote");
    }
    if (o.users() != null && !Files.isReadable(o.users())) {
      throw new IllegalArgumentException("cannot read users file " + o.users());
    }
    UsersFile users = o.users() == null ? null : UsersFile.read(o.users());
    if (users != null && !users.plaintextUsers().isEmpty()) {
      System.err.println("basalt server: WARNING: " + o.users() + " holds plain passwords for "
          + users.plaintextUsers() + "; replace them with hashes: bin/basalt passwd USER ROLE"
          + " --file " + o.users());
    }
    String tlsPassword = o.tlsPasswordFile() == null ? null
        : Files.readString(o.tlsPasswordFile()).strip();
    BasaltDriver driver = new BasaltDriver();
    String url = o.jdbcUrl();
    Connection keepOpen = driver.connect(url, new Properties());
    ServerMeta meta = new ServerMeta(info -> driver.connect(url, slowLogged(info, o)),
        o.limits(), RequestGate::currentClient, BasaltServer::refused);
    MetricsEndpoint metrics = null;
    try {
      io.basaltdb.storage.Storage storage =
          keepOpen.unwrap(io.basaltdb.sql.jdbc.BasaltConnection.class).storage();
      if (o.slowStatementLog() != null) {
        io.basaltdb.sql.jdbc.SlowStatementLog.of(storage).writeTo(o.slowStatementLog());
      }
      metrics = new MetricsEndpoint(new io.basaltdb.jdbc.metrics.PrometheusMetrics(storage),
          users);
      MetricsEndpoint served = metrics;
      ServerCustomizer<Server> bindTo = server -> {
        for (Connector c : server.getConnectors()) {
          if (c instanceof ServerConnector sc) {
            sc.setHost(o.bind());
          }
        }
        server.setHandler(new RequestGate(server.getHandler(), o.maxRequestBytes(),
            BasaltServer::refused, served));
      };
      HttpServer.Builder<Server> b = HttpServer.Builder.<Server>newBuilder()
          .withHandler(new LocalService(meta), Serialization.PROTOBUF)
          .withPort(o.port())
          .withServerCustomizers(List.of(bindTo), Server.class);
      if (users != null) {
        b = b.withBasicAuthentication(o.users().toAbsolutePath().toString(), UsersFile.ROLES);
      }
      if (o.tlsKeystore() != null) {
        java.io.File ks = o.tlsKeystore().toAbsolutePath().toFile();
        b = b.withTLS(ks, tlsPassword, ks, tlsPassword);
      }
      HttpServer http = b.build();
      http.start();
      return new BasaltServer(http, meta, keepOpen, o.bind(), o.tlsKeystore() != null, metrics);
    } catch (Exception | Error e) {
      if (metrics != null) {
        metrics.close();
      }
      meta.close();
      keepOpen.close();
      throw e;
    }
  }

  /** A remote connection's properties, with the server's slow-statement threshold. */
  private static Properties slowLogged(Properties info, Options o) {
    if (o.slowStatementMillis() <= 0) {
      return info;
    }
    Properties p = new Properties();
    if (info != null) {
      p.putAll(info);
    }
    p.setProperty(io.basaltdb.sql.ConnectionProperty.SLOW_STATEMENT_MILLIS.camelName(),
        Long.toString(o.slowStatementMillis()));
    return p;
  }

  /** Every refused request, one line on standard error. */
  private static void refused(String what) {
    System.err.println(java.time.Instant.now() + " basalt server: refused: " + what);
  }

  /** How many remote connections are open now. */
  public int openConnections() {
    return meta.openConnections();
  }

  public int port() {
    return http.getPort();
  }

  /** The URL a thin client uses. */
  public String clientUrl() {
    return "jdbc:avatica:remote:url=" + (tls ? "https" : "http") + "://" + bind + ":" + port()
        + ";serialization=protobuf";
  }

  /** Stops serving, then closes the database (memstores flushed, or safe in the log). */
  public void stop() {
    try {
      http.stop();
    } finally {
      try {
        metrics.close();
        meta.close();
        keepOpen.close();
      } catch (SQLException e) {
        System.err.println("basalt server: closing the database: " + e.getMessage());
      }
    }
  }

  @Override
  public void close() {
    stop();
  }

  public static void main(String[] args) throws Exception {
    Path data = null;
    String url = null;
    int port = DEFAULT_PORT;
    String bind = "127.0.0.1";
    Path users = null;
    boolean allowRemote = false;
    Path keystore = null;
    Path passwordFile = null;
    long maxRequestBytes = DEFAULT_MAX_REQUEST_BYTES;
    int maxConnections = DEFAULT_LIMITS.connectionsPerClient();
    int maxStatements = DEFAULT_LIMITS.statementsPerClient();
    long idleMillis = DEFAULT_LIMITS.idleMillis();
    int statementSeconds = DEFAULT_LIMITS.statementSeconds();
    long slowMillis = 0;
    Path slowLog = null;
    try {
      for (int i = 0; i < args.length; i++) {
        switch (args[i]) {
          case "--data" -> data = Path.of(value(args, ++i, "--data"));
          case "--url" -> url = value(args, ++i, "--url");
          case "--port" -> port = Integer.parseInt(value(args, ++i, "--port"));
          case "--bind" -> bind = value(args, ++i, "--bind");
          case "--users" -> users = Path.of(value(args, ++i, "--users"));
          case "--allow-unauthenticated-remote" -> allowRemote = true;
          case "--tls-keystore" -> keystore = Path.of(value(args, ++i, "--tls-keystore"));
          case "--tls-password-file" -> passwordFile = Path.of(value(args, ++i,
              "--tls-password-file"));
          case "--max-request-bytes" -> maxRequestBytes = Long.parseLong(value(args, ++i,
              "--max-request-bytes"));
          case "--max-connections-per-client" -> maxConnections = Integer.parseInt(
              value(args, ++i, "--max-connections-per-client"));
          case "--max-statements-per-client" -> maxStatements = Integer.parseInt(
              value(args, ++i, "--max-statements-per-client"));
          case "--idle-timeout-seconds" -> idleMillis = 1000 * Long.parseLong(
              value(args, ++i, "--idle-timeout-seconds"));
          case "--statement-timeout-seconds" -> statementSeconds = Integer.parseInt(
              value(args, ++i, "--statement-timeout-seconds"));
          case "--slow-statement-ms" -> slowMillis = Long.parseLong(value(args, ++i,
              "--slow-statement-ms"));
          case "--slow-statement-log" -> slowLog = Path.of(value(args, ++i,
              "--slow-statement-log"));
          case "-h", "--help" -> {
            usage(System.out);
            return;
          }
          default -> throw new IllegalArgumentException("unknown option " + args[i]);
        }
      }
      BasaltServer server = start(new Options(data, port, bind, users, allowRemote, keystore,
          passwordFile).withLimits(maxRequestBytes,
              new ServerMeta.Limits(idleMillis, maxConnections, maxStatements,
                  statementSeconds)).withUrl(url).withSlowStatements(slowMillis, slowLog));
      Runtime.getRuntime().addShutdownHook(new Thread(() -> {
        System.err.println("basalt server: stopping");
        server.stop();
      }, "basalt-server-stop"));
      System.err.println("basalt server: serving "
          + (url != null ? url : data.toAbsolutePath()) + " at "
          + (keystore != null ? "https" : "http") + "://" + bind
          + ":" + server.port() + (users != null ? " (HTTP BASIC authentication)" : "")
          + "; clients: " + server.clientUrl() + "; metrics: GET /metrics");
      Thread.currentThread().join();
    } catch (IllegalArgumentException e) { // a bad number too (NumberFormatException)
      System.err.println("basalt server: " + e.getMessage());
      usage(System.err);
      System.exit(2);
    } catch (SQLException e) {
      System.err.println("basalt server: " + e.getMessage());
      System.exit(1);
    }
  }

  private static String value(String[] args, int i, String option) {
    if (i >= args.length) {
      throw new IllegalArgumentException(option + " needs a value");
    }
    return args[i];
  }

  private static void usage(java.io.PrintStream out) {
    out.println("usage: basalt server --data DIR | --url URL [--port 8765] [--bind 127.0.0.1] "
        + "[--users FILE] [--allow-unauthenticated-remote]");
    out.println("       [--tls-keystore FILE.p12 --tls-password-file FILE]");
    out.println("       [--max-request-bytes N] [--max-connections-per-client N]");
    out.println("       [--max-statements-per-client N] [--idle-timeout-seconds N]");
    out.println("       [--statement-timeout-seconds N (600; 0: none)]");
    out.println("       [--slow-statement-ms N [--slow-statement-log FILE]]");
    out.println("  serves Avatica's protocol (protobuf) over an embedded Basalt database, or");
    out.println("  the storage of a Basalt URL (--url jdbc:basalt:hbase:<quorum>[:<port>]);");
    out.println("  the users file has lines 'user: HASH,ROLE' (HTTP BASIC), HASH from");
    out.println("  'bin/basalt passwd USER basalt-admin --file FILE'. GET /metrics: the");
    out.println("  database's metrics in the Prometheus text format (jdbc-driver/doc/metrics.md);");
    out.println("  statements of at least --slow-statement-ms are logged (standard error or FILE).");
  }
}
