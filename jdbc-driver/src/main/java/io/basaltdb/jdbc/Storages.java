package io.basaltdb.jdbc;

import io.basaltdb.sql.SqlStates;
import io.basaltdb.storage.StorageProvider;
import io.basaltdb.engine.Database;
import io.basaltdb.engine.EngineOptions;
import io.basaltdb.storage.Storage;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.Map;
import java.util.ServiceLoader;

/**
 * The storages this process has open for JDBC connections: one per location, opened by the
 * first connection and closed when the last one closes (which releases an embedded database's
 * directory lock, or an HBase cluster's connection). Embedded databases are opened here; other
 * schemes by their {@link StorageProvider}. Each open storage has its metrics' MBean
 * ({@link io.basaltdb.jdbc.metrics.DatabaseMBean}) while it is open. Thread-safe.
 */
final class Storages {
  /** An open storage, its connections, and what unregisters its MBean. */
  private record Entry(Storage storage, int refs, Runnable unregister) {}

  private static final Map<String, Entry> OPEN = new HashMap<>();

  private Storages() {}

  private static String key(BasaltUrl url) {
    return url.scheme().isEmpty()
        ? Path.of(url.location()).toAbsolutePath().normalize().toString()
        : url.scheme() + ":" + url.location();
  }

  /** The open storage for {@code url}, opened if needed; the caller must {@link #release}. */
  static synchronized Storage acquire(BasaltUrl url) throws SQLException {
    String key = key(url);
    Entry e = OPEN.get(key);
    if (e == null) {
      Storage opened = open(url);
      e = new Entry(opened, 0,
          io.basaltdb.jdbc.metrics.DatabaseMBean.register(opened, url.memory() ? "mem:"
              + url.location() : key));
    }
    OPEN.put(key, new Entry(e.storage(), e.refs() + 1, e.unregister()));
    return e.storage();
  }

  private static Storage open(BasaltUrl url) throws SQLException {
    if (!url.embedded()) {
      return provider(url.scheme()).open(url.location(), url.properties());
    }
    try {
      return url.memory() ? Database.openTemporary(EngineOptions.defaults())
          : Database.open(Path.of(url.location()), EngineOptions.defaults());
    } catch (RuntimeException ex) {
      throw new SQLException("cannot open Basalt database " + url.location() + ": "
          + ex.getMessage(), SqlStates.UNABLE_TO_CONNECT, ex);
    }
  }

  /** The providers on the class path, by scheme (looked up once). */
  private static final class Providers {
    static final Map<String, StorageProvider> BY_SCHEME = new HashMap<>();

    static {
      for (StorageProvider p : ServiceLoader.load(StorageProvider.class,
          Storages.class.getClassLoader())) {
        BY_SCHEME.putIfAbsent(p.scheme(), p);
      }
    }
  }

  static java.util.Set<String> providerSchemes() {
    return Providers.BY_SCHEME.keySet();
  }

  private static StorageProvider provider(String scheme) throws SQLException {
    StorageProvider p = Providers.BY_SCHEME.get(scheme);
    if (p != null) {
      return p;
    }
    throw new SQLException("no Basalt storage for " + BasaltUrl.PREFIX + scheme + ": URLs on the"
        + " class path; the " + scheme + " backend comes in its own jar (basalt-" + scheme
        + "-<version>-all.jar)", SqlStates.UNABLE_TO_CONNECT);
  }

  /** One connection to {@code storage} closed: the last one closes the storage. */
  static synchronized void release(Storage storage) {
    for (Map.Entry<String, Entry> e : OPEN.entrySet()) {
      if (e.getValue().storage() == storage) {
        int refs = e.getValue().refs() - 1;
        if (refs == 0) {
          OPEN.remove(e.getKey());
          e.getValue().unregister().run();
          storage.close();
        } else {
          e.setValue(new Entry(storage, refs, e.getValue().unregister()));
        }
        return;
      }
    }
  }
}
