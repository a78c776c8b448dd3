package io.basaltdb.hbase;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basaltdb.storage.CheckAndMutate;
import io.basaltdb.storage.Get;
import io.basaltdb.storage.Put;
import io.basaltdb.storage.Result;
import io.basaltdb.storage.ResultScanner;
import io.basaltdb.storage.Scan;
import io.basaltdb.storage.StorageUnavailableException;
import io.basaltdb.storage.Table;
import io.basaltdb.storage.TableDescriptor;
import io.basaltdb.storage.TableName;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.hadoop.hbase.HRegionLocation;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.client.CheckAndMutateResult;
import org.apache.hadoop.hbase.client.RegionLocator;
import org.junit.jupiter.api.Test;

/**
 * A batch of check-and-puts goes ASYNC_WAL behind one SYNC_WAL barrier per region: the batch's
 * outcomes are HBase's, the barrier is a delete marker no read shows, and a region that moved
 * during the batch has its rows read back, a lost one failing the batch as unknown.
 */
class WalBarrierTest {
  private static final byte[] F = b("f");
  private static final byte[] Q = b("q");

  private static byte[] b(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private static List<CheckAndMutate> inserts(int from, int to) {
    List<CheckAndMutate> cams = new ArrayList<>();
    for (int i = from; i < to; i++) {
      byte[] row = b(String.format("r%03d", i));
      cams.add(CheckAndMutate.newBuilder(row).ifNotExists(F, Q)
          .build(new Put(row).addColumn(F, Q, 1000 + i, b("v" + i))));
    }
    return cams;
  }

  /** A new table {@code name} of family {@code f}. */
  private static TableName created(HBaseStorage s, String name) {
    s.admin().createTable(TableDescriptor.of(name, "f"));
    return TableName.of(name);
  }

  @Test
  void batchKeepsItsOutcomesAndItsBarrierShowsInNoRead() throws Exception {
    try (HBaseStorage s = HBaseStorage.connect(SharedCluster.get().configuration(), "test")) {
      TableName name = created(s, "barrier_reads");
      Table t = s.table(name);
      t.put(new Put(b("r003")).addColumn(F, Q, 1, b("stored")));
      boolean[] applied = t.checkAndMutate(inserts(0, 10));
      for (int i = 0; i < 10; i++) {
        assertEquals(i != 3, applied[i], "row " + i);
      }
      assertArrayEquals(b("stored"), t.get(new Get(b("r003"))).getValue(F, Q));
      int rows = 0;
      try (ResultScanner rs = t.getScanner(new Scan())) {
        for (Result r = rs.next(); r != null; r = rs.next()) {
          assertEquals(1, r.size(), "only the put cell: " + r);
          rows++;
        }
      }
      assertEquals(10, rows);
      int markers = 0;
      try (var raw = s.connection().getTable(HBaseForms.name(name));
          var scanner = raw.getScanner(new org.apache.hadoop.hbase.client.Scan().setRaw(true)
              .readAllVersions())) {
        for (var r : scanner) {
          for (var c : r.rawCells()) {
            if (java.util.Arrays.equals(org.apache.hadoop.hbase.CellUtil.cloneQualifier(c),
                WalBarrier.QUALIFIER)) {
              assertEquals(WalBarrier.TIMESTAMP, c.getTimestamp());
              markers++;
            }
          }
        }
      }
      assertEquals(1, markers, "one region, one barrier");
      s.admin().deleteTable(name);
    }
  }

  /**
   * The locator says every region moved once the batch was sent: the applied rows are read
   * back. All there: the outcomes stand. One the table answered "applied" for but never wrote
   * (a region server that died with it unsynced): the batch fails, naming the row.
   */
  @Test
  void regionThatMovedHasItsRowsReadBack() throws Exception {
    try (HBaseStorage s = HBaseStorage.connect(SharedCluster.get().configuration(), "test")) {
      TableName name = created(s, "barrier_moves");
      var hname = HBaseForms.name(name);
      try (var raw = s.connection().getTable(hname);
          var locator = s.connection().getRegionLocator(hname)) {
        AtomicBoolean sent = new AtomicBoolean();
        RegionLocator moving = movingAfter(sent, locator);
        List<CheckAndMutate> kept = inserts(0, 5);
        boolean[] applied = WalBarrier.run(losing(raw, sent, -1), moving, name, kept,
            forms(kept));
        assertArrayEquals(new boolean[] {true, true, true, true, true}, applied);

        sent.set(false);
        List<CheckAndMutate> lost = inserts(5, 10);
        var e = assertThrows(StorageUnavailableException.class, () ->
            WalBarrier.run(losing(raw, sent, 2), moving, name, lost, forms(lost)));
        assertTrue(e.getMessage().contains("r007"), e.getMessage());
      }
      s.admin().deleteTable(name);
    }
  }

  private static List<org.apache.hadoop.hbase.client.CheckAndMutate> forms(
      List<CheckAndMutate> cams) throws Exception {
    List<org.apache.hadoop.hbase.client.CheckAndMutate> out = new ArrayList<>();
    for (CheckAndMutate cam : cams) {
      out.add(HBaseForms.checkAndMutate(cam));
    }
    return out;
  }

  /** {@code locator}, but on another server once {@code sent} is set. */
  private static RegionLocator movingAfter(AtomicBoolean sent, RegionLocator locator) {
    return (RegionLocator) Proxy.newProxyInstance(RegionLocator.class.getClassLoader(),
        new Class<?>[] {RegionLocator.class}, (p, m, args) -> {
          Object out = invoke(locator, m, args);
          if (sent.get() && out instanceof HRegionLocation l) {
            return new HRegionLocation(l.getRegion(),
                ServerName.valueOf("elsewhere.example", 16020, 1), l.getSeqNum() + 1);
          }
          return out;
        });
  }

  /**
   * {@code table}, whose batched check-and-mutate sets {@code sent} and, for {@code drop} >= 0,
   * leaves that action out yet answers it applied.
   */
  private static org.apache.hadoop.hbase.client.Table losing(
      org.apache.hadoop.hbase.client.Table table, AtomicBoolean sent, int drop) {
    return (org.apache.hadoop.hbase.client.Table) Proxy.newProxyInstance(
        org.apache.hadoop.hbase.client.Table.class.getClassLoader(),
        new Class<?>[] {org.apache.hadoop.hbase.client.Table.class}, (p, m, args) -> {
          if (m.getName().equals("checkAndMutate") && args[0] instanceof List<?> cams) {
            List<org.apache.hadoop.hbase.client.CheckAndMutate> kept = new ArrayList<>();
            for (int i = 0; i < cams.size(); i++) {
              if (i != drop) {
                kept.add((org.apache.hadoop.hbase.client.CheckAndMutate) cams.get(i));
              }
            }
            List<CheckAndMutateResult> out = new ArrayList<>(table.checkAndMutate(kept));
            if (drop >= 0) {
              out.add(drop, new CheckAndMutateResult(true, null));
            }
            sent.set(true);
            return out;
          }
          return invoke(table, m, args);
        });
  }

  private static Object invoke(Object target, java.lang.reflect.Method m, Object[] args)
      throws Throwable {
    try {
      return m.invoke(target, args);
    } catch (InvocationTargetException e) {
      throw e.getCause();
    }
  }
}
