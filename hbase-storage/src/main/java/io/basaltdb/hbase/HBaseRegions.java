package io.basaltdb.hbase;

import io.basaltdb.storage.RegionInfo;
import io.basaltdb.storage.TableName;
import io.basaltdb.storage.RegionStats;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.hadoop.hbase.HRegionLocation;
import org.apache.hadoop.hbase.RegionMetrics;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.Size;
import org.apache.hadoop.hbase.client.RegionLocator;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.filter.KeyOnlyFilter;

/**
 * The regions of HBase tables as the SQL layer sees them: row ranges from the region locator,
 * sizes from the region servers' metrics, and cell counts, which HBase does not keep. The
 * metrics come in whole megabytes, reported every few seconds, so a region under
 * {@link #COUNT_BELOW_BYTES} has its cells counted (a key-only scan, up to {@link #COUNT_AT_MOST});
 * a larger one is estimated as its bytes over the table's bytes per cell, sampled from its first
 * rows. A table's list is kept {@link #FRESH_NANOS} (planning asks per statement), dropped by
 * this storage's DDL on it; stale boundaries change parallelism, never results.
 */
final class HBaseRegions {
  static final long FRESH_NANOS = 10_000_000_000L;
  static final long COUNT_BELOW_BYTES = 16L << 20;
  static final int COUNT_AT_MOST = 200_000;

  private record Known(long at, List<RegionInfo> regions) {}

  private final HBaseStorage storage;
  private final Map<TableName, Known> known = new ConcurrentHashMap<>();
  private final Map<TableName, Double> bytesPerCell = new ConcurrentHashMap<>();

  HBaseRegions(HBaseStorage storage) {
    this.storage = storage;
  }

  void forget(TableName name) {
    known.remove(name);
    bytesPerCell.remove(name);
  }

  List<RegionInfo> of(TableName name) {
    Known k = known.get(name);
    if (k != null && System.nanoTime() - k.at() < FRESH_NANOS) {
      return k.regions();
    }
    List<RegionInfo> regions = List.copyOf(load(name));
    known.put(name, new Known(System.nanoTime(), regions));
    return regions;
  }

  private List<RegionInfo> load(TableName name) {
    org.apache.hadoop.hbase.TableName n = HBaseForms.name(name);
    List<HRegionLocation> locations;
    try (RegionLocator locator = storage.connection().getRegionLocator(n)) {
      locations = locator.getAllRegionLocations();
    } catch (IOException e) {
      throw HBaseErrors.translate("list regions", name, e);
    }
    Map<String, RegionMetrics> metrics = metrics(name, locations);
    List<RegionInfo> out = new ArrayList<>(locations.size());
    for (HRegionLocation l : locations) {
      org.apache.hadoop.hbase.client.RegionInfo r = l.getRegion();
      RegionMetrics m = metrics.get(r.getRegionNameAsString());
      long memstore = m == null ? 0 : bytes(m.getMemStoreSize());
      long files = m == null ? 0 : bytes(m.getStoreFileSize());
      long cells = cells(name, r, memstore + files);
      out.add(new RegionInfo(name, r.getEncodedName(), r.getStartKey(), r.getEndKey(),
          new RegionStats(r.getEncodedName(), memstore, m == null ? 0 : m.getStoreFileCount(),
              files, m == null ? 0 : m.getReadRequestCount(),
              m == null ? 0 : m.getWriteRequestCount(), 0, cells)));
    }
    return out;
  }

  private long cells(TableName name, org.apache.hadoop.hbase.client.RegionInfo r, long bytes) {
    if (bytes < COUNT_BELOW_BYTES) {
      long counted = count(name, r);
      if (counted <= COUNT_AT_MOST) {
        return counted;
      }
    }
    double perCell = bytesPerCell(name);
    return perCell <= 0 ? 0 : Math.round(bytes / perCell);
  }

  /** The region's cells, counting no further than one past {@link #COUNT_AT_MOST}. */
  private long count(TableName name, org.apache.hadoop.hbase.client.RegionInfo r) {
    Scan scan = new Scan().withStartRow(r.getStartKey()).withStopRow(r.getEndKey())
        .setFilter(new KeyOnlyFilter()).setCaching(10_000);
    long cells = 0;
    try (org.apache.hadoop.hbase.client.Table t = storage.connection()
        .getTable(HBaseForms.name(name)); ResultScanner s = t.getScanner(scan)) {
      for (Result row : s) {
        cells += row.size();
        if (cells > COUNT_AT_MOST) {
          break;
        }
      }
    } catch (IOException e) {
      throw HBaseErrors.translate("count cells", name, e);
    }
    return cells;
  }

  private static long bytes(Size s) {
    return (long) s.get(Size.Unit.BYTE);
  }

  private Map<String, RegionMetrics> metrics(TableName name, List<HRegionLocation> locations) {
    Set<ServerName> servers = new HashSet<>();
    for (HRegionLocation l : locations) {
      if (l.getServerName() != null) {
        servers.add(l.getServerName());
      }
    }
    Map<String, RegionMetrics> out = new HashMap<>();
    try (org.apache.hadoop.hbase.client.Admin a = storage.connection().getAdmin()) {
      for (ServerName s : servers) {
        for (RegionMetrics m : a.getRegionMetrics(s, HBaseForms.name(name))) {
          out.put(m.getNameAsString(), m);
        }
      }
    } catch (IOException e) {
      throw HBaseErrors.translate("region metrics", name, e);
    }
    return out;
  }

  /**
   * The table's stored bytes per cell, sampled from up to 500 of its first rows (key, family,
   * qualifier, value and HBase's per-cell overhead); kept once known.
   */
  private double bytesPerCell(TableName name) {
    Double k = bytesPerCell.get(name);
    if (k != null) {
      return k;
    }
    long cells = 0;
    long bytes = 0;
    try (org.apache.hadoop.hbase.client.Table t = storage.connection()
        .getTable(HBaseForms.name(name));
        ResultScanner s = t.getScanner(new Scan().setLimit(500).setCaching(500))) {
      for (Result r : s) {
        for (org.apache.hadoop.hbase.Cell c : r.rawCells()) {
          cells++;
          bytes += c.getRowLength() + c.getFamilyLength() + c.getQualifierLength()
              + c.getValueLength() + 20; // key lengths, timestamp and type as HBase stores them
        }
      }
    } catch (IOException e) {
      throw HBaseErrors.translate("sample", name, e);
    }
    if (cells == 0) {
      return 0; // an empty table is sampled again next time
    }
    double perCell = (double) bytes / cells;
    bytesPerCell.put(name, perCell);
    return perCell;
  }
}
