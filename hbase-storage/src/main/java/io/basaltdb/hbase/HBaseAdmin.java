package io.basaltdb.hbase;

import io.basaltdb.engine.Admin;
import io.basaltdb.engine.FamilyOptions;
import io.basaltdb.engine.InvalidArgumentException;
import io.basaltdb.engine.RegionInfo;
import io.basaltdb.engine.TableDescriptor;
import io.basaltdb.engine.TableName;
import io.basaltdb.engine.region.RegionStats;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hbase.NamespaceDescriptor;
import org.apache.hadoop.hbase.RegionMetrics;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.Size;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptor;
import org.apache.hadoop.hbase.client.RegionLocator;
import org.apache.hadoop.hbase.HRegionLocation;

/**
 * Basalt's {@link Admin} over HBase's: each call takes an HBase admin from the shared
 * connection and closes it (thread-safe). Creating a table in a namespace HBase does not have
 * yet creates the namespace first, as the embedded engine keeps {@code default} and
 * {@code system} always present. Region sizes come from the region servers' metrics (reported
 * every few seconds, so a fresh load shows late); HBase keeps no cell counts, so a region's
 * cell count is estimated from its bytes and the table's bytes per cell sampled from its first
 * rows.
 */
final class HBaseAdmin implements Admin {
  private final HBaseStorage storage;
  /** Sampled bytes per cell by table (a table's first rows; refreshed by a later sample). */
  private final Map<TableName, Double> bytesPerCell = new java.util.concurrent.ConcurrentHashMap<>();

  HBaseAdmin(HBaseStorage storage) {
    this.storage = storage;
  }

  private interface Call<R> {
    R run(org.apache.hadoop.hbase.client.Admin a) throws IOException;
  }

  private <R> R call(String what, TableName table, Call<R> op) {
    try (org.apache.hadoop.hbase.client.Admin a = storage.connection().getAdmin()) {
      return op.run(a);
    } catch (IOException e) {
      throw HBaseErrors.translate(what, table, e);
    }
  }

  // ------------------------------------------------------------ namespaces

  @Override
  public void createNamespace(String namespace) {
    TableName.checkName("namespace", namespace);
    String ns = HBaseForms.namespace(namespace);
    call("create namespace " + namespace, null, a -> {
      a.createNamespace(NamespaceDescriptor.create(ns).build());
      return null;
    });
  }

  @Override
  public void dropNamespace(String namespace) {
    if (namespace.equals(TableName.DEFAULT_NAMESPACE)) {
      throw new InvalidArgumentException("the default namespace cannot be dropped");
    }
    List<TableName> tables = listTables(namespace);
    if (!tables.isEmpty()) {
      throw new InvalidArgumentException("namespace " + namespace + " is not empty: it holds "
          + tables);
    }
    call("drop namespace " + namespace, null, a -> {
      a.deleteNamespace(HBaseForms.namespace(namespace));
      return null;
    });
  }

  @Override
  public List<String> listNamespaces() {
    return call("list namespaces", null, a -> {
      List<String> out = new ArrayList<>();
      for (String ns : a.listNamespaces()) {
        if (!ns.equals("hbase")) {
          out.add(ns.equals(HBaseForms.HBASE_SYSTEM) ? HBaseForms.SYSTEM : ns);
        }
      }
      if (!out.contains(HBaseForms.SYSTEM)) {
        out.add(HBaseForms.SYSTEM); // made on its first table, as the engine always has it
      }
      out.sort(null);
      return out;
    });
  }

  private void ensureNamespace(org.apache.hadoop.hbase.client.Admin a, String ns)
      throws IOException {
    if (Arrays.asList(a.listNamespaces()).contains(ns)) {
      return;
    }
    try {
      a.createNamespace(NamespaceDescriptor.create(ns).build());
    } catch (org.apache.hadoop.hbase.NamespaceExistException raced) {
      // another client made it first
    }
  }

  // ------------------------------------------------------------ tables

  @Override
  public void createTable(TableDescriptor desc) {
    createTable(desc, new byte[0][]);
  }

