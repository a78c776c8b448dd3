package io.basaltdb.hbase;

import io.basaltdb.storage.Admin;
import io.basaltdb.storage.ClientTransactions;
import io.basaltdb.storage.ClosedException;
import io.basaltdb.storage.Durability;
import io.basaltdb.storage.ReadSnapshot;
import io.basaltdb.storage.Result;
import io.basaltdb.storage.RowChange;
import io.basaltdb.storage.Storage;
import io.basaltdb.storage.StorageTransaction;
import io.basaltdb.storage.StorageUnavailableException;
import io.basaltdb.storage.Table;
import io.basaltdb.storage.TableName;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.function.Supplier;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;

/**
 * Basalt's {@link Storage} over an Apache HBase 2.x cluster, through one shared HBase client
 * {@link Connection} (thread-safe, heavy: one per location per process, closed with the last
 * JDBC connection). HBase keeps no consistent cut across rows ({@link #snapshot()} is null) and
 * writes one row atomically, not several ({@link #atomicAcrossRows()} is false); a write is
 * durable when a region server acknowledged it ({@link #sync()} has nothing left to do).
 */
public final class HBaseStorage implements Storage {
  private final Connection connection;
  private final String location;
  private final HBaseAdmin admin;
  private final Map<Class<?>, Object> extensions = new ConcurrentHashMap<>();
  private final AggregateEndpoint aggregateEndpoint;
  private volatile boolean closed;
  /** {@link #markersHideLaterPuts(TableName)} by table, as found. */
  private final Map<TableName, Boolean> olderDeleteRule = new ConcurrentHashMap<>();

  private HBaseStorage(Connection connection, String location, boolean aggregateEndpoint) {
    this.connection = connection;
    this.location = location;
    this.aggregateEndpoint = new AggregateEndpoint(aggregateEndpoint);
    this.admin = new HBaseAdmin(this);
  }

  /**
   * Connects to the cluster {@code conf} names ({@code hbase.zookeeper.quorum} and the like);
   * {@code location} is how messages name it. Fails at once when ZooKeeper or the master cannot
   * be reached within the client's retries.
   */
  public static HBaseStorage connect(Configuration conf, String location) {
    Connection c;
    try {
      c = ConnectionFactory.createConnection(conf);
    } catch (IOException e) {
      throw new StorageUnavailableException("cannot connect to HBase at " + location + ": "
          + e.getMessage(), e);
    }
    HBaseStorage s = new HBaseStorage(c, location,
        conf.getBoolean(AggregateEndpoint.ENABLED_PROPERTY, true));
    try (org.apache.hadoop.hbase.client.Admin a = c.getAdmin()) {
      a.listNamespaces(); // reaches the master now, so a wrong address fails the connect
    } catch (IOException e) {
      s.close();
      throw new StorageUnavailableException("cannot reach HBase at " + location + ": "
          + e.getMessage(), e);
    }
    return s;
  }

  Connection connection() {
    if (closed) {
      throw new ClosedException("HBase storage " + location);
    }
    return connection;
  }

  /** HBase's aggregation endpoint, and which tables were found without it. */
  AggregateEndpoint aggregateEndpoint() {
    return aggregateEndpoint;
  }

  @Override
  public String location() {
    return "hbase:" + location;
  }

  @Override
  public Admin admin() {
    return admin;
  }

  @Override
  public Table table(TableName name) {
    return new HBaseTable(this, name);
  }

  /**
   * A transaction kept in the client ({@link ClientTransactions}): HBase makes one row atomic,
   * not several.
   */
  @Override
  public StorageTransaction begin(StorageTransaction.Isolation isolation) {
    return ClientTransactions.begin(this);
  }

  /** None: HBase reads each row atomically at its region's point. */
  @Override
  public ReadSnapshot snapshot() {
    return null;
  }

  /** HBase's own snapshots are the tool: a backup from a client could not take a cut. */
  @Override
  public io.basaltdb.storage.BackupReport backup(java.nio.file.Path dest,
      java.nio.file.Path previous, boolean copyOnly) {
    throw new UnsupportedOperationException("backups of an HBase database are HBase's own:"
        + " take a snapshot of each table (hbase shell: snapshot 'NS:TABLE', 'NAME') and copy it"
        + " with ExportSnapshot; see hbase-storage/doc/hbase.md, \"Backups\"");
  }

  /** Nothing to do: a write HBase acknowledged is in its region server's WAL. */
  @Override
  public void sync() {}

  @Override
  public <T> T extension(Class<T> type, Supplier<? extends T> create) {
    return type.cast(extensions.computeIfAbsent(type, k -> create.get()));
  }

  /** True: any client of the cluster may change its tables. */
  @Override
  public boolean sharedByProcesses() {
    return true;
  }

  /** False: Basalt makes tables with NEW_VERSION_BEHAVIOR ({@link HBaseForms#family}). */
  @Override
  public boolean markersHideLaterPuts() {
    return false;
  }

  /**
   * True for a table some family of which lacks NEW_VERSION_BEHAVIOR (made before Basalt set
   * it, or by another client); asked of the table's descriptor once per open storage.
   */
  @Override
  public boolean markersHideLaterPuts(TableName table) {
    return olderDeleteRule.computeIfAbsent(table, t -> {
      try (org.apache.hadoop.hbase.client.Admin a = connection().getAdmin()) {
        return !HBaseForms.newVersionBehavior(a.getDescriptor(HBaseForms.name(t)));
      } catch (IOException e) {
        throw HBaseErrors.translate("describe", t, e);
      }
    });
  }

  /** Forgets what {@link #markersHideLaterPuts(TableName)} found of {@code table} (its DDL). */
  void forgetDeleteRule(TableName table) {
    olderDeleteRule.remove(table);
  }

  @Override
  public boolean atomicAcrossRows() {
    return false;
  }

  @Override
  public void mutateAtomically(List<RowChange> changes) {
    throw new UnsupportedOperationException("HBase writes one row atomically, not several ("
        + location() + ")");
  }

  @Override
  public void mutateAfterRead(Table table, byte[] row, Durability durability,
      Function<Result, List<RowChange>> plan) {
    throw new UnsupportedOperationException("HBase writes one row atomically, not several ("
        + location() + ")");
  }

  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    Storage.closeExtensions(extensions.values());
    aggregateEndpoint.close();
    try {
      connection.close();
    } catch (IOException ignored) {
      // closing: nothing left to save
    }
  }
}
