package io.basaltdb.engine.recovery;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basaltdb.storage.Cell;
import io.basaltdb.storage.Compression;
import io.basaltdb.storage.CorruptionException;
import io.basaltdb.engine.Database;
import io.basaltdb.engine.EngineOptions;
import io.basaltdb.storage.FamilyOptions;
import io.basaltdb.storage.Get;
import io.basaltdb.storage.Put;
import io.basaltdb.storage.Result;
import io.basaltdb.storage.ResultScanner;
import io.basaltdb.storage.Scan;
import io.basaltdb.engine.Seeds;
import io.basaltdb.storage.TableName;
import io.basaltdb.engine.TestTables;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One bit flipped in one byte of every class of file the engine writes — WAL segments (header,
 * record headers, payloads, the last record), block files (data, index, bloom, info, trailer),
 * manifests, the catalog — and the database opened and read whole: each flip must be detected
 * (a {@link CorruptionException} at open or read) or leave every acknowledged row intact.
 * Never a silent loss, never a raw error. Small files are swept at every byte; block files and
 * segments at every byte of their structure and a seeded sample of their data.
 */
class BitFlipSweepTest {
  @TempDir Path tmp;

  private Path pristine() {
    Path dir = tmp.resolve("pristine");
    Map<String, FamilyOptions> f = new LinkedHashMap<>();
    f.put("a", FamilyOptions.DEFAULT.withBlockSize(1024).withCompression(Compression.LZ4));
    f.put("b", FamilyOptions.DEFAULT);
    try (Database db = TestTables.open(dir, EngineOptions.defaults(), f, "t")) {
      for (int i = 0; i < 300; i++) {
        Put p = new Put(String.format("row%04d", i).getBytes());
        p.addColumn("a".getBytes(), "q".getBytes(), ("value-" + i).repeat(3).getBytes());
        p.addColumn("b".getBytes(), "r".getBytes(), Integer.toString(i).getBytes());
        db.table("t").put(p);
        if (i == 199) {
          db.admin().flush(TableName.of("t")); // rows 0-199 in files, the rest only in the log
        }
      }
    }
    return dir;
  }

  private static Map<String, String> read(Path dir) {
    Map<String, String> out = new TreeMap<>();
    try (Database db = Database.open(dir, EngineOptions.defaults().withBlockCacheBytes(0));
        ResultScanner s = db.table("t").getScanner(new Scan())) {
      for (Result r : s) {
        StringBuilder b = new StringBuilder();
        for (Cell c : r.cells()) {
          b.append(new String(c.qualifier(), StandardCharsets.UTF_8)).append('=')
              .append(new String(c.value(), StandardCharsets.UTF_8)).append(';');
        }
        out.put(new String(r.row(), StandardCharsets.UTF_8), b.toString());
      }
      for (int i = 0; i < 300; i += 37) { // point reads consult (and check) the bloom blocks
        if (db.table("t").get(new Get(String.format("row%04d", i).getBytes())).isEmpty()) {
          out.remove(String.format("row%04d", i));
        }
      }
    }
    return out;
  }

  private static void copy(Path from, Path to) throws IOException {
    try (Stream<Path> s = Files.walk(from)) {
      for (Path p : s.toList()) {
        Path t = to.resolve(from.relativize(p).toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(t);
        } else {
          Files.copy(p, t);
        }
      }
    }
  }

  /** The offsets to flip in a file: all of a small one, structure plus a sample of a large one. */
  private static List<Long> offsets(Path file, long size, Random rnd) {
    List<Long> out = new ArrayList<>();
    String n = file.getFileName().toString();
    if (size <= 512) {
      for (long i = 0; i < size; i++) {
        out.add(i);
      }
      return out;
    }
    int head = n.endsWith(".log") ? 64 : 32; // segment header, first record's header
    for (long i = 0; i < head; i++) {
      out.add(i);
    }
    for (long i = Math.max(head, size - 400); i < size; i++) {
      out.add(i); // block file: trailer, info, root index; segment: the last records
    }
    for (int i = 0; i < 150; i++) {
      out.add(head + (long) rnd.nextInt((int) (size - head)));
    }
    return out;
  }

  @Test
  void everyFlippedBitIsDetectedOrHarmless() throws IOException {
    long seed = Seeds.seed("BitFlipSweepTest");
    Random rnd = new Random(seed);
    Path pristine = pristine();
    // read a copy: an open replays the log and flushes what it replayed, and the sweep must
    // flip the log's records as the writer left them (rows 200-299 are only there)
    Path reference = tmp.resolve("reference");
    copy(pristine, reference);
    Map<String, String> expected = read(reference);
    assertTrue(expected.size() == 300, "" + expected.size());
    List<Path> files;
    try (Stream<Path> s = Files.walk(pristine)) {
      files = s.filter(Files::isRegularFile)
          .filter(p -> !p.getFileName().toString().equals("LOCK")).sorted().toList();
    }
    Map<String, int[]> byClass = new TreeMap<>(); // class -> {flips, detected, harmless}
    int trial = 0;
    for (Path f : files) {
      String rel = pristine.relativize(f).toString();
      String cls = classOf(rel);
      long size = Files.size(f);
      for (long at : offsets(f, size, rnd)) {
        Path work = tmp.resolve("t" + trial++);
        copy(pristine, work);
        int bit = rnd.nextInt(8);
        try (RandomAccessFile raf = new RandomAccessFile(work.resolve(rel).toFile(), "rw")) {
          raf.seek(at);
          int b = raf.read();
          raf.seek(at);
          raf.write(b ^ (1 << bit));
        }
        int[] c = byClass.computeIfAbsent(cls, k -> new int[3]);
        c[0]++;
        String what = rel + " byte " + at + " bit " + bit + " (seed=" + seed + ")";
        try {
          Map<String, String> got = read(work);
          if (!got.equals(expected)) {
            throw new AssertionError("undetected damage lost or changed rows: " + what);
          }
          c[2]++;
        } catch (CorruptionException e) {
          c[1]++;
        } catch (RuntimeException e) {
          throw new AssertionError("raw " + e + " instead of a CorruptionException: " + what, e);
        }
        CrashCampaign.deleteTree(work);
      }
    }
    StringBuilder b = new StringBuilder("bit-flip sweep:");
    byClass.forEach((k, v) -> b.append(String.format(" %s %d flips (%d detected, %d harmless);",
        k, v[0], v[1], v[2])));
    System.out.println(b);
    for (String cls : List.of("wal", "block", "manifest", "catalog")) {
      assertTrue(byClass.containsKey(cls), "no " + cls + " file swept: " + byClass.keySet());
    }
  }

  private static String classOf(String rel) {
    if (rel.endsWith(".log")) {
      return "wal";
    }
    if (rel.endsWith(".blk")) {
      return "block";
    }
    if (rel.endsWith("MANIFEST")) {
      return "manifest";
    }
    if (rel.equals("CATALOG")) {
      return "catalog";
    }
    return "other:" + rel;
  }
}