  @Override
  public void createTable(TableDescriptor desc, byte[][] splitKeys) {
    if (splitKeys == null) {
      throw new InvalidArgumentException("split keys must not be null");
    }
    for (int i = 0; i < splitKeys.length; i++) {
      if (splitKeys[i] == null || splitKeys[i].length == 0) {
        throw new InvalidArgumentException("split key #" + i + " is null or empty");
      }
      if (i > 0 && Arrays.compareUnsigned(splitKeys[i - 1], splitKeys[i]) >= 0) {
        throw new InvalidArgumentException("split keys must be strictly ascending: #" + (i - 1)
            + " and #" + i);
      }
    }
    org.apache.hadoop.hbase.client.TableDescriptor d = HBaseForms.descriptor(desc);
    call("create", desc.name(), a -> {
      String ns = d.getTableName().getNamespaceAsString();
      if (ns.equals(HBaseForms.HBASE_SYSTEM) || desc.name().namespace().equals(
          TableName.DEFAULT_NAMESPACE)) {
        ensureNamespace(a, ns);
      }
      if (a.tableExists(d.getTableName())) {
        throw new InvalidArgumentException("table " + desc.name() + " already exists");
      }
      if (splitKeys.length == 0) {
        a.createTable(d);
      } else {
        a.createTable(d, splitKeys);
      }
      return null;
    });
  }

  @Override
  public boolean tableExists(TableName name) {
    return call("exists", name, a -> a.tableExists(HBaseForms.name(name)));
  }

  @Override
  public List<TableName> listTables() {
    return call("list tables", null, a -> {
      List<TableName> out = new ArrayList<>();
      for (org.apache.hadoop.hbase.TableName n : a.listTableNames()) {
        TableName b = HBaseForms.name(n);
        if (b != null) {
          out.add(b);
        }
      }
      out.sort(null);
      return out;
    });
  }

  @Override
  public TableDescriptor describe(TableName name) {
    return call("describe", name,
        a -> HBaseForms.descriptor(name, a.getDescriptor(HBaseForms.name(name))));
  }

  @Override
  public boolean isEnabled(TableName name) {
    return call("is enabled", name, a -> a.isTableEnabled(HBaseForms.name(name)));
  }

  @Override
  public void disableTable(TableName name) {
    call("disable", name, a -> {
      a.disableTable(HBaseForms.name(name));
      return null;
    });
  }

  @Override
  public void enableTable(TableName name) {
    call("enable", name, a -> {
      a.enableTable(HBaseForms.name(name));
      return null;
    });
  }

  @Override
  public void deleteTable(TableName name) {
    call("drop", name, a -> {
      org.apache.hadoop.hbase.TableName n = HBaseForms.name(name);
      if (a.isTableEnabled(n)) {
        a.disableTable(n); // HBase drops only disabled tables; Basalt drops either
      }
      a.deleteTable(n);
      return null;
    });
    bytesPerCell.remove(name);
  }

  @Override
  public void truncateTable(TableName name, boolean preserveSplits) {
    call("truncate", name, a -> {
      org.apache.hadoop.hbase.TableName n = HBaseForms.name(name);
      if (a.isTableEnabled(n)) {
        a.disableTable(n);
      }
      a.truncateTable(n, preserveSplits); // leaves it enabled
      return null;
    });
  }

  @Override
  public void addFamily(TableName name, String family, FamilyOptions options) {
    TableName.checkName("column family", family);
    call("add family " + family, name, a -> {
      if (a.getDescriptor(HBaseForms.name(name)).hasColumnFamily(HBaseForms.utf8(family))) {
        throw new InvalidArgumentException("table " + name + " already has column family "
            + family);
      }
      a.addColumnFamily(HBaseForms.name(name), HBaseForms.family(family, options));
      return null;
    });
  }

  @Override
  public void modifyFamily(TableName name, String family, FamilyOptions options) {
    call("modify family " + family, name, a -> {
      a.modifyColumnFamily(HBaseForms.name(name), HBaseForms.family(family, options));
      return null;
    });
  }

  @Override
  public void deleteFamily(TableName name, String family) {
    call("drop family " + family, name, a -> {
      ColumnFamilyDescriptor[] fs = a.getDescriptor(HBaseForms.name(name)).getColumnFamilies();
      if (fs.length == 1 && fs[0].getNameAsString().equals(family)) {
        throw new InvalidArgumentException("cannot remove " + family + ", the last family of "
            + name);
      }
      a.deleteColumnFamily(HBaseForms.name(name), HBaseForms.utf8(family));
      return null;
    });
  }

  // ------------------------------------------------------------ regions

