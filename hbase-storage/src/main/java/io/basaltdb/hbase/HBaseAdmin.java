package io.basaltdb.hbase;

import io.basaltdb.storage.Admin;
import io.basaltdb.storage.FamilyOptions;
import io.basaltdb.storage.InvalidArgumentException;
import io.basaltdb.storage.RegionInfo;
import io.basaltdb.storage.TableDescriptor;
import io.basaltdb.storage.TableName;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.hbase.NamespaceDescriptor;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptor;

/**
 * Basalt's {@link Admin} over HBase's: each call takes an HBase admin from the shared
 * connection and closes it (thread-safe). Creating a table in a namespace HBase does not have
 * yet creates the namespace first, as the embedded engine keeps {@code default} and
 * {@code system} always present. Regions, their sizes and cell estimates: {@link HBaseRegions}.
 */
final class HBaseAdmin implements Admin {
  private final HBaseStorage storage;
  private final HBaseRegions regions;

  HBaseAdmin(HBaseStorage storage) {
    this.storage = storage;
    this.regions = new HBaseRegions(storage);
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
    create(desc, splitKeys, true);
  }

  /** True: the table's families lack NEW_VERSION_BEHAVIOR (HBase's default rule). */
  @Override
  public boolean createTableHidingLaterPuts(TableDescriptor desc, byte[][] splitKeys) {
    create(desc, splitKeys, false);
    return true;
  }

  private void create(TableDescriptor desc, byte[][] splitKeys, boolean newVersionBehavior) {
    io.basaltdb.storage.Splits.check(splitKeys);
    org.apache.hadoop.hbase.client.TableDescriptor d =
        HBaseForms.descriptor(desc, newVersionBehavior);
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
    regions.forget(desc.name());
    storage.forgetDeleteRule(desc.name());
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
    regions.forget(name);
    storage.forgetDeleteRule(name);
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
    regions.forget(name);
  }

  @Override
  public void addFamily(TableName name, String family, FamilyOptions options) {
    TableName.checkName("column family", family);
    call("add family " + family, name, a -> {
      if (a.getDescriptor(HBaseForms.name(name)).hasColumnFamily(HBaseForms.utf8(family))) {
        throw new InvalidArgumentException("table " + name + " already has column family "
            + family);
      }
      // a table made without NEW_VERSION_BEHAVIOR keeps one rule: the new family as the others
      a.addColumnFamily(HBaseForms.name(name), HBaseForms.family(family, options,
          HBaseForms.newVersionBehavior(a.getDescriptor(HBaseForms.name(name)))));
      return null;
    });
    storage.forgetDeleteRule(name);
  }

  @Override
  public void modifyFamily(TableName name, String family, FamilyOptions options) {
    call("modify family " + family, name, a -> {
      var current = a.getDescriptor(HBaseForms.name(name))
          .getColumnFamily(HBaseForms.utf8(family));
      a.modifyColumnFamily(HBaseForms.name(name), HBaseForms.family(family, options,
          current != null && current.isNewVersionBehavior())); // its delete rule kept
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
    storage.forgetDeleteRule(name);
  }

  // ------------------------------------------------------------ regions

  @Override
  public List<RegionInfo> regions(TableName name) {
    return regions.of(name);
  }

  @Override
  public int split(TableName name) {
    regions.forget(name);
    int before = regions(name).size();
    call("split", name, a -> {
      a.split(HBaseForms.name(name));
      return null;
    });
    regions.forget(name);
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
