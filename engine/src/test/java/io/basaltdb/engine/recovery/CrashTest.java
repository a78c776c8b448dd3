package io.basaltdb.engine.recovery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basaltdb.storage.Cell;
import io.basaltdb.engine.Database;
import io.basaltdb.engine.Seeds;
import io.basaltdb.storage.Get;
import io.basaltdb.storage.Table;
import io.basaltdb.storage.TableName;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kills a writing child JVM with SIGKILL at random moments, several times, and checks after
 * each kill that every acknowledged write survived and that no row mutation is half applied.
 */
class CrashTest {
  @TempDir Path tmp;

  @Test
  void acknowledgedWritesSurviveKills() throws Exception {
    long seed = Seeds.seed("CrashTest");
    Random rnd = new Random(seed);
    Path dir = tmp.resolve("db");
    Map<Integer, Long> acked = new HashMap<>();
    long nextN = 1;
    int rounds = 6;
    long totalAcks = 0;
    for (int round = 0; round < rounds; round++) {
      List<String> cmd = new ArrayList<>(List.of(
          Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx256m",
          "-cp", System.getProperty("java.class.path"), CrashWriter.class.getName(),
          dir.toString(), Long.toString(nextN), Long.toString(seed + round)));
      Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.INHERIT).start();
      BufferedReader in = new BufferedReader(new InputStreamReader(p.getInputStream()));
      String first = in.readLine();
      assertEquals("OPEN", first, "child failed to open the database (round " + round + ")");
      long killAt = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(300 + rnd.nextInt(1500));
      List<String> lines = new ArrayList<>();
      Thread pump = new Thread(() -> {
        try {
          for (String l = in.readLine(); l != null; l = in.readLine()) {
            synchronized (lines) {
              lines.add(l);
            }
          }
        } catch (java.io.IOException ignored) {
          // the child died
        }
      });
      pump.start();
      while (System.nanoTime() < killAt && p.isAlive()) {
        Thread.sleep(10);
      }
      assertTrue(p.isAlive(), "child died by itself in round " + round);
      p.destroyForcibly(); // SIGKILL
      p.waitFor();
      pump.join();
      long acksThisRound = 0;
      synchronized (lines) {
        for (String l : lines) {
          String[] parts = l.split(" ");
          if (parts.length == 3 && parts[0].equals("ACK")) {
            int row = Integer.parseInt(parts[1]);
            long n = Long.parseLong(parts[2]);
            acked.merge(row, n, Math::max);
            nextN = Math.max(nextN, n + 1);
            acksThisRound++;
          }
        }
      }
      totalAcks += acksThisRound;
      nextN += 100_000; // writes in flight when killed may have landed: stay above them
      verify(dir, acked, "round " + round + " seed=" + seed);
      System.out.println("CrashTest round " + round + ": " + acksThisRound
          + " acknowledged writes, all present after SIGKILL");
    }
    assertTrue(totalAcks > 100, "the child should have written something: " + totalAcks);
    System.out.println("CrashTest: up to " + regionsSeen + " regions after splits");
    assertTrue(regionsSeen > 1, "the child's table should have split");
  }

  private static int regionsSeen;

  private static void verify(Path dir, Map<Integer, Long> acked, String where) {
    try (Database db = CrashWriter.open(dir)) {
      Table t = db.table("r");
      regionsSeen = Math.max(regionsSeen, db.regions(TableName.of("r")).size());
      for (int row = 0; row < CrashWriter.ROWS; row++) {
        List<Cell> cells = t.get(new Get(CrashWriter.row(row))).cells();
        Long mustHave = acked.get(row);
        if (cells.isEmpty()) {
          assertEquals(null, mustHave, "row " + row + " lost its acknowledged write " + mustHave
              + " at " + where);
          continue;
        }
        assertEquals(3, cells.size(), "row " + row + " half applied: " + cells + " at " + where);
        String v = new String(cells.get(0).value());
        for (Cell c : cells) {
          assertEquals(v, new String(c.value()), "row " + row + " mixes two mutations: " + cells
              + " at " + where);
        }
        if (mustHave != null) {
          assertTrue(Long.parseLong(v) >= mustHave, "row " + row + " has " + v
              + " but write " + mustHave + " was acknowledged, at " + where);
        }
      }
    }
  }
}
