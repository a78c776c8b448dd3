package io.basaltdb.hbase;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basaltdb.storage.CheckAndMutate;
import io.basaltdb.storage.CompareOperator;
import io.basaltdb.storage.Delete;
import io.basaltdb.storage.Get;
import io.basaltdb.storage.Put;
import io.basaltdb.storage.RegionInfo;
import io.basaltdb.storage.Result;
import io.basaltdb.storage.ResultScanner;
import io.basaltdb.storage.Scan;
import io.basaltdb.storage.Table;
import io.basaltdb.storage.TableDescriptor;
import io.basaltdb.storage.TableName;
import io.basaltdb.storage.TableNotFoundException;
import io.basaltdb.storage.filter.FilterSpec;
import io.basaltdb.storage.filter.Filters;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The seam's HBase implementation on its own: the engine's client semantics over HBase. */
class HBaseStorageTest {
  private static byte[] b(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private static HBaseStorage storage() throws Exception {
    return HBaseStorage.connect(SharedCluster.get().configuration(), "test");
  }

  /**
   * A table Basalt makes has NEW_VERSION_BEHAVIOR (a delete hides only puts written before it,
   * as embedded): an older put written after a delete shows. A table another client made
   * without it keeps HBase's rule, says so per table, and a family Basalt adds to it follows it.
   */
  @Test
  void basaltsTablesLetLaterOlderPutsShowOthersKeepHBasesRule() throws Exception {
    try (HBaseStorage s = storage();
        org.apache.hadoop.hbase.client.Connection raw =
            org.apache.hadoop.hbase.client.ConnectionFactory.createConnection(
                SharedCluster.get().configuration());
        org.apache.hadoop.hbase.client.Admin a = raw.getAdmin()) {
      assertFalse(s.markersHideLaterPuts());
      s.admin().createTable(TableDescriptor.of("nvb_new", "f"));
      TableName made = TableName.of("nvb_new");
      assertFalse(s.markersHideLaterPuts(made));
      Table t = s.table(made);
      t.put(new Put(b("r")).addColumn(b("f"), b("q"), 100, b("1")));
      t.delete(new io.basaltdb.storage.Delete(b("r"), 200));
      t.put(new Put(b("r")).addColumn(b("f"), b("q"), 50, b("2")));
      assertEquals("2", new String(t.get(new Get(b("r"))).getValue(b("f"), b("q")),
          StandardCharsets.UTF_8));
      org.apache.hadoop.hbase.TableName old = org.apache.hadoop.hbase.TableName.valueOf(
          "default", "nvb_old");
      a.createTable(org.apache.hadoop.hbase.client.TableDescriptorBuilder.newBuilder(old)
          .setColumnFamily(org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder.of("f"))
          .build());
      TableName other = TableName.of("nvb_old");
      assertTrue(s.markersHideLaterPuts(other));
      s.admin().addFamily(other, "g", io.basaltdb.storage.FamilyOptions.DEFAULT);
      assertFalse(a.getDescriptor(old).getColumnFamily(b("g")).isNewVersionBehavior());
      assertTrue(s.markersHideLaterPuts(other));
      s.admin().deleteTable(other);
      s.admin().deleteTable(made);
    }
  }

  @Test
  void checkAndMutateReadsStoredOpGivenAsTheEngineDoes() throws Exception {
    try (HBaseStorage s = storage()) {
      s.admin().createTable(TableDescriptor.of("cam", "f"));
      Table t = s.table(TableName.of("cam"));
      t.put(new Put(b("r")).addColumn(b("f"), b("n"), b("5")).addColumn(b("f"), b("e"),
          new byte[0]));
      // stored "5" LESS given "7": true in the engine's reading
      assertTrue(t.checkAndMutate(CheckAndMutate.newBuilder(b("r"))
          .ifMatches(b("f"), b("n"), CompareOperator.LESS, b("7"))
          .build(new Put(b("r")).addColumn(b("f"), b("x"), b("1")))));
      assertFalse(t.checkAndMutate(CheckAndMutate.newBuilder(b("r"))
          .ifMatches(b("f"), b("n"), CompareOperator.GREATER, b("7"))
          .build(new Put(b("r")).addColumn(b("f"), b("x"), b("2")))));
      assertEquals("1", new String(t.get(new Get(b("r"))).getValue(b("f"), b("x")),
          StandardCharsets.UTF_8));
      // an empty stored value exists; a missing one does not
      assertTrue(t.checkAndMutate(CheckAndMutate.newBuilder(b("r")).ifExists(b("f"), b("e"))
          .build(new Put(b("r")).addColumn(b("f"), b("y"), b("1")))));
      assertFalse(t.checkAndMutate(CheckAndMutate.newBuilder(b("r")).ifExists(b("f"), b("no"))
          .build(new Put(b("r")).addColumn(b("f"), b("z"), b("1")))));
      assertFalse(t.checkAndMutate(CheckAndMutate.newBuilder(b("none"))
          .ifExists(b("f"), b("n")).build(new Put(b("none")).addColumn(b("f"), b("z"), b("1")))));
      assertTrue(t.checkAndMutate(CheckAndMutate.newBuilder(b("r"))
          .ifMatches(b("f"), b("e"), CompareOperator.EQUAL, new byte[0])
          .build(new Delete(b("r")).addColumns(b("f"), b("y")))));
      assertNull(t.get(new Get(b("r"))).getValue(b("f"), b("y")));
      assertTrue(t.checkAndMutate(CheckAndMutate.newBuilder(b("new"))
          .ifNotExists(b("f"), b("n")).build(new Put(b("new")).addColumn(b("f"), b("n"),
              b("1")))));
      assertFalse(t.checkAndMutate(CheckAndMutate.newBuilder(b("new"))
          .ifNotExists(b("f"), b("n")).build(new Put(b("new")).addColumn(b("f"), b("n"),
              b("2")))));
      s.admin().deleteTable(TableName.of("cam"));
    }
  }

  @Test
  void statedConditionsRunOnTheRegionServers() throws Exception {
    try (HBaseStorage s = storage()) {
      s.admin().createTable(TableDescriptor.of("spec", "f"));
      Table t = s.table(TableName.of("spec"));
      List<Put> puts = new ArrayList<>();
      for (long i = -3; i < 4; i++) {
        puts.add(new Put(b("r" + i)).addColumn(b("f"), b("n"),
            java.nio.ByteBuffer.allocate(8).putLong(i).array()));
      }
      puts.add(new Put(b("r-none")).addColumn(b("f"), b("other"), b("x")));
      t.put(puts);
      // a filter that passes everything, stating n < 1 as signed longs: what comes back is
      // what the region servers let through (a real filter's spec is never stricter than it)
      FilterSpec lessThanOne = new FilterSpec.ColumnValue(b("f"), b("n"), CompareOperator.LESS,
          java.nio.ByteBuffer.allocate(8).putLong(1).array(), FilterSpec.Order.SIGNED_LONG);
      assertEquals(List.of("r-1", "r-2", "r-3", "r0"), rowsOf(t, new Scan().setFilter(
          Filters.described(new io.basaltdb.storage.filter.Filter() {}, lessThanOne))));
      FilterSpec either = new FilterSpec.AnyOf(List.of(lessThanOne, new FilterSpec.ColumnValue(
          b("f"), b("other"), CompareOperator.EQUAL, b("x"), FilterSpec.Order.EQUALITY)));
      assertEquals(List.of("r-1", "r-2", "r-3", "r-none", "r0"), rowsOf(t, new Scan().setFilter(
          Filters.described(new io.basaltdb.storage.filter.Filter() {}, either))));
      s.admin().deleteTable(TableName.of("spec"));
    }
  }

  /**
   * A raw scan gives every stored cell, delete markers typed, versions newest first (a later
   * put of the same timestamp first); an index build resolves a raw row as a get reads it
   * ({@code IndexBuilder.resolved}), in the memstore and after a flush.
   */
  @Test
  void rawScansResolveAsGets() throws Exception {
    try (HBaseStorage s = storage()) {
      s.admin().createTable(TableDescriptor.of("raw", "f", "g"));
      TableName name = TableName.of("raw");
      Table t = s.table(name);
      t.put(new Put(b("a")).addColumn(b("f"), b("q"), 100, b("1")).addColumn(b("g"), b("q"), 100,
          b("g1")));
      t.put(new Put(b("a")).addColumn(b("f"), b("q"), 200, b("2")));
      t.put(new Put(b("b")).addColumn(b("f"), b("q"), 100, b("old")));
      t.put(new Put(b("b")).addColumn(b("f"), b("q"), 100, b("new"))); // same time, later
      t.put(new Put(b("c")).addColumn(b("f"), b("q"), 100, b("1")).addColumn(b("f"), b("r"), 100,
          b("1")));
      t.delete(new Delete(b("c")).addColumns(b("f"), b("r"), 150));
      t.put(new Put(b("d")).addColumn(b("f"), b("q"), 100, b("1")));
      t.delete(new Delete(b("d"), 300));
      t.put(new Put(b("d")).addColumn(b("f"), b("q"), 50, b("back"))); // after the delete: shows
      for (boolean flushed : new boolean[] {false, true}) {
        if (flushed) {
          s.admin().flush(name);
        }
        int markers = 0;
        try (ResultScanner rs = t.getRawScanner(new Scan())) {
          for (Result raw : rs) {
            for (io.basaltdb.storage.Cell c : raw.cells()) {
              markers += c.type().isDelete() ? 1 : 0;
            }
            assertEquals(t.get(new Get(raw.row())).cells().toString(),
                io.basaltdb.sql.index.IndexBuilder.resolved(t, raw).cells().toString(),
                new String(raw.row(), StandardCharsets.UTF_8) + (flushed ? ", flushed" : ""));
          }
        }
        assertTrue(markers >= 2, markers + " markers");
      }
      assertEquals("new", new String(t.get(new Get(b("b"))).getValue(b("f"), b("q")),
          StandardCharsets.UTF_8));
      s.admin().deleteTable(name);
    }
  }

  private static List<String> rowsOf(Table t, Scan scan) {
    List<String> rows = new ArrayList<>();
    try (ResultScanner rs = t.getScanner(scan)) {
      for (Result r : rs) {
        rows.add(new String(r.row(), StandardCharsets.UTF_8));
      }
    }
    return rows;
  }

  @Test
  void filtersRunOnFetchedRowsAndLimitsCountWhatPasses() throws Exception {
    try (HBaseStorage s = storage()) {
      s.admin().createTable(TableDescriptor.of("flt", "f"), new byte[][] {b("k5")});
      Table t = s.table(TableName.of("flt"));
      List<Put> puts = new ArrayList<>();
      for (int i = 0; i < 10; i++) {
        puts.add(new Put(b("k" + i)).addColumn(b("f"), b("v"), b(String.valueOf(i % 3))));
      }
      t.put(puts);
      List<String> rows = new ArrayList<>();
      try (ResultScanner rs = t.getScanner(new Scan().setLimit(3).setFilter(Filters.value(
          CompareOperator.EQUAL, io.basaltdb.storage.filter.ByteComparator.binary(b("0")))))) {
        for (Result r : rs) {
          rows.add(new String(r.row(), StandardCharsets.UTF_8));
        }
      }
      assertEquals(List.of("k0", "k3", "k6"), rows, "the limit counts rows the filter passed");
      rows.clear();
      try (ResultScanner rs = t.getScanner(new Scan().withStartRow(b("k1"))
          .withStopRow(b("k9")).setFilter(Filters.rowKeys(List.of(b("k2"), b("k7"), b("x")))))) {
        for (Result r : rs) {
          rows.add(new String(r.row(), StandardCharsets.UTF_8));
        }
      }
      assertEquals(List.of("k2", "k7"), rows);
      rows.clear();
      List<Filters.RowRange> ranges = List.of(new Filters.RowRange(b("k1"), b("k3")),
          new Filters.RowRange(b("k6"), b("k6\0")), new Filters.RowRange(b("k8"), null));
      for (boolean reversed : new boolean[] {false, true}) {
        Scan scan = reversed ? new Scan().setReversed(true) : new Scan();
        try (ResultScanner rs = t.getScanner(scan.setFilter(Filters.rowRanges(ranges)))) {
          for (Result r : rs) {
            rows.add(new String(r.row(), StandardCharsets.UTF_8));
          }
        }
      }
      assertEquals(List.of("k1", "k2", "k6", "k8", "k9", "k9", "k8", "k6", "k2", "k1"), rows,
          "row ranges forward, then reversed");
      rows.clear();
      try (ResultScanner rs = t.getScanner(new Scan().withStartRow(b("k8"), true)
          .withStopRow(b("k2"), false).setReversed(true))) {
        for (Result r : rs) {
          rows.add(new String(r.row(), StandardCharsets.UTF_8));
        }
      }
      assertEquals(List.of("k8", "k7", "k6", "k5", "k4", "k3"), rows, "reversed, across regions");
      long cells = 0;
      List<RegionInfo> regions = s.admin().regions(TableName.of("flt"));
      for (RegionInfo r : regions) {
        cells += r.stats().cellCount();
      }
      assertEquals(2, regions.size());
      assertEquals(10, cells, "small regions are counted, not estimated");
      s.admin().deleteTable(TableName.of("flt"));
      assertThrows(TableNotFoundException.class, () -> t.get(new Get(b("k1"))));
    }
  }
}
