package io.basaltdb.engine.recovery;

import io.basaltdb.engine.TestTables;
import io.basaltdb.storage.Cell;
import io.basaltdb.engine.Database;
import io.basaltdb.engine.EngineOptions;
import io.basaltdb.storage.FamilyOptions;
import io.basaltdb.storage.Put;
import io.basaltdb.storage.Table;
import io.basaltdb.storage.TableName;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * The child process of {@link CrashTest}: writes multi-cell row mutations with SYNC
 * durability from several threads, with tiny flush and split sizes so flushes, compactions and
 * region splits run all the time, and prints {@code ACK <row> <n>} after each write returns,
 * until killed.
 * Usage: {@code CrashWriter <dir> <first n> <seed>}.
 */
public final class CrashWriter {
  static final int ROWS = 2000; // enough live data to split (flushes keep one version of a row)

  private CrashWriter() {}

  static Map<String, FamilyOptions> families() {
    Map<String, FamilyOptions> f = new LinkedHashMap<>();
    f.put("f1", FamilyOptions.DEFAULT.withBlockSize(1024));
    f.put("f2", FamilyOptions.DEFAULT.withVersions(2, 0));
    return f;
  }

  static EngineOptions options() {
    return EngineOptions.defaults().withFlushSizeBytes(32 * 1024).withCompactionFiles(3, 5)
        .withWalRollBytes(64 * 1024).withRegionSplitBytes(96 * 1024);
  }

  static Database open(Path dir) {
    return TestTables.open(dir, options(), families(), "r");
  }

  static byte[] row(int i) {
    return String.format("row%04d", i).getBytes();
  }

  /** Every mutation writes the same value to three cells in two families. */
  static List<Cell> mutation(byte[] row, long n) {
    byte[] v = Long.toString(n).getBytes();
    return List.of(Cell.put(row, "f1".getBytes(), "a".getBytes(), Cell.LATEST_TIMESTAMP, v),
        Cell.put(row, "f1".getBytes(), "b".getBytes(), Cell.LATEST_TIMESTAMP, v),
        Cell.put(row, "f2".getBytes(), "c".getBytes(), Cell.LATEST_TIMESTAMP, v));
  }

  public static void main(String[] args) throws Exception {
    Path dir = Path.of(args[0]);
    long first = Long.parseLong(args[1]);
    long seed = Long.parseLong(args[2]);
    PrintStream out = new PrintStream(new java.io.FileOutputStream(java.io.FileDescriptor.out), false);
    Database db = open(dir);
    Table table = db.table("r");
    out.println("OPEN");
    out.flush();
    int threadCount = 4;
    Thread[] threads = new Thread[threadCount];
    for (int t = 0; t < threadCount; t++) {
      int id = t;
      Random rnd = new Random(seed + t);
      threads[t] = new Thread(() -> {
        // each thread owns the rows with row % threads == id, so a row's values grow in the
        // order its writes commit
        for (long n = first + id; ; n += threadCount) {
          int row = rnd.nextInt(ROWS / threadCount) * threadCount + id;
          Put p = new Put(row(row));
          for (Cell c : mutation(row(row), n)) {
            p.addColumn(c.family(), c.qualifier(), c.value());
          }
          table.put(p);
          synchronized (out) {
            out.println("ACK " + row + " " + n);
            out.flush();
          }
          if (rnd.nextInt(500) == 0) {
            db.admin().compact(TableName.of("r"));
          }
        }
      });
      threads[t].start();
    }
    threads[0].join();
  }
}
