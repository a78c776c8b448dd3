package io.basaltdb.engine.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basaltdb.storage.CompareOperator;
import io.basaltdb.engine.Database;
import io.basaltdb.engine.EngineOptions;
import io.basaltdb.storage.FamilyOptions;
import io.basaltdb.storage.Get;
import io.basaltdb.storage.Put;
import io.basaltdb.storage.Result;
import io.basaltdb.storage.ResultScanner;
import io.basaltdb.storage.Scan;
import io.basaltdb.storage.Table;
import io.basaltdb.storage.TableDescriptor;
import io.basaltdb.storage.TableName;
import io.basaltdb.storage.filter.ByteComparator;
import io.basaltdb.storage.filter.Filter;
import io.basaltdb.storage.filter.FilterList;
import io.basaltdb.storage.filter.Filters;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Each stock filter and filter lists, over a table split into several regions. */
class FilterTest {
  static final byte[] F = b("f");
  static final byte[] G = b("g");

  @TempDir Path tmp;
  Database db;
  Table t;

  static byte[] b(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  @BeforeEach
  void load() {
    db = Database.open(tmp.resolve("db"), EngineOptions.defaults());
    db.admin().createTable(new TableDescriptor(TableName.of("t"), java.util.Map.of(
        "f", FamilyOptions.DEFAULT.withVersions(3, 0), "g", FamilyOptions.DEFAULT)),
        new byte[][] {b("row030"), b("row060")});
    t = db.table("t");
    for (int i = 0; i < 100; i++) {
      String r = String.format("row%03d", i);
      Put p = new Put(b(r)).addColumn(F, b("name"), b("name-" + i))
          .addColumn(F, b("kind"), b(i % 3 == 0 ? "fizz" : "plain"))
          .addColumn(G, b("c1"), b("x")).addColumn(G, b("c2"), b("y")).addColumn(G, b("d1"), b("z"));
      if (i % 10 != 0) {
        p.addColumn(F, b("score"), b(String.format("%03d", i)));
      }
      t.put(p);
      t.put(new Put(b(r)).addColumn(F, b("name"), 5, b("old-" + i)));
    }
    db.admin().flush(TableName.of("t"));
  }

  @AfterEach
  void close() {
    db.close();
  }

  private List<String> rows(Filter f) {
    List<String> out = new ArrayList<>();
    try (ResultScanner s = t.getScanner(new Scan().setFilter(f))) {
      for (Result r : s) {
        out.add(new String(r.row(), StandardCharsets.UTF_8));
      }
    }
    return out;
  }

  private List<Result> results(Scan scan) {
    List<Result> out = new ArrayList<>();
    try (ResultScanner s = t.getScanner(scan)) {
      s.forEach(out::add);
    }
    return out;
  }

  /**
   * The range and key filters remember where the last row fell: probed in any order (forward,
   * backward, at random) they answer as a fresh search would.
   */
  @Test
  void rangeAndKeyFiltersAnswerAsASearchInAnyOrder() {
    long seed = io.basaltdb.engine.Seeds.seed("FilterTest.rangeAndKeyFilters");
    java.util.Random rnd = new java.util.Random(seed);
    for (int round = 0; round < 50; round++) {
      java.util.TreeSet<Integer> starts = new java.util.TreeSet<>();
      int n = 1 + rnd.nextInt(40);
      while (starts.size() < n) {
        starts.add(rnd.nextInt(500) * 2);
      }
      List<Filters.RowRange> ranges = new ArrayList<>();
      List<int[]> bounds = new ArrayList<>();
      List<byte[]> keys = new ArrayList<>();
      Integer prev = null;
      for (int st : starts.descendingSet()) { // apart: each stops before the next starts
        int stop = prev == null ? st + 1 + rnd.nextInt(9) : Math.min(prev - 1, st + 1 + rnd.nextInt(9));
        ranges.add(new Filters.RowRange(b(String.format("r%04d", st)), b(String.format("r%04d", stop))));
        bounds.add(new int[] {st, stop});
        prev = st;
      }
      for (int st : starts) {
        keys.add(b(String.format("r%04d", st)));
      }
      Filter ranged = Filters.rowRanges(ranges);
      Filter keyed = Filters.rowKeys(keys);
      List<Integer> probes = new ArrayList<>();
      for (int i = 0; i < 1100; i++) {
        probes.add(i);
      }
      switch (round % 3) {
        case 0 -> { }
        case 1 -> java.util.Collections.reverse(probes);
        default -> java.util.Collections.shuffle(probes, rnd);
      }
      for (int p : probes) {
        byte[] row = b(String.format("r%04d", p));
        boolean in = false;
        Integer nextStart = starts.higher(p);
        for (int[] r : bounds) {
          in |= p >= r[0] && p < r[1];
        }
        assertEquals(!in, ranged.filterRowKey(row), "ranges at " + p + ", seed=" + seed);
        Integer floor = starts.floor(p);
        Integer hint = floor == null ? starts.first() : starts.higher(floor);
        byte[] h = ranged.nextRowHint(row);
        assertEquals(hint == null ? null : String.format("r%04d", hint),
            h == null ? null : new String(h, StandardCharsets.UTF_8), "hint at " + p + ", seed=" + seed);
        assertEquals(!starts.contains(p), keyed.filterRowKey(row), "keys at " + p + ", seed=" + seed);
        byte[] kh = keyed.nextRowHint(row);
        assertEquals(nextStart == null ? null : String.format("r%04d", nextStart),
            kh == null ? null : new String(kh, StandardCharsets.UTF_8), "key hint at " + p + ", seed=" + seed);
      }
    }
  }

  @Test
  void rowRangesSeekBetweenRanges() {
    Filter f = Filters.rowRanges(List.of(new Filters.RowRange(b("row010"), b("row012")),
        new Filters.RowRange(b("row095"), b("row097")), new Filters.RowRange(b("row050"), b("row051"))));
    assertEquals(List.of("row010", "row011", "row050", "row095", "row096"), rows(f));
    long before = db.blockCacheRequests();
    rows(Filters.rowRanges(List.of(new Filters.RowRange(b("row099"), b("row100")))));
    long reads = db.blockCacheRequests() - before;
    assertTrue(reads < 40, "a seek hint skips the rows before the range: " + reads + " block reads");
    // overlapping and touching ranges, and many of them (found by binary search)
    assertEquals(List.of("row010", "row011", "row012", "row013", "row020"), rows(Filters.rowRanges(
        List.of(new Filters.RowRange(b("row012"), b("row014")),
            new Filters.RowRange(b("row010"), b("row013")),
            new Filters.RowRange(b("row020"), b("row021"))))));
    List<Filters.RowRange> many = new java.util.ArrayList<>();
    List<String> want = new java.util.ArrayList<>();
    for (int i = 1; i < 100; i += 3) {
      String r = String.format("row%03d", i);
      many.add(new Filters.RowRange(b(r), b(r + "\0")));
      want.add(r);
    }
    java.util.Collections.shuffle(many, new java.util.Random(3));
    assertEquals(want, rows(Filters.rowRanges(many)));
    assertEquals(List.of("row005", "row007"), rows(Filters.rowKeys(List.of(b("row005"),
        b("row007"), b("row500")))));
  }

  @Test
  void prefixRowAndComparators() {
    assertEquals(10, rows(Filters.prefix(b("row04"))).size());
    assertEquals(List.of("row098", "row099"),
        rows(Filters.row(CompareOperator.GREATER, ByteComparator.binary(b("row097")))));
    assertEquals(List.of("row001", "row010", "row011"), rows(Filters.row(CompareOperator.EQUAL,
        ByteComparator.regex("^row0(01|1[01])$"))));
  }

  /**
   * A list decides a row at the first filter that decides it (ALL: the first excluding it;
   * ONE: the first keeping it) and asks the later ones nothing; the rows are those of asking
   * all.
   */
  @Test
  void aListStopsAtTheFirstFilterDecidingTheRow() {
    int[] asked = new int[1];
    Filter counting = new Filter() {
      @Override
      public boolean filterRow(List<io.basaltdb.storage.Cell> cells) {
        asked[0]++;
        return false;
      }
    };
    Filter high = Filters.singleColumnValue(F, b("score"), CompareOperator.GREATER_OR_EQUAL,
        ByteComparator.binary(b("097")), true);
    assertEquals(List.of("row097", "row098", "row099"),
        rows(new FilterList(FilterList.Operator.MUST_PASS_ALL, List.of(high, counting))));
    assertEquals(3, asked[0], "asked only for the rows the first filter kept");
    asked[0] = 0;
    List<String> any = rows(new FilterList(FilterList.Operator.MUST_PASS_ONE,
        List.of(high, counting)));
    assertEquals(100, any.size());
    assertEquals(97, asked[0], "not asked for the rows the first filter kept");
  }

  @Test
  void singleColumnValueWithAndWithoutMissing() {
    Filter big = Filters.singleColumnValue(F, b("score"), CompareOperator.GREATER_OR_EQUAL,
        ByteComparator.binary(b("095")), false);
    assertEquals(List.of("row000", "row010", "row020", "row030", "row040", "row050", "row060",
        "row070", "row080", "row090", "row095", "row096", "row097", "row098", "row099"), rows(big));
    Filter strict = Filters.singleColumnValue(F, b("score"), CompareOperator.GREATER_OR_EQUAL,
        ByteComparator.binary(b("095")), true);
    assertEquals(List.of("row095", "row096", "row097", "row098", "row099"), rows(strict));
  }

  @Test
  void cellFilters() {
    Result r = results(new Scan().setRowPrefix(b("row007"))
        .setFilter(Filters.columnPrefix(b("c")))).get(0);
    assertEquals(2, r.size());
    r = results(new Scan().setRowPrefix(b("row007"))
        .setFilter(Filters.columnRange(b("c2"), true, b("kind"), false))).get(0);
    assertEquals(List.of("c2", "d1"), qualifiers(r));
    r = results(new Scan().setRowPrefix(b("row007")).setFilter(Filters.value(
        CompareOperator.EQUAL, ByteComparator.substring("NAME")))).get(0);
    assertEquals(List.of("name"), qualifiers(r));
    r = results(new Scan().setRowPrefix(b("row007")).setFilter(Filters.family(
        CompareOperator.EQUAL, ByteComparator.binary(G)))).get(0);
    assertEquals(3, r.size());
    r = results(new Scan().setRowPrefix(b("row007")).setFilter(Filters.keyOnly())).get(0);
    assertEquals(0, r.cells().get(0).value().length);
    r = results(new Scan().setRowPrefix(b("row007")).readVersions(3)
        .setFilter(Filters.timestamps(5))).get(0);
    assertEquals("old-7", new String(r.getValue(F, b("name")), StandardCharsets.UTF_8));
  }

  @Test
  void firstKeyOnlyPageAndColumnPagination() {
    List<Result> all = results(new Scan().setFilter(Filters.firstKeyOnly()));
    assertEquals(100, all.size());
    assertTrue(all.stream().allMatch(r -> r.size() == 1));
    assertEquals(7, rows(Filters.page(7)).size());
    // a row's columns come family by family: f:kind, f:name, f:score, g:c1, g:c2, g:d1
    Result r = t.get(new Get(b("row007")).setFilter(Filters.columnPagination(2, 1)));
    assertEquals(List.of("name", "score"), qualifiers(r));
    r = t.get(new Get(b("row007")).readVersions(3).setFilter(Filters.columnCount(3)));
    assertEquals(List.of("kind", "name", "name", "score"), qualifiers(r),
        "columns are counted, not versions");
  }

  @Test
  void filterListsNest() {
    Filter fizzOrNinety = new FilterList(FilterList.Operator.MUST_PASS_ONE,
        Filters.singleColumnValue(F, b("kind"), CompareOperator.EQUAL, ByteComparator.binary(b("fizz")), true),
        Filters.prefix(b("row09")));
    Filter andLow = new FilterList(FilterList.Operator.MUST_PASS_ALL, fizzOrNinety,
        Filters.row(CompareOperator.LESS, ByteComparator.binary(b("row010"))));
    assertEquals(List.of("row000", "row003", "row006", "row009"), rows(andLow));
    List<String> either = rows(fizzOrNinety);
    assertEquals(34 + 10 - 4, either.size(), "fizz rows (34) plus row09x (10) minus overlap (4)");
    Filter rangesAnd = new FilterList(FilterList.Operator.MUST_PASS_ALL,
        Filters.rowRanges(List.of(new Filters.RowRange(b("row020"), b("row040")))),
        Filters.prefix(b("row03")));
    assertEquals(10, rows(rangesAnd).size());
  }

  private static List<String> qualifiers(Result r) {
    List<String> out = new ArrayList<>();
    r.cells().forEach(c -> out.add(new String(c.qualifier(), StandardCharsets.UTF_8)));
    return out;
  }
}
