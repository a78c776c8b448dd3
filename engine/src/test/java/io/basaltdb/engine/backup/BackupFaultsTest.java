package io.basaltdb.engine.backup;

import static io.basaltdb.engine.backup.BackupTest.A;
import static io.basaltdb.engine.backup.BackupTest.B;
import static io.basaltdb.engine.backup.BackupTest.bytes;
import static io.basaltdb.engine.backup.BackupTest.dump;
import static io.basaltdb.engine.backup.BackupTest.put;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basaltdb.engine.Database;
import io.basaltdb.engine.EngineOptions;
import io.basaltdb.engine.Seeds;
import io.basaltdb.engine.io.FaultInjectingFileSystem;
import io.basaltdb.engine.io.FaultInjectingFileSystem.Action;
import io.basaltdb.engine.io.NioFileSystem;
import io.basaltdb.storage.CorruptionException;
import io.basaltdb.storage.Durability;
import io.basaltdb.storage.Get;
import io.basaltdb.storage.StorageIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A backup interrupted at each of its file operations in turn (a failure, or a full disk) is
 * refused by restore and leaves the database untouched and writable; a bit flipped anywhere
 * in a backup is found by verify and by restore, which name the file.
 */
class BackupFaultsTest {
  @TempDir Path tmp;

  @Test
  void aBackupInterruptedAtEachStepIsRefusedAndTheDatabaseIsUntouched() throws Exception {
    FaultInjectingFileSystem fs = new FaultInjectingFileSystem(tmp.resolve("trash"));
    Path dir = tmp.resolve("db").toAbsolutePath();
    List<String> before;
    int steps;
    int written = 0;
    try (Database db = BackupTest.create(dir, fs)) {
      for (int i = 0; i < 2_000; i++) {
        db.table(i % 2 == 0 ? A : B).put(put(String.format("r%04d", i), "v" + i,
            Durability.ASYNC));
      }
      db.admin().flush(A); // files to link, and a log with b's rows to copy
      db.sync();
      assertTrue(db.awaitBackgroundWork(30_000));
      before = dump(db, null, A, B);
      steps = countSteps(db, fs, tmp.resolve("clean"));
      assertTrue(steps > 20, "file operations of a backup: " + steps);
      System.out.println("a backup interrupted at each of its " + steps + " file operations");
      for (int step = 1; step <= steps; step++) {
        Path dest = tmp.resolve("backup" + step).toAbsolutePath();
        Action fault = step % 2 == 0 ? Action.DISK_FULL : Action.FAIL;
        AtomicLong n = new AtomicLong();
        List<String> touched = new ArrayList<>();
        int at = step;
        fs.setFaults((op, p, k) -> {
          if (p.startsWith(dir)) {
            synchronized (touched) {
              touched.add(op + " " + p);
            }
          }
          return p.startsWith(dest) && n.incrementAndGet() == at ? fault : Action.PASS;
        });
        try {
          db.backup(dest, BackupOptions.defaults());
          throw new AssertionError("step " + step + " of " + steps + " did not fail");
        } catch (StorageIOException e) {
          // expected: the message says the backup is incomplete, or (the last directory sync)
          // that BACKUP was written but not known durable
        } finally {
          fs.setFaults((op, p, k) -> Action.PASS);
        }
        assertEquals(List.of(), touched, "step " + step + ": the database's files were touched");
        if (Files.exists(dest.resolve(BackupManifest.NAME))) {
          // only the sync after the manifest's rename failed: the backup is whole
          assertEquals(steps, step, "a manifest written before the last step");
          BackupCheck.verify(NioFileSystem.INSTANCE, dest, true);
        } else {
          CorruptionException refused = assertThrows(CorruptionException.class,
              () -> BackupRestore.restore(NioFileSystem.INSTANCE, dest, tmp.resolve("r"), false,
                  p -> { }), "step " + step);
          assertTrue(refused.getMessage().contains("not a complete backup"),
              refused.getMessage());
          assertFalse(Files.exists(tmp.resolve("r")));
        }
        db.table(A).put(put("after" + step, "w", Durability.SYNC)); // still writable
        written++;
        assertEquals("w", new String(db.table(A).get(new Get(bytes("after" + step)))
            .getValue(BackupTest.F, BackupTest.Q), StandardCharsets.UTF_8));
      }
    }
    try (Database db = Database.open(dir, EngineOptions.defaults())) {
      List<String> after = dump(db, null, A, B);
      assertEquals(before.size() + written, after.size());
      assertTrue(after.containsAll(before), "every row of before the backups");
    }
  }

  /** The operations a clean backup makes under its directory. */
  private static int countSteps(Database db, FaultInjectingFileSystem fs, Path dest) {
    Path d = dest.toAbsolutePath();
    AtomicLong n = new AtomicLong();
    fs.setFaults((op, p, k) -> {
      if (p.startsWith(d)) {
        n.incrementAndGet();
      }
      return Action.PASS;
    });
    db.backup(d, BackupOptions.defaults());
    fs.setFaults((op, p, k) -> Action.PASS);
    return (int) n.get();
  }

  @Test
  void aBitFlippedAnywhereInABackupIsFoundAndNamed() throws Exception {
    long seed = Seeds.seed("BackupFaultsTest.aBitFlippedAnywhereInABackupIsFoundAndNamed");
    Random rnd = new Random(seed);
    Path dest = tmp.resolve("backup");
    try (Database db = BackupTest.create(tmp.resolve("db"), NioFileSystem.INSTANCE)) {
      for (int i = 0; i < 3_000; i++) {
        db.table(A).put(put(String.format("r%04d", i % 2000), "v" + i, Durability.ASYNC));
      }
      db.backup(dest, BackupOptions.defaults().withCopyOnly(true)); // linked files are shared
    }
    BackupCheck.verify(NioFileSystem.INSTANCE, dest, true);
    List<String> files = new ArrayList<>();
    BackupManifest.read(NioFileSystem.INSTANCE, dest).files().forEach(e -> files.add(e.path()));
    files.add(BackupManifest.NAME);
    for (String f : files) {
      Path p = dest.resolve(f);
      byte[] good = Files.readAllBytes(p);
      byte[] bad = good.clone();
      int at = rnd.nextInt(bad.length);
      bad[at] ^= (byte) (1 << rnd.nextInt(8));
      Files.write(p, bad);
      try {
        CorruptionException v = assertThrows(CorruptionException.class,
            () -> BackupCheck.verify(NioFileSystem.INSTANCE, dest, false), f + " byte " + at);
        assertTrue(v.getMessage().contains(dest.resolve(f).toString())
            || (f.equals(BackupManifest.NAME) && v.getMessage().contains(f)), v.getMessage());
        CorruptionException r = assertThrows(CorruptionException.class,
            () -> BackupRestore.restore(NioFileSystem.INSTANCE, dest, tmp.resolve("r"), false,
                q -> { }), f + " byte " + at);
        assertTrue(r.getMessage().contains(f), r.getMessage());
        assertFalse(Files.exists(tmp.resolve("r")), "nothing restored from a damaged backup");
        assertFalse(Files.exists(tmp.resolve("r.restoring")), "the partial copy is removed");
      } finally {
        Files.write(p, good);
      }
    }
    System.out.println("bit flips found in all " + files.size() + " files of the backup");
  }
}
