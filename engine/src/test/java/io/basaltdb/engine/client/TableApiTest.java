package io.basaltdb.engine.client;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basaltdb.storage.Append;
import io.basaltdb.storage.CheckAndMutate;
import io.basaltdb.storage.CompareOperator;
import io.basaltdb.engine.Database;
import io.basaltdb.storage.Delete;
import io.basaltdb.engine.EngineOptions;
import io.basaltdb.storage.FamilyOptions;
import io.basaltdb.storage.Get;
import io.basaltdb.storage.Increment;
import io.basaltdb.storage.InvalidArgumentException;
import io.basaltdb.storage.Put;
import io.basaltdb.storage.Result;
import io.basaltdb.storage.ResultScanner;
import io.basaltdb.storage.RowMutations;
import io.basaltdb.storage.Scan;
import io.basaltdb.storage.Table;
import io.basaltdb.storage.TableDescriptor;
import io.basaltdb.storage.TableDisabledException;
import io.basaltdb.storage.TableName;
import io.basaltdb.storage.TableNotFoundException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The client API and admin over a pre-split table: what an HBase user would expect. */
class TableApiTest {
  static final byte[] F = b("f");
  static final byte[] G = b("g");
  static final byte[] Q = b("q");
  static final TableName T = TableName.of("t");

  @TempDir Path tmp;
  Database db;
  Table t;