  @Override
  public List<RegionInfo> regions(TableName name) {
    org.apache.hadoop.hbase.TableName n = HBaseForms.name(name);
    List<HRegionLocation> locations;
    try (RegionLocator locator = storage.connection().getRegionLocator(n)) {
      locations = locator.getAllRegionLocations();
    } catch (IOException e) {
      throw HBaseErrors.translate("list regions", name, e);
    }
    Map<String, RegionMetrics> metrics = metrics(name, locations);
    double perCell = bytesPerCell(name);
    List<RegionInfo> out = new ArrayList<>(locations.size());
    for (HRegionLocation l : locations) {
      org.apache.hadoop.hbase.client.RegionInfo r = l.getRegion();
      RegionMetrics m = metrics.get(r.getRegionNameAsString());
      long memstore = m == null ? 0 : bytes(m.getMemStoreSize());
      long files = m == null ? 0 : bytes(m.getStoreFileSize());
      long cells = perCell <= 0 ? 0 : Math.round((memstore + files) / perCell);
      out.add(new RegionInfo(name, r.getEncodedName(), r.getStartKey(), r.getEndKey(),
          new RegionStats(r.getEncodedName(), memstore, m == null ? 0 : m.getStoreFileCount(),
              files, m == null ? 0 : m.getReadRequestCount(),
              m == null ? 0 : m.getWriteRequestCount(), 0, cells)));
    }
    return out;
  }

  private static long bytes(Size s) {
    return (long) s.get(Size.Unit.BYTE);
  }

  private Map<String, RegionMetrics> metrics(TableName name, List<HRegionLocation> locations) {
    return call("region metrics", name, a -> {
      Map<String, RegionMetrics> out = new HashMap<>();
      java.util.Set<ServerName> servers = new java.util.HashSet<>();
      for (HRegionLocation l : locations) {
        if (l.getServerName() != null) {
          servers.add(l.getServerName());
        }
      }
      for (ServerName s : servers) {
        for (RegionMetrics m : a.getRegionMetrics(s, HBaseForms.name(name))) {
          out.put(m.getNameAsString(), m);
        }
      }
      return out;
    });
  }

  /**
   * The table's stored bytes per cell, sampled from up to 500 of its first rows (key, family,
   * qualifier, value and HBase's per-cell overhead): a region's cell count is its bytes divided
   * by this. Kept per table until the table is dropped.
   */
  private double bytesPerCell(TableName name) {
    Double known = bytesPerCell.get(name);
    if (known != null) {
      return known;
    }
    double sampled = sampleBytesPerCell(name);
    if (sampled > 0) {
      bytesPerCell.put(name, sampled); // an empty table is sampled again next time
    }
    return sampled;
  }

  private double sampleBytesPerCell(TableName n) {
    {
      try (org.apache.hadoop.hbase.client.Table t = storage.connection()
          .getTable(HBaseForms.name(n));
          org.apache.hadoop.hbase.client.ResultScanner s = t.getScanner(
              new org.apache.hadoop.hbase.client.Scan().setLimit(500).setCaching(500))) {
        long cells = 0;
        long bytes = 0;
        for (org.apache.hadoop.hbase.client.Result r : s) {
          for (org.apache.hadoop.hbase.Cell c : r.rawCells()) {
            cells++;
            bytes += c.getRowLength() + c.getFamilyLength() + c.getQualifierLength()
                + c.getValueLength() + 20; // key lengths, timestamp and type as HBase stores them
          }
        }
        return cells == 0 ? 0.0 : (double) bytes / cells;
      } catch (IOException e) {
        throw HBaseErrors.translate("sample", n, e);
      }
    }
  }

  @Override
  public int split(TableName name) {
    int before = regions(name).size();
    call("split", name, a -> {
      a.split(HBaseForms.name(name));
      return null;
    });
    return Math.max(0, regions(name).size() - before);
  }

  @Override
  public void flush(TableName name) {
    call("flush", name, a -> {
      a.flush(HBaseForms.name(name));
      return null;
    });
  }

  @Override
  public void compact(TableName name) {
    call("compact", name, a -> {
      a.compact(HBaseForms.name(name));
      return null;
    });
  }

  @Override
  public void majorCompact(TableName name) {
    call("major compact", name, a -> {
      a.majorCompact(HBaseForms.name(name));
      return null;
    });
  }
}
