package io.basaltdb.jdbc.server;

import io.basaltdb.sql.jdbc.BasaltConnection;
import io.basaltdb.sql.jdbc.ParameterChecks;
import java.sql.SQLException;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;
import org.apache.calcite.avatica.Meta.Signature;
import org.apache.calcite.avatica.remote.TypedValue;

/**
 * The server's open remote connections by id, each a {@link Session}: the embedded connection
 * behind it, the client that opened it, its statements' state between requests and when it
 * was last used. Who may use a session, and how many a client may hold, is {@link
 * ServerMeta}'s to say. Thread-safe.
 */
final class ServerSessions {
  /** A statement's execution state between requests. */
  static final class Statement {
    volatile Signature signature;
    volatile ParameterChecks checks;
    volatile List<TypedValue> parameters = List.of();
    Iterator<Object> rows; // guarded by this
  }

  static final class Session {
    final BasaltConnection connection;
    final ServerMeta.Client owner;
    final Map<Integer, Statement> statements = new ConcurrentHashMap<>();
    final Set<Integer> openStatements = ConcurrentHashMap.newKeySet();
    volatile long lastUsedNanos = System.nanoTime();

    Session(BasaltConnection connection, ServerMeta.Client owner) {
      this.connection = connection;
      this.owner = owner;
    }

    Statement statement(int id) {
      return statements.computeIfAbsent(id, k -> new Statement());
    }
  }

  private final Map<String, Session> byId = new ConcurrentHashMap<>();

  int size() {
    return byId.size();
  }

  Session get(String connectionId) {
    return byId.get(connectionId);
  }

  boolean containsKey(String connectionId) {
    return byId.containsKey(connectionId);
  }

  void put(String connectionId, Session s) {
    byId.put(connectionId, s);
  }

  boolean remove(String connectionId, Session s) {
    return byId.remove(connectionId, s);
  }

  /** The open connections of {@code client}. */
  Stream<Session> of(ServerMeta.Client client) {
    return byId.values().stream().filter(s -> s.owner.name().equals(client.name()));
  }

  /** Closes the connections whose client has not called for {@code idleNanos}. */
  void closeIdle(long idleNanos) {
    long now = System.nanoTime();
    for (Map.Entry<String, Session> e : byId.entrySet()) {
      if (now - e.getValue().lastUsedNanos > idleNanos && byId.remove(e.getKey(), e.getValue())) {
        try {
          close(e.getValue());
        } catch (RuntimeException ex) {
          // the connection is gone either way
        }
      }
    }
  }

  /** Closes every connection (the server is stopping). */
  void closeAll() {
    for (String id : List.copyOf(byId.keySet())) {
      Session s = byId.remove(id);
      if (s != null) {
        try {
          close(s);
        } catch (RuntimeException e) {
          // keep closing the others
        }
      }
    }
  }

  static void close(Session s) {
    try {
      s.connection.close();
    } catch (SQLException e) {
      throw ServerMeta.remote(e);
    }
  }
}