  static byte[] b(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  static String s(byte[] b) {
    return b == null ? null : new String(b, StandardCharsets.UTF_8);
  }

  @BeforeEach
  void open() {
    db = Database.open(tmp.resolve("db"), EngineOptions.defaults().withMaxCellSizeBytes(4096));
    db.admin().createTable(TableDescriptor.of("t", "f", "g"),
        new byte[][] {b("d"), b("m"), b("t")});
    t = db.table(T);
  }

  @AfterEach
  void close() {
    db.close();
  }

  private void reopen() {
    db.close();
    db = Database.open(tmp.resolve("db"), EngineOptions.defaults().withMaxCellSizeBytes(4096));
    t = db.table(T);
  }

  private List<String> rows(Scan scan) {
    List<String> out = new ArrayList<>();
    try (ResultScanner sc = t.getScanner(scan)) {
      for (Result r : sc) {
        out.add(s(r.row()));
      }
    }
    return out;
  }

  /** A layer above keeps one object per type per open database, never shared across two. */
  @Test
  void extensionsArePerDatabaseAndPerType() {
    try (Database a = Database.openTemporary(EngineOptions.defaults());
        Database b = Database.openTemporary(EngineOptions.defaults())) {
      java.util.concurrent.atomic.AtomicLong counter =
          a.extension(java.util.concurrent.atomic.AtomicLong.class,
              java.util.concurrent.atomic.AtomicLong::new);
      counter.incrementAndGet();
      assertTrue(counter == a.extension(java.util.concurrent.atomic.AtomicLong.class,
          () -> { throw new AssertionError("made twice"); }));
      assertEquals(0, b.extension(java.util.concurrent.atomic.AtomicLong.class,
          java.util.concurrent.atomic.AtomicLong::new).get(), "b has its own");
      assertEquals("x", a.extension(String.class, () -> "x"), "one per type");
    }
  }

  @Test
  void preSplitTableHasRegionsAndScansAcrossThem() {
    assertEquals(4, db.admin().regions(T).size());
    for (String r : new String[] {"a", "c", "d", "k", "m", "s", "t", "z"}) {
      t.put(new Put(b(r)).addColumn(F, Q, b("v" + r)));
    }
    assertEquals(List.of("a", "c", "d", "k", "m", "s", "t", "z"), rows(new Scan()));
    assertEquals(List.of("c", "d", "k", "m"), rows(new Scan().withStartRow(b("b"))
        .withStopRow(b("m"), true)));
    assertEquals(List.of("k", "m", "s"), rows(new Scan().withStartRow(b("d"), false)
        .withStopRow(b("t"))));
    assertEquals(List.of("a", "c", "d"), rows(new Scan().setLimit(3)));
    assertEquals(List.of("s"), rows(new Scan().setRowPrefix(b("s"))));
    assertEquals(List.of("z", "t", "s", "m", "k", "d", "c", "a"), rows(new Scan().setReversed(true)));
    assertEquals(List.of("m", "k", "d"), rows(new Scan().setReversed(true).withStartRow(b("m"))
        .withStopRow(b("c"))));
    assertEquals(List.of("k", "d", "c"), rows(new Scan().setReversed(true)
        .withStartRow(b("m"), false).withStopRow(b("c"), true)));
    assertEquals(List.of("z", "t"), rows(new Scan().setReversed(true).setLimit(2)));
    reopen();
    assertEquals(4, db.admin().regions(T).size(), "regions survive a reopen");
    assertEquals("vk", s(t.get(new Get(b("k"))).getValue(F, Q)));
  }

  @Test
  void deletesOfEveryKind() {
    byte[] r = b("row");
    db.admin().modifyFamily(T, "f", FamilyOptions.DEFAULT.withVersions(5, 0));
    for (long ts = 1; ts <= 3; ts++) {
      t.put(new Put(r).addColumn(F, Q, ts, b("v" + ts)).addColumn(G, Q, ts, b("g" + ts)));
    }
    assertEquals(1, t.get(new Get(r).addFamily(G).readVersions(5)).size(), "g keeps one");
    assertEquals(3, t.get(new Get(r).addFamily(F).readVersions(5)).size(), "f keeps five");
    t.delete(new Delete(r).addColumn(F, Q, 2));
    assertEquals(List.of("v3", "v1"), values(t.get(new Get(r).addFamily(F).readVersions(5))));
    t.delete(new Delete(r).addColumn(F, Q)); // the newest
    assertEquals(List.of("v1"), values(t.get(new Get(r).addFamily(F).readVersions(5))));
    t.put(new Put(r).addColumn(F, b("other"), b("x")));
    t.delete(new Delete(r).addColumns(F, Q));
    assertEquals(List.of("x"), values(t.get(new Get(r).addFamily(F).readVersions(5))));
    t.delete(new Delete(r).addFamily(F));
    assertTrue(t.get(new Get(r).addFamily(F)).isEmpty());
    assertFalse(t.get(new Get(r)).isEmpty(), "family g is untouched");
    t.delete(new Delete(r));
    assertTrue(t.get(new Get(r)).isEmpty(), "a row delete removes every family");
    t.put(new Put(r).addColumn(F, Q, 1, b("after")));
    assertEquals("after", s(t.get(new Get(r)).getValue(F, Q)),
        "a put after a delete is visible, even at an older timestamp");
  }

  private static List<String> values(Result r) {
    List<String> out = new ArrayList<>();
    r.cells().forEach(c -> out.add(s(c.value())));
    return out;
  }

  @Test
  void timeRangesAndExactTimestamps() {
    db.admin().modifyFamily(T, "f", FamilyOptions.DEFAULT.withVersions(10, 0));
    byte[] r = b("e");
    for (long ts = 10; ts <= 50; ts += 10) {
      t.put(new Put(r).addColumn(F, Q, ts, b("v" + ts)));
    }
    assertEquals(List.of("v40", "v30", "v20"),
        values(t.get(new Get(r).setTimeRange(20, 50).readAllVersions())));
    assertEquals(List.of("v30"), values(t.get(new Get(r).setTimestamp(30))));
    assertEquals(List.of("v50", "v40"), values(t.get(new Get(r).readVersions(2))));
  }

  @Test
  void countersAppendsAndCheckAndMutate() {
    byte[] r = b("counter");
    assertEquals(5, t.incrementColumnValue(r, F, Q, 5));
    assertEquals(2, t.incrementColumnValue(r, F, Q, -3));
    Result two = t.increment(new Increment(r).addColumn(F, Q, 1).addColumn(G, Q, 7));
    assertEquals(3, Increment.toLong(two.getValue(F, Q)));
    assertEquals(7, Increment.toLong(two.getValue(G, Q)));
    t.put(new Put(r).addColumn(F, b("text"), b("abc")));
    InvalidArgumentException e = assertThrows(InvalidArgumentException.class,
        () -> t.incrementColumnValue(r, F, b("text"), 1));
    assertTrue(e.getMessage().contains("8-byte"), e.getMessage());
    assertEquals("abcdef", s(t.append(new Append(r).addColumn(F, b("text"), b("def")))
        .getValue(F, b("text"))));

    assertFalse(t.checkAndMutate(CheckAndMutate.newBuilder(r).ifNotExists(F, Q)
        .build(new Put(r).addColumn(F, b("x"), b("1")))));
    assertTrue(t.checkAndMutate(CheckAndMutate.newBuilder(r).ifNotExists(F, b("x"))
        .build(new Put(r).addColumn(F, b("x"), b("1")))));
    assertTrue(t.checkAndMutate(CheckAndMutate.newBuilder(r)
        .ifMatches(F, b("x"), CompareOperator.EQUAL, b("1"))
        .build(new Delete(r).addColumns(F, b("text")))));
    assertNull(t.get(new Get(r)).getValue(F, b("text")));
    assertFalse(t.checkAndMutate(CheckAndMutate.newBuilder(r)
        .ifMatches(F, b("x"), CompareOperator.GREATER, b("5"))
        .build(new Put(r).addColumn(F, b("x"), b("9")))));
    assertEquals("1", s(t.get(new Get(r)).getValue(F, b("x"))));
  }

  /** An increment applied only while a column exists (read-free SQL counters use it). */
  @Test
  void incrementIfAColumnExists() {
    byte[] r = b("row");
    assertFalse(t.checkAndMutate(CheckAndMutate.newBuilder(r).ifExists(F, Q)
        .build(new Increment(r).addColumn(F, Q, 5))), "no row: nothing applied");
    assertTrue(t.get(new Get(r)).isEmpty(), "and nothing written");
    t.put(new Put(r).addColumn(G, b("marker"), new byte[0]));
    assertFalse(t.checkAndMutate(CheckAndMutate.newBuilder(r).ifExists(F, Q)
        .build(new Increment(r).addColumn(F, Q, 5))), "the column is missing");
    assertNull(t.get(new Get(r)).getValue(F, Q), "a missing counter stays missing");
    assertTrue(t.checkAndMutate(CheckAndMutate.newBuilder(r).ifExists(G, b("marker"))
        .build(new Increment(r).addColumn(F, Q, 5))), "an empty value exists");
    assertTrue(t.checkAndMutate(CheckAndMutate.newBuilder(r).ifExists(F, Q)
        .build(new Increment(r).addColumn(F, Q, -2).addColumn(G, Q, 1))));
    assertEquals(3, Increment.toLong(t.get(new Get(r)).getValue(F, Q)));
    assertEquals(1, Increment.toLong(t.get(new Get(r)).getValue(G, Q)));
    assertThrows(InvalidArgumentException.class, () -> t.checkAndMutate(CheckAndMutate
        .newBuilder(r).ifExists(G, b("marker")).build(new Increment(r))));
    assertThrows(InvalidArgumentException.class,
        () -> t.increment(new Increment(r).addColumn(b("nope"), Q, 1)), "unknown family");
    t.increment(new Increment(r).addColumn(F, Q, Long.MAX_VALUE - 3));
    assertThrows(io.basaltdb.storage.CounterOverflowException.class,
        () -> t.increment(new Increment(r).addColumn(G, Q, 1).addColumn(F, Q, 1)));
    assertEquals(Long.MAX_VALUE, Increment.toLong(t.get(new Get(r)).getValue(F, Q)));
    assertEquals(1, Increment.toLong(t.get(new Get(r)).getValue(G, Q)), "nothing written");
    assertThrows(InvalidArgumentException.class, () -> t.checkAndMutate(CheckAndMutate
        .newBuilder(b("other")).ifExists(F, Q).build(new Increment(r).addColumn(F, Q, 1))),
        "another row's increment");
  }

  @Test
  void rowMutationsApplyInOrderAtomically() {
    byte[] r = b("rm");
    t.put(new Put(r).addColumn(F, b("old"), b("1")));
    RowMutations rm = new RowMutations(r)
        .add(new Put(r).addColumn(F, b("a"), b("1")))
        .add(new Delete(r).addColumns(F, b("old")))
        .add(new Put(r).addColumn(F, b("b"), b("2")))
        .add(new Delete(r).addColumns(F, b("b")));
    t.mutateRow(rm);
    Result res = t.get(new Get(r));
    assertEquals("1", s(res.getValue(F, b("a"))));
    assertNull(res.getValue(F, b("old")));
    assertNull(res.getValue(F, b("b")), "a put followed by a delete in one RowMutations is gone");
    assertThrows(InvalidArgumentException.class,
        () -> new RowMutations(r).add(new Put(b("other")).addColumn(F, Q, b("x"))));
  }

  @Test
  void batchRunsEveryKindOfAction() {
    byte[] r = b("batch");
    Object[] res = t.batch(List.of(new Put(r).addColumn(F, Q, b("1")),
        new Get(r), new Increment(r).addColumn(F, b("n"), 2),
        CheckAndMutate.newBuilder(r).ifEquals(F, Q, b("1")).build(new Put(r).addColumn(F, Q, b("2")))));
    assertEquals("1", s(((Result) res[1]).getValue(F, Q)));
    assertEquals(2, Increment.toLong(((Result) res[2]).getValue(F, b("n"))));
    assertEquals(Boolean.TRUE, res[3]);
    assertEquals("2", s(t.get(new Get(r)).getValue(F, Q)));
  }

  @Test
  void badInputIsRefusedAndChangesNothing() {
    t.put(new Put(b("k")).addColumn(F, Q, b("kept")));
    assertThrows(InvalidArgumentException.class, () -> new Put(new byte[0]));
    assertThrows(InvalidArgumentException.class, () -> new Put(null));
    InvalidArgumentException unknown = assertThrows(InvalidArgumentException.class,
        () -> t.put(new Put(b("k")).addColumn(F, Q, b("new")).addColumn(b("nope"), Q, b("x"))));
    assertTrue(unknown.getMessage().contains("nope"), unknown.getMessage());
    InvalidArgumentException big = assertThrows(InvalidArgumentException.class,
        () -> t.put(new Put(b("k")).addColumn(F, Q, new byte[5000])));
    assertTrue(big.getMessage().contains("maximum cell size"), big.getMessage());
    assertThrows(InvalidArgumentException.class, () -> t.get(new Get(b("k")).addFamily(b("nope"))));
    assertThrows(InvalidArgumentException.class, () -> t.put(new Put(b("k"))));
    assertEquals("kept", s(t.get(new Get(b("k"))).getValue(F, Q)), "nothing was applied");
    assertThrows(TableNotFoundException.class, () -> db.table("missing"));
    assertThrows(InvalidArgumentException.class, () -> TableName.of("bad/name"));
    assertThrows(InvalidArgumentException.class, () -> db.admin().createTable(
        TableDescriptor.of("u", "f"), new byte[][] {b("m"), b("d")}));
    assertThrows(InvalidArgumentException.class, () -> db.admin().createTable(
        TableDescriptor.of("t", "f")));
    assertThrows(InvalidArgumentException.class,
        () -> FamilyOptions.DEFAULT.withVersions(1, 2));
    InvalidArgumentException comp = assertThrows(InvalidArgumentException.class,
        () -> io.basaltdb.storage.Compression.parse("SNAPPY"));
    assertTrue(comp.getMessage().contains("SNAPPY"), comp.getMessage());
    assertEquals(io.basaltdb.storage.BloomType.ROWCOL, io.basaltdb.storage.BloomType.parse("rowcol"));
  }

  @Test
  void disableEnableTruncateDrop() {
    t.put(new Put(b("x")).addColumn(F, Q, b("1")).setDurability(io.basaltdb.storage.Durability.SKIP));
    db.admin().disableTable(T);
    assertThrows(TableDisabledException.class, () -> t.get(new Get(b("x"))));
    assertThrows(TableDisabledException.class, () -> t.put(new Put(b("x")).addColumn(F, Q, b("2"))));
    reopen();
    assertFalse(db.admin().isEnabled(T), "disabled survives a reopen");
    db.admin().enableTable(T);
    assertEquals("1", s(t.get(new Get(b("x"))).getValue(F, Q)), "data flushed on disable");
    db.admin().truncateTable(T, true);
    assertTrue(t.get(new Get(b("x"))).isEmpty());
    assertEquals(4, db.admin().regions(T).size(), "truncate kept the splits");
    db.admin().deleteTable(T);
    assertFalse(db.admin().tableExists(T));
    assertThrows(TableNotFoundException.class, () -> t.get(new Get(b("x"))));
  }

  @Test
  void familiesChangeOnline() {
    t.put(new Put(b("r")).addColumn(F, Q, b("f1")));
    db.admin().addFamily(T, "h", FamilyOptions.DEFAULT);
    t.put(new Put(b("r")).addColumn(b("h"), Q, b("h1")));
    reopen();
    assertEquals("h1", s(t.get(new Get(b("r"))).getValue(b("h"), Q)));
    db.admin().deleteFamily(T, "h");
    assertThrows(InvalidArgumentException.class, () -> t.get(new Get(b("r")).addFamily(b("h"))));
    assertEquals(1, t.get(new Get(b("r"))).size());
    reopen();
    assertEquals(List.of("f", "g"), List.copyOf(t.descriptor().families().keySet()));
  }

  @Test
  void aFamilyDroppedAndAddedAgainDoesNotGetItsOldLoggedDataBack() {
    t.put(new Put(b("r")).addColumn(F, Q, b("kept")));
    db.admin().addFamily(T, "h", FamilyOptions.DEFAULT);
    t.put(new Put(b("r")).addColumn(b("h"), Q, b("dropped"))); // in the log, never flushed
    db.admin().deleteFamily(T, "h");
    db.admin().addFamily(T, "h", FamilyOptions.DEFAULT);
    assertNull(t.get(new Get(b("r"))).getValue(b("h"), Q));
    reopen(); // replays the log: the old edit of h must not reach the new h
    assertNull(t.get(new Get(b("r"))).getValue(b("h"), Q));
    assertEquals("kept", s(t.get(new Get(b("r"))).getValue(F, Q)));
  }

  @Test
  void aTableDroppedAndCreatedAgainDoesNotGetItsOldLoggedDataBack() {
    t.put(new Put(b("r")).addColumn(F, Q, b("dropped"))); // in the log, never flushed
    TableDescriptor desc = t.descriptor();
    db.admin().disableTable(T);
    db.admin().deleteTable(T);
    db.admin().createTable(desc);
    t = db.table(T);
    assertTrue(t.get(new Get(b("r"))).isEmpty());
    reopen();
    assertTrue(t.get(new Get(b("r"))).isEmpty(), "the old table's logged row came back");
  }

  @Test
  void namespaces() {
    db.admin().createNamespace("ns1");
    db.admin().createTable(TableDescriptor.of("ns1:a", "f"));
    assertEquals(List.of(TableName.of("ns1:a")), db.admin().listTables("ns1"));
    assertThrows(InvalidArgumentException.class, () -> db.admin().dropNamespace("ns1"));
    assertThrows(InvalidArgumentException.class, () -> db.admin().dropNamespace("default"));
    assertThrows(TableNotFoundException.class,
        () -> db.admin().createTable(TableDescriptor.of("nope:a", "f")));
    db.admin().deleteTable(TableName.of("ns1:a"));
    db.admin().dropNamespace("ns1");
    reopen();
    assertEquals(List.of("default"), db.admin().listNamespaces());
  }

  @Test
  void temporaryDatabaseIsDeletedOnClose() {
    Database mem = Database.openTemporary(EngineOptions.defaults());
    Path where = mem.directory();
    mem.admin().createTable(TableDescriptor.of("m", "f"));
    mem.table("m").put(new Put(b("r")).addColumn(F, Q, b("v")));
    assertArrayEquals(b("v"), mem.table("m").get(new Get(b("r"))).getValue(F, Q));
    mem.close();
    assertFalse(Files.exists(where));
  }
}
